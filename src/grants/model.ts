/**
 * Grant records → N-Triples of the grant graph, layout 3 (`GRANT_LAYOUT`).
 *
 * Per edge, five triples plus the purpose and the cash/non-cash split where filed:
 *   <edge> grants:recipient <org> ; grants:amount N ; prov:wasDerivedFrom <list> ; grants:sourceRecord "row=12" ;
 *          grants:recipientAddress <place> .
 * The address is the one the filer wrote for this grant (layout 3; layout 2 kept addresses on the
 * recipient only, so a recipient filed under two states could not be placed grant by grant). It is
 * one node per distinct country, state and city, shared by every grant filed there, so the city
 * costs no triple per edge:
 *   <place> a schema:PostalAddress ; schema:addressCountry "US" ; schema:addressRegion "OH" ; schema:addressLocality "TOLEDO" .
 * The recipient keeps the addresses filers gave it (every one, as before), for naming it.
 * What every grant of one filing and payment status shares is stated once, on its grant list:
 *   <list> a grants:GrantList ; dct:isPartOf <filing> ; grants:funder <org> ; grants:taxYear Y ;
 *          grants:paymentStatus grants:Paid|grants:ApprovedForFuturePayment .
 * (Layout 1 wrote the type, funder, tax year and status on every edge, and derived it from the
 * filing: eight triples an edge.) Organizations, filings, lists and documents are written once
 * each. Every IRI is minted from the record's own keys (EIN; normalized name + state; document id
 * + record; filing + status), so writing the same record twice yields the same triples: ingest is
 * idempotent by construction.
 *
 * N-Triples is written by hand here because the generator writes millions of edges with it and
 * every IRI is minted by this module; literals are escaped per the N-Triples grammar.
 */
import { createHash } from 'node:crypto';
import { DCT, PROV, RDF, RDFS, XSD } from '../rdf/vocab.ts';
import { G, SDO, type GrantIris } from './vocab.ts';
import type { FilingCover, GrantEdge, NteeCode, RecipientKey, SourceDoc } from './types.ts';

export const iriNt = (iri: string): string => `<${iri}>`;

export function litNt(value: string, datatype?: string): string {
  const body = value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
  return datatype && datatype !== XSD.string ? `"${body}"^^<${datatype}>` : `"${body}"`;
}

/** A whole-dollar amount as xsd:integer, anything else as xsd:decimal. */
export const amountNt = (n: number): string => (Number.isInteger(n) ? litNt(String(n), XSD.integer) : litNt(String(n), XSD.decimal));
export const intNt = (n: number): string => litNt(String(n), XSD.integer);

const hash = (s: string, n = 24): string => createHash('sha1').update(s).digest('hex').slice(0, n);

/** The local part of an organization's IRI: its EIN, or a hash of its normalized name and state. */
export function orgLocal(key: RecipientKey): string {
  return key.kind === 'ein' ? `ein-${key.ein}` : `name-${hash(`${key.nameKey}|${(key.state ?? '').toUpperCase()}`, 20)}`;
}

export const statusIri = (s: GrantEdge['status']): string => (s === 'paid' ? G.Paid : G.ApprovedForFuturePayment);

export function filingIriOf(iris: GrantIris, c: Pick<FilingCover, 'funderEin' | 'taxYear' | 'form'>): string {
  return iris.filing(c.funderEin, c.taxYear, c.form);
}

/** The filing an edge belongs to: its funder, tax year and form. */
export function formOf(part: GrantEdge['part']): string {
  return part === 'schedule_i' ? '990' : '990PF';
}

