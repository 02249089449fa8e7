/** Cross-checks as PROV-O: an agreeing check corroborates, a disagreeing one disputes; the shapes hold both to it. */
import { beforeAll, describe, expect, it } from 'vitest';
import { crossCheckQuads, crossCheckRunQuads, evidenceQuads } from '../../src/evidence/rdf.ts';
import { runIris } from '../../src/evidence/iris.ts';
import { loadEvidenceShapes } from '../../src/evidence/shacl.ts';
import type { CompiledShapes } from '../../src/ard/shacl.ts';
import type { Attempt } from '../../src/execute/attempt.ts';
import type { CrossCheck } from '../../src/execute/corroborate.ts';
import type { AdmittedEvidence } from '../../src/evidence/types.ts';
import { factory, type Quad } from '../../src/rdf/store.ts';
import { ASSAY, PROV, RDF } from '../../src/rdf/vocab.ts';

const BASE = 'http://assay.test/';
const iris = runIris(BASE, 'run0002');
const raw = { source: 'sec-edgar', method: 'GET', url: 'https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json', status: 200, sha256: 'af'.repeat(32), retrievedAt: '2026-03-25' };
const second = { source: 'sec-edgar', method: 'GET', url: 'https://data.sec.gov/api/xbrl/companyconcept/CIK0000320193/us-gaap/Revenues.json', status: 200, sha256: 'bd'.repeat(32), retrievedAt: 'unknown', origin: { kind: 'sample' as const, derived: true } };
const attempt = (n: number, operation: string, responses: Attempt['responses'], disposition: Attempt['disposition'] = 'accepted'): Attempt => ({
  n, source: 'sec-edgar', operation, measure: 'sec-edgar/us-gaap/Revenues', bindings: { cik: '0000320193' }, requests: responses.map((r) => r.url), responses,
  startedAt: '2026-11-30T00:00:00.000Z', endedAt: '2026-11-30T00:00:00.010Z', elapsedMs: 10, checks: [], disposition,
});
const evidence: AdmittedEvidence = {
  index: 1, attemptN: 1, source: 'sec-edgar', operation: 'companyfacts', measure: 'sec-edgar/us-gaap/Revenues', measureLabel: 'Revenues', attribute: 'revenue',
  value: 383285000000, unit: 'USD', currency: 'USD', period: { label: 'FY2023', start: '2022-09-25', end: '2023-09-30', basis: 'fiscal', fiscalYear: 2023 },
  entity: { label: 'Apple Inc.', keyType: 'cik', key: '0000320193', keys: { cik: '0000320193' } }, raw, assurance: { match: 'key', planVerdict: 'exact', warnings: [] },
};
const check = (outcome: CrossCheck['outcome'], value?: number): CrossCheck => ({
  evidenceIndex: 1, source: 'sec-edgar', operation: 'companyconcept', outcome, primaryValue: evidence.value, detail: 'test', reason: outcome === 'failed' ? 'read_failed' : 'compared',
  attempt: attempt(2, 'companyconcept', outcome === 'agrees' || outcome === 'disagrees' ? [second] : [], outcome === 'failed' ? 'errored' : 'accepted'),
  ...(value !== undefined ? { value, response: second } : {}), sharedUpstream: 'replays a DERIVED sample (test)',
});

let shapes: CompiledShapes;
beforeAll(async () => { shapes = await loadEvidenceShapes(); });
const violations = async (q: Quad[]) => (await shapes.validate(q)).filter((r) => r.severity === 'Violation');
const graphOf = (c: CrossCheck) => [...evidenceQuads([evidence], [attempt(1, 'companyfacts', [raw])], iris, BASE), ...crossCheckQuads([c], iris, BASE)];
const has = (q: Quad[], s: string, p: string, o?: string) => q.some((x) => x.subject.value === s && x.predicate.value === p && (o === undefined || x.object.value === o));

describe('cross-check RDF', () => {
  it('an agreeing cross-check: evidence assay:corroboratedBy a prov:Activity that prov:used the second response; conforms', async () => {
    const q = graphOf(check('agrees', 383285000000));
    expect(await violations(q)).toEqual([]);
    const c = iris.attempt(2);
    expect(has(q, iris.evidence(1), ASSAY.corroboratedBy, c)).toBe(true);
    expect(has(q, c, RDF.type, PROV.Activity) && has(q, c, RDF.type, ASSAY.CrossCheck)).toBe(true);
    expect(has(q, c, PROV.used, iris.response(second.sha256))).toBe(true);
    expect(has(q, iris.response(second.sha256), ASSAY.requestUrl, second.url)).toBe(true);
    expect(has(q, c, ASSAY.crossCheckValue, '383285000000')).toBe(true);
    expect(has(q, c, ASSAY.warning, 'replays a DERIVED sample (test)')).toBe(true);
  });

  it('a disagreeing cross-check disputes the evidence, and conforms', async () => {
    const q = graphOf(check('disagrees', 390000000000));
    expect(await violations(q)).toEqual([]);
    expect(has(q, iris.evidence(1), ASSAY.disputedBy, iris.attempt(2))).toBe(true);
    expect(has(q, iris.evidence(1), ASSAY.corroboratedBy)).toBe(false);
  });

  it('the shapes refuse a corroboration by a disagreeing check, and a check with no second response', async () => {
    const q = graphOf(check('disagrees', 390000000000));
    const forged = q.map((x) => (x.predicate.value === ASSAY.disputedBy ? factory.quad(x.subject, factory.namedNode(ASSAY.corroboratedBy), x.object, x.graph) : x));
    expect((await violations(forged)).map((v) => v.message).join()).toMatch(/corroborated only by a cross-check that agreed/);
    const unsourced = graphOf(check('agrees', 383285000000)).filter((x) => !(x.subject.value === iris.attempt(2) && x.predicate.value === PROV.used));
    expect((await violations(unsourced)).length).toBeGreaterThan(0);
  });

  it('checks that read nothing comparable stay out of the evidence graph but are recorded in the run graph', () => {
    const failed = check('failed');
    expect(crossCheckQuads([failed], iris, BASE)).toEqual([]);
    const run = crossCheckRunQuads([failed], iris, BASE);
    expect(has(run, iris.run, ASSAY.attempt, iris.attempt(2))).toBe(true);
    expect(has(run, iris.attempt(2), ASSAY.crossCheckOutcome, 'failed')).toBe(true);
    expect(has(run, iris.attempt(2), ASSAY.disposition, 'errored')).toBe(true);
    expect(run.every((x) => x.graph.value === iris.runGraph)).toBe(true);
  });
});
