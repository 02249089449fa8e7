/**
 * The grant graph's terms, each with the label and comment it is published with. Reused first:
 * PROV-O (where an edge came from), schema.org (names, tax ids, addresses), Dublin Core. The
 * `grants:` terms say what those do not: the edge itself, paid versus approved for future payment,
 * and the rollups materialized at ingest. A typo in a term is a compile error here.
 */
import { ensureSlash } from '../rdf/vocab.ts';

export const GRANTS_NS = 'https://w3id.org/assay/grants#';

interface TermDoc { label: string; comment: string; kind: 'class' | 'property' | 'individual' }

const DOCS = {
  Grant: { kind: 'class', label: 'grant', comment: 'One grant as a filer reported it: a recipient, an amount, the recipient address the filer gave for it, and the grant list it was read from (prov:wasDerivedFrom), which gives its funder, tax year and payment status; its source record says where in the document. Not written as a type triple (layout 2 on): an edge is whatever has grants:recipient in the edge graph.' },
  GrantList: { kind: 'class', label: 'grant list', comment: 'The grants of one payment status in one filing (Schedule I; Form 990-PF line 3a or 3b): its funder, tax year and payment status, stated once for every grant derived from it. Part of its filing (dct:isPartOf).' },
  Filing: { kind: 'class', label: 'filing', comment: 'One funder\'s return for one tax year and form, as far as the graph holds it; the coverage of the graph is the set of these.' },
  SourceDocument: { kind: 'class', label: 'source document', comment: 'A file an ingest read: an e-file return, a grants extract or a Business Master File extract, with its SHA-256.' },
  Rollup: { kind: 'class', label: 'rollup', comment: 'Totals over grants materialized at ingest so graph-wide questions do not scan edges: per funder, recipient, funder-recipient pair, recipient state, or funder and recipient state; always for one payment status. The superclass of the rollup classes; not written on each rollup (layout 2).' },
  FunderRollup: { kind: 'class', label: 'funder rollup', comment: 'Totals of one funder\'s grants of one payment status.' },
  RecipientRollup: { kind: 'class', label: 'recipient rollup', comment: 'Totals of one recipient\'s grants of one payment status.' },
  PairRollup: { kind: 'class', label: 'funder-recipient rollup', comment: 'Totals of the grants of one payment status from one funder to one recipient, for a pair with two or more such grants; a pair with one grant has no rollup (its grant is its total).' },
  StateRollup: { kind: 'class', label: 'state rollup', comment: 'Totals of the grants of one payment status whose recipient address as filed for the grant (grants:recipientAddress) is in one state or province; its counterpart count is the distinct recipients of those grants.' },
  FunderStateRollup: { kind: 'class', label: 'funder-state rollup', comment: 'Totals of one funder\'s grants of one payment status whose recipient address as filed is in one state.' },
  UnnamedRecipient: { kind: 'class', label: 'unnamed recipient', comment: 'A recipient whose filed name is what a filer wrote in place of one ("SEE ATTACHED SCHEDULE", "VARIOUS"): it names no organization and may total several grants listed in an attachment. Stated in the rollups graph, derived at ingest from the filed names (layout 4); rankings of recipients and of single grants leave it out, saying how many.' },
  CoverageRollup: { kind: 'class', label: 'coverage rollup', comment: 'What the graph holds, counted at ingest: its filings, their funders, their source documents and tax years, so an answer states its coverage without scanning the filings.' },
  GrantGraph: { kind: 'class', label: 'grant graph', comment: 'The named graph of grant edges; says whether its coverage is declared complete and whether it is synthetic.' },
  funder: { kind: 'property', label: 'funder', comment: 'The organization that made the grant (the filer).' },
  recipientAddress: { kind: 'property', label: 'recipient address', comment: 'The recipient\'s address as the filer wrote it for this grant (layout 3): a schema:PostalAddress shared by every grant filed to the same city, state or province and country (city in upper case, spaces collapsed). State totals count each grant in its own filed state, so an organization filed under two states is counted in each for the grants filed there.' },
  recipient: { kind: 'property', label: 'recipient', comment: 'The organization the grant went to: keyed by the EIN the filer reported, or only by the name and state it wrote.' },
  amount: { kind: 'property', label: 'amount', comment: 'The grant amount as filed in whole US dollars: cash plus non-cash where the form splits them.' },
  cashAmount: { kind: 'property', label: 'cash amount', comment: 'The cash part of a grant, where the form reports it (Schedule I).' },
  nonCashAmount: { kind: 'property', label: 'non-cash amount', comment: 'The non-cash part of a grant, where the form reports it (Schedule I).' },
  paymentStatus: { kind: 'property', label: 'payment status', comment: 'grants:Paid or grants:ApprovedForFuturePayment. Amounts of different statuses are never summed together.' },
  Paid: { kind: 'individual', label: 'paid', comment: 'Paid during the tax year (Schedule I; Form 990-PF Part XV line 3a).' },
  ApprovedForFuturePayment: { kind: 'individual', label: 'approved for future payment', comment: 'Approved during the year for payment in a later year (Form 990-PF Part XV line 3b): not paid.' },
  taxYear: { kind: 'property', label: 'tax year', comment: 'The tax year of the return that reports the grant.' },
  purpose: { kind: 'property', label: 'purpose', comment: 'The purpose of the grant as the filer wrote it.' },
  sourceRecord: { kind: 'property', label: 'source record', comment: 'Where in the source document the grant is: an RFC 7111 row fragment (row=N) or an element path.' },
  nameKey: { kind: 'property', label: 'name key', comment: 'An organization name normalized for matching (lower case, punctuation and legal-form words dropped).' },
  parentNameKey: { kind: 'property', label: 'parent name key', comment: 'On a recipient filed without an EIN as "Parent - Unit" (a school, center or project of a parent organization: "University of Chicago - Urban Labs"), in the rollups graph: the name key of the parent. Derived at ingest from the filed names (layout 4; units.ts gives the rule), so a question about the parent counts the grants of its units in its own state.' },
  nteeCode: { kind: 'property', label: 'NTEE code', comment: 'The National Taxonomy of Exempt Entities code the IRS Business Master File gives the organization.' },
  form: { kind: 'property', label: 'form', comment: 'The return form of a filing: 990, 990PF.' },
  edgeCount: { kind: 'property', label: 'edge count', comment: 'How many grant edges the graph holds from a filing.' },
  sha256: { kind: 'property', label: 'SHA-256', comment: 'SHA-256 of a source document\'s bytes, hex.' },
  sourceKind: { kind: 'property', label: 'source kind', comment: 'efile_xml, grants_extract or bmf_extract.' },
  rollupFunder: { kind: 'property', label: 'rollup funder', comment: 'The funder a rollup totals.' },
  rollupRecipient: { kind: 'property', label: 'rollup recipient', comment: 'The recipient a rollup totals.' },
  rollupState: { kind: 'property', label: 'rollup state', comment: 'The state or province of the recipient addresses filed for the grants a rollup totals.' },
  totalAmount: { kind: 'property', label: 'total amount', comment: 'Sum of grants:amount over the rollup\'s grants (one payment status).' },
  grantCount: { kind: 'property', label: 'grant count', comment: 'Number of grants the rollup totals.' },
  counterpartCount: { kind: 'property', label: 'counterpart count', comment: 'Distinct recipients of a funder rollup, or distinct funders of a recipient rollup.' },
  filingCount: { kind: 'property', label: 'filing count', comment: 'How many filings (grants:Filing) the graph holds.' },
  funderCount: { kind: 'property', label: 'funder count', comment: 'How many distinct funders the filings of the graph are from.' },
  documentCount: { kind: 'property', label: 'document count', comment: 'How many distinct source documents the filings of the graph were read from.' },
  coverageComplete: { kind: 'property', label: 'coverage complete', comment: 'True only when an operator declared the ingest to be a complete bulk release; otherwise the graph holds only the filings listed as grants:Filing.' },
  ingestStartedAt: { kind: 'property', label: 'ingest started at', comment: 'On the graph node while an ingest that began at this time has written filings but not yet rebuilt the rollups (an ingest that stopped midway leaves it): totals may not count every filing the graph holds.' },
  layout: { kind: 'property', label: 'layout', comment: 'On the graph node: the version of the model the grant graph is written in (2: grant lists carry funder, tax year and payment status; pair rollups only for pairs of two or more grants; 3: each grant carries its recipient address as filed; 4: recipients filed as units of a parent carry the parent\'s name key, and placeholder recipients are typed grants:UnnamedRecipient, in the rollups graph). A graph in another layout is refused by readers and upgraded in place by ingests. On a source document, while an upgrade to layout 3 waits for it: the layout its grants are still written in (the filed addresses are in the file, not in the graph, until it is ingested again).' },
  synthetic: { kind: 'property', label: 'synthetic', comment: 'True on a generated benchmark graph: no edge in it is a real grant.' },
} as const satisfies Record<string, TermDoc>;

