/**
 * Admitted evidence and attempts as PROV-O RDF.
 *
 * Evidence graph: each evidence a prov:Entity + assay:Evidence with value, unit, currency, period,
 * entity (with its identifiers), measure and asserted assurance, prov:wasGeneratedBy its accepted
 * attempt (prov:Activity + assay:Attempt, start/end times, prov:wasAssociatedWith the connector as a
 * prov:SoftwareAgent) which prov:used the publisher response (prov:Entity + assay:PublisherResponse
 * with URL, retrieval time and content hash, attributed to the catalog's publisher). A store read
 * (an attempt that read a population graph already in the store) is typed assay:StoreRead and
 * prov:used the graph, which prov:wasDerivedFrom the original publisher response(s).
 * Run graph: every attempt of the run (rejected and errored ones too, never typed as evidence).
 * Cross-checks (src/execute/corroborate.ts): a cross-check is an attempt (prov:Activity +
 * assay:Attempt + assay:CrossCheck) that prov:used the second publisher response and names the
 * evidence it compared (assay:crossCheckOf), its outcome and the second value. In the evidence graph
 * an agreeing check is linked from the evidence by assay:corroboratedBy, a disagreeing one by
 * assay:disputedBy; every check, whatever its outcome, is in the run graph.
 */
import { catalogIris } from '../ard/rdf/iris.ts';
import { jsFactory as factory, type Quad } from '../rdf/store.ts';
import { ASSAY, OWL, PROV, RDF, RDFS, SCHEMA, WD, XSD } from '../rdf/vocab.ts';
import type { Attempt } from '../execute/attempt.ts';
import type { CrossCheck } from '../execute/corroborate.ts';
import type { RawPointer } from '../http/client.ts';
import type { AnyEvidence } from './types.ts';
import type { RunIris } from './iris.ts';

const { namedNode: nn, literal: lit, quad } = factory;
export const NO_RETRIEVAL_TIME = 'retrieval time not recorded';
type Obj = Parameters<typeof quad>[2];

function writer(graph: string) {
  const out: Quad[] = [];
  const g = nn(graph);
  return { out, add: (s: string, p: string, o: Obj) => out.push(quad(nn(s), nn(p), o, g)) };
}
const dec = (v: number) => lit(Number.isInteger(v) ? String(v) : String(v), nn(Number.isInteger(v) ? XSD.integer : XSD.decimal));
const dt = (iso: string) => lit(iso, nn(XSD.dateTime));
/** Cassettes record the day a sample was taken, not the instant: keep the precision that exists. */
const when = (t: string) => lit(t, nn(/^\d{4}-\d{2}-\d{2}$/.test(t) ? XSD.date : XSD.dateTime));

function attemptQuads(add: (s: string, p: string, o: Obj) => void, a: Attempt, iris: RunIris, base: string): void {
  const s = iris.attempt(a.n);
  add(s, RDF.type, nn(PROV.Activity));
  add(s, RDF.type, nn(ASSAY.Attempt));
  add(s, ASSAY.operation, lit(`${a.source}/${a.operation}`));
  add(s, ASSAY.bindings, lit(JSON.stringify(a.bindings)));
  add(s, ASSAY.disposition, lit(a.disposition));
  add(s, PROV.startedAtTime, dt(a.startedAt));
  add(s, PROV.endedAtTime, dt(a.endedAt || a.startedAt));
  add(s, ASSAY.elapsedMs, lit(String(Math.round(a.elapsedMs)), nn(XSD.integer)));
  add(s, PROV.wasAssociatedWith, nn(iris.agent(a.source)));
  add(iris.agent(a.source), RDF.type, nn(PROV.SoftwareAgent));
  add(iris.agent(a.source), RDFS.label, lit(`Assay connector for ${a.source}`));
  if (a.measure) add(s, ASSAY.measure, nn(measureIri(base, a.measure)));
  for (const u of a.requests) add(s, ASSAY.requestUrl, lit(u, nn(XSD.anyURI)));
  for (const c of a.checks) add(s, ASSAY.validationNote, lit(`${c.name} ${c.passed ? 'passed' : 'FAILED'}: ${c.detail}`));
  if (a.reason) add(s, ASSAY.rejectionReason, lit(a.reason));
  if (a.kind === 'store_read' && a.graph) {
    // a read of a population graph already in the store: the attempt used the graph, which was derived from the publisher response(s)
    add(s, RDF.type, nn(ASSAY.StoreRead));
    add(s, PROV.used, nn(a.graph));
    add(a.graph, RDF.type, nn(ASSAY.PopulationGraph));
    add(a.graph, RDF.type, nn(PROV.Entity));
    for (const r of a.responses) { add(a.graph, PROV.wasDerivedFrom, nn(iris.response(r.sha256))); responseQuads(add, r, iris, base); }
    return;
  }
  for (const r of a.responses) { add(s, PROV.used, nn(iris.response(r.sha256))); responseQuads(add, r, iris, base); }
}