export class TripleWriter {
  readonly lines: string[] = [];
  /** Organizations and names already written in this batch (one org's triples once). */
  readonly #seen = new Set<string>();
  t(s: string, p: string, o: string): void { this.lines.push(`${iriNt(s)} ${iriNt(p)} ${o} .`); }
  once(key: string): boolean { if (this.#seen.has(key)) return false; this.#seen.add(key); return true; }
  text(): string { return this.lines.length ? `${this.lines.join('\n')}\n` : ''; }
}

export function writeOrg(w: TripleWriter, iris: GrantIris, key: RecipientKey, o: { name: string; nameKey: string; ein: string | null; city: string | null; state: string | null; country: string | null }): string {
  const iri = iris.org(orgLocal(key));
  if (w.once(`org|${iri}`)) {
    w.t(iri, RDF.type, iriNt(SDO.Organization));
    if (o.ein) w.t(iri, SDO.taxID, litNt(o.ein));
  }
  if (o.name && w.once(`name|${iri}|${o.name}`)) w.t(iri, SDO.name, litNt(o.name));
  if (o.nameKey && w.once(`key|${iri}|${o.nameKey}`)) w.t(iri, G.nameKey, litNt(o.nameKey));
  if (o.city && w.once(`city|${iri}|${o.city.toUpperCase()}`)) w.t(iri, SDO.addressLocality, litNt(o.city));
  if (o.state && w.once(`state|${iri}|${o.state.toUpperCase()}`)) w.t(iri, SDO.addressRegion, litNt(o.state.toUpperCase()));
  if (o.country && w.once(`country|${iri}|${o.country}`)) w.t(iri, SDO.addressCountry, litNt(o.country));
  return iri;
}

/** The city as a place is keyed and written: trimmed, spaces collapsed, upper case (filers write "Toledo" and "TOLEDO"). */
export const placeCity = (city: string): string => city.trim().replace(/\s+/g, ' ').toUpperCase();

/** A recipient address as filed, once per batch; null when the filer wrote none of city, state and country. */
export function writePlace(w: TripleWriter, iris: GrantIris, a: { city: string | null; state: string | null; country: string | null }): string | null {
  const city = a.city?.trim() ? placeCity(a.city) : null;
  const state = a.state?.trim() ? a.state.trim().toUpperCase() : null;
  const country = a.country?.trim() ? a.country.trim().toUpperCase() : null;
  if (!city && !state && !country) return null;
  const iri = iris.place(country, state, city);
  if (w.once(`place|${iri}`)) {
    w.t(iri, RDF.type, iriNt(SDO.PostalAddress));
    if (country) w.t(iri, SDO.addressCountry, litNt(country));
    if (state) w.t(iri, SDO.addressRegion, litNt(state));
    if (city) w.t(iri, SDO.addressLocality, litNt(city));
  }
  return iri;
}

export function edgeIri(iris: GrantIris, e: Pick<GrantEdge, 'source' | 'part'>): string {
  return iris.edge(hash(`${e.source.docId}|${e.source.record}|${e.part}`));
}

/** The grant list an edge belongs to: its filing's grants of its payment status. */
export function listIriOf(iris: GrantIris, e: Pick<GrantEdge, 'funder' | 'taxYear' | 'part' | 'status'>): string {
  return iris.list(filingIriOf(iris, { funderEin: e.funder.ein, taxYear: e.taxYear, form: formOf(e.part) }), statusIri(e.status));
}

/** A grant list, once per batch: what its grants share (funder, tax year, payment status), and the filing it is part of. */
export function writeList(w: TripleWriter, iris: GrantIris, filing: string, funder: string, taxYear: number, status: string): string {
  const iri = iris.list(filing, status);
  if (w.once(`list|${iri}`)) {
    w.t(iri, RDF.type, iriNt(G.GrantList));
    w.t(iri, DCT.isPartOf, iriNt(filing));
    w.t(iri, G.funder, iriNt(funder));
    w.t(iri, G.taxYear, intNt(taxYear));
    w.t(iri, G.paymentStatus, iriNt(status));
  }
  return iri;
}

export function writeEdge(w: TripleWriter, iris: GrantIris, e: GrantEdge, nameKey: (name: string) => string): string {
  const f = writeOrg(w, iris, { kind: 'ein', ein: e.funder.ein }, { name: e.funder.name, nameKey: nameKey(e.funder.name), ein: e.funder.ein, city: null, state: null, country: null });
  const r = writeOrg(w, iris, e.recipient.key, { name: e.recipient.name, nameKey: e.recipient.key.kind === 'name' ? e.recipient.key.nameKey : nameKey(e.recipient.name), ein: e.recipient.ein, city: e.recipient.city, state: e.recipient.state, country: e.recipient.country });
  const list = writeList(w, iris, filingIriOf(iris, { funderEin: e.funder.ein, taxYear: e.taxYear, form: formOf(e.part) }), f, e.taxYear, statusIri(e.status));
  const iri = edgeIri(iris, e);
  w.t(iri, G.recipient, iriNt(r));
  w.t(iri, G.amount, amountNt(e.amount));
  w.t(iri, PROV.wasDerivedFrom, iriNt(list));
  w.t(iri, G.sourceRecord, litNt(e.source.record));
  const place = writePlace(w, iris, e.recipient);
  if (place) w.t(iri, G.recipientAddress, iriNt(place));
  if (e.purpose) w.t(iri, G.purpose, litNt(e.purpose));
  if (e.cash !== null) w.t(iri, G.cashAmount, amountNt(e.cash));
  if (e.nonCash !== null && e.nonCash !== 0) w.t(iri, G.nonCashAmount, amountNt(e.nonCash));
  return iri;
}

export function writeDoc(w: TripleWriter, iris: GrantIris, d: SourceDoc, ingestedAt: string): string {
  const iri = iris.doc(d.docId);
  w.t(iri, RDF.type, iriNt(G.SourceDocument));
  w.t(iri, RDF.type, iriNt(PROV.Entity));
  w.t(iri, DCT.title, litNt(d.title));
  w.t(iri, DCT.identifier, litNt(d.docId));
  w.t(iri, G.sha256, litNt(d.sha256));
  w.t(iri, G.sourceKind, litNt(d.kind));
  w.t(iri, PROV.atLocation, litNt(d.fileName));
  w.t(iri, PROV.generatedAtTime, litNt(ingestedAt, XSD.dateTime));
  if (d.upstream) w.t(iri, PROV.hadPrimarySource, /^https?:\/\//.test(d.upstream) && !/\s/.test(d.upstream) ? iriNt(d.upstream) : litNt(d.upstream));
  if (d.note) w.t(iri, RDFS.comment, litNt(d.note));
  return iri;
}

export function writeFiling(w: TripleWriter, iris: GrantIris, c: FilingCover): string {
  const iri = filingIriOf(iris, c);
  const funder = iris.org(orgLocal({ kind: 'ein', ein: c.funderEin }));
  w.t(iri, RDF.type, iriNt(G.Filing));
  w.t(iri, RDF.type, iriNt(PROV.Entity));
  w.t(iri, G.funder, iriNt(funder));
  w.t(iri, G.taxYear, intNt(c.taxYear));
  w.t(iri, G.form, litNt(c.form));
  w.t(iri, G.edgeCount, intNt(c.edges));
  w.t(iri, PROV.wasDerivedFrom, iriNt(iris.doc(c.docId)));
  return iri;
}

export function writeNtee(w: TripleWriter, iris: GrantIris, n: NteeCode): void {
  const iri = iris.org(orgLocal({ kind: 'ein', ein: n.ein }));
  if (w.once(`ntee|${iri}|${n.code}`)) w.t(iri, G.nteeCode, litNt(n.code));
}