export type GrantTerm = keyof typeof DOCS;
export const G = Object.freeze(Object.fromEntries(Object.keys(DOCS).map((k) => [k, GRANTS_NS + k]))) as { readonly [K in GrantTerm]: string };
export const GRANT_TERM_DOCS: Readonly<Record<GrantTerm, TermDoc>> = DOCS;

/** The layout this build writes and reads (grants:layout on the graph node). */
export const GRANT_LAYOUT = 4;

/** schema.org terms the graph uses for organizations (schema.org names them; Assay does not). */
export const SDO = {
  Organization: 'https://schema.org/Organization',
  name: 'https://schema.org/name',
  taxID: 'https://schema.org/taxID',
  addressLocality: 'https://schema.org/addressLocality',
  addressRegion: 'https://schema.org/addressRegion',
  addressCountry: 'https://schema.org/addressCountry',
  PostalAddress: 'https://schema.org/PostalAddress',
} as const;

/** Where the graph's IRIs live under a base: graphs by role, documents, filings, organizations, edges, rollups. */
export interface GrantIris {
  graph: string;
  rollups: string;
  doc(docId: string): string;
  filing(ein: string, taxYear: number, form: string): string;
  org(local: string): string;
  edge(hash: string): string;
  rollup(path: string): string;
  /** The grant list of one payment status (its local name: Paid, ApprovedForFuturePayment) in a filing. */
  list(filing: string, status: string): string;
  /** A recipient address as filed: country, state or province, city (each URI-encoded, `-` where not filed). */
  place(country: string | null, region: string | null, city: string | null): string;
}

export function grantIris(base: string, opts: { synthetic?: boolean } = {}): GrantIris {
  const b = ensureSlash(base);
  const root = opts.synthetic ? `${b}synthetic-grants/` : `${b}grants/`;
  return {
    graph: `${b}graph/${opts.synthetic ? 'synthetic-grants' : 'grants'}`,
    rollups: `${b}graph/${opts.synthetic ? 'synthetic-grants' : 'grants'}-rollups`,
    doc: (id) => `${root}doc/${encodeURIComponent(id)}`,
    filing: (ein, y, form) => `${root}filing/${ein}/${y}/${encodeURIComponent(form)}`,
    org: (local) => `${root}org/${local}`,
    edge: (hash) => `${root}edge/${hash}`,
    rollup: (path) => `${root}rollup/${path}`,
    list: (filing, status) => `${filing}/${status.slice(status.indexOf('#') + 1)}`,
    place: (country, region, city) => `${root}place/${[country, region, city].map((x) => (x ? encodeURIComponent(x) : '-')).join('/')}`,
  };
}