function responseQuads(add: (s: string, p: string, o: Obj) => void, r: RawPointer, iris: RunIris, base: string): void {
  const s = iris.response(r.sha256);
  add(s, RDF.type, nn(PROV.Entity));
  add(s, RDF.type, nn(ASSAY.PublisherResponse));
  add(s, ASSAY.requestUrl, lit(r.url, nn(XSD.anyURI)));
  if (/^\d{4}-\d{2}-\d{2}/.test(r.retrievedAt)) add(s, PROV.generatedAtTime, when(r.retrievedAt));
  else add(s, ASSAY.warning, lit(NO_RETRIEVAL_TIME)); // a DERIVED sample with no recording date: say so, never invent one
  add(s, ASSAY.contentHash, lit(r.sha256));
  add(s, PROV.wasAttributedTo, nn(catalogIris(base).publisher(r.source)));
  if (r.cassette) add(s, ASSAY.cassette, lit(r.cassette));
  if (r.origin?.derived) add(s, ASSAY.warning, lit('DERIVED sample: built from real publisher data, not a byte-for-byte response'));
  if (r.origin?.trimmed) add(s, ASSAY.warning, lit('TRIMMED sample: incomplete by construction'));
}

export function measureIri(base: string, measureKey: string): string {
  const [pub, ...rest] = measureKey.split('/');
  return catalogIris(base).measure(pub!, rest.join('/'));
}

/** Quads for the evidence graph: evidence, their accepted attempts, responses, agents and entities. */
export function evidenceQuads(evidence: readonly AnyEvidence[], attempts: readonly Attempt[], iris: RunIris, base: string): Quad[] {
  const { out, add } = writer(iris.evidenceGraph);
  for (const e of evidence) {
    const s = iris.evidence(e.index);
    add(s, RDF.type, nn(PROV.Entity));
    add(s, RDF.type, nn(ASSAY.Evidence));
    add(s, RDFS.label, lit(`${e.entity.label} · ${e.measureLabel} · ${e.period.label}`));
    if (typeof e.value === 'number') add(s, ASSAY.value, dec(e.value));
    else if (typeof e.value === 'boolean') add(s, ASSAY.value, lit(String(e.value), nn(XSD.boolean)));
    if (e.status) { add(s, ASSAY.statusField, lit(e.status.field)); add(s, ASSAY.statusCode, lit(e.status.code)); }
    if (e.record) add(s, ASSAY.recordKey, lit(e.record.key));
    add(s, ASSAY.unit, lit(e.unit));
    if (e.currency) add(s, ASSAY.currency, lit(e.currency));
    add(s, ASSAY.periodLabel, lit(e.period.label));
    if (e.period.start) add(s, ASSAY.periodStart, lit(e.period.start, nn(XSD.date)));
    if (e.period.end) add(s, ASSAY.periodEnd, lit(e.period.end, nn(XSD.date)));
    add(s, ASSAY.periodBasis, lit(e.period.basis));
    if (e.period.fiscalYear !== undefined) add(s, ASSAY.fiscalYear, lit(String(e.period.fiscalYear), nn(XSD.integer)));
    add(s, ASSAY.measure, nn(measureIri(base, e.measure)));
    add(s, ASSAY.assurance, lit(e.assurance.match === 'key' ? 'key_match' : 'name_match'));
    add(s, ASSAY.matchMethod, lit(e.assurance.match === 'key' ? e.entity.keyType : 'name'));
    add(s, ASSAY.planVerdict, lit(e.assurance.planVerdict));
    for (const w of e.assurance.warnings) add(s, ASSAY.warning, lit(w));
    const ent = iris.entity(e.entity.keyType, e.entity.key);
    add(s, ASSAY.aboutEntity, nn(ent));
    add(ent, RDF.type, nn(SCHEMA.Organization));
    add(ent, SCHEMA.name, lit(e.entity.label));
    for (const [k, v] of Object.entries(e.entity.keys)) if (v && k !== 'name') add(ent, ASSAY.entityKey, lit(`${k}=${v}`));
    if (e.entity.qid) add(ent, OWL.sameAs, nn(WD.ns + e.entity.qid));
    add(s, PROV.wasGeneratedBy, nn(iris.attempt(e.attemptN)));
    const a = attempts.find((x) => x.n === e.attemptN);
    if (!a || a.disposition !== 'accepted') throw new Error(`evidence ${e.index} names attempt ${e.attemptN}, which was not accepted: only accepted attempts produce evidence`);
    attemptQuads(add, a, iris, base);
  }
  return out;
}

/** Quads for the run graph: every attempt, whatever its disposition. */
export function attemptRunQuads(attempts: readonly Attempt[], iris: RunIris, base: string): Quad[] {
  const { out, add } = writer(iris.runGraph);
  for (const a of attempts) { add(iris.run, ASSAY.attempt, nn(iris.attempt(a.n))); attemptQuads(add, a, iris, base); }
  return out;
}

function crossCheckNode(add: (s: string, p: string, o: Obj) => void, c: CrossCheck & { attempt: Attempt }, iris: RunIris, base: string): string {
  const s = iris.attempt(c.attempt.n);
  attemptQuads(add, c.attempt, iris, base);
  add(s, RDF.type, nn(ASSAY.CrossCheck));
  add(s, ASSAY.crossCheckOf, nn(iris.evidence(c.evidenceIndex)));
  add(s, ASSAY.crossCheckOutcome, lit(c.outcome));
  if (c.value !== undefined) add(s, ASSAY.crossCheckValue, dec(c.value));
  if (c.sharedUpstream) add(s, ASSAY.warning, lit(c.sharedUpstream));
  return s;
}

/** Evidence-graph quads for cross-checks that read a comparable value (agreeing or disagreeing). */
export function crossCheckQuads(checks: readonly CrossCheck[], iris: RunIris, base: string): Quad[] {
  const { out, add } = writer(iris.evidenceGraph);
  for (const c of checks) {
    if (!c.attempt || !c.response || (c.outcome !== 'agrees' && c.outcome !== 'disagrees')) continue;
    const s = crossCheckNode(add, c as CrossCheck & { attempt: Attempt }, iris, base);
    add(iris.evidence(c.evidenceIndex), c.outcome === 'agrees' ? ASSAY.corroboratedBy : ASSAY.disputedBy, nn(s));
  }
  return out;
}

/** Run-graph quads for every attempted cross-check, whatever its outcome. */
export function crossCheckRunQuads(checks: readonly CrossCheck[], iris: RunIris, base: string): Quad[] {
  const { out, add } = writer(iris.runGraph);
  for (const c of checks) {
    if (!c.attempt) continue;
    add(iris.run, ASSAY.attempt, nn(crossCheckNode(add, c as CrossCheck & { attempt: Attempt }, iris, base)));
  }
  return out;
}
