/**
 * The grant graph's records in memory: what a parser reads out of a filing or an extract row
 * (a `GrantEdge`), the document it came from (`SourceDoc`), and the filings a document covers
 * (`FilingCover`). Parsers produce these; the RDF model (model.ts) writes them; nothing else
 * invents them. Amounts are whole US dollars as filed (the e-file schema's USAmountType).
 */

/** Paid during the year (Schedule I; 990-PF line 3a), or approved for future payment (990-PF line 3b): never summed together. */
export type PaymentStatus = 'paid' | 'approved_future';

/** Where a recipient's identity comes from: the EIN the filer reported, or only the name (and place) it wrote. */
export type RecipientKey = { kind: 'ein'; ein: string } | { kind: 'name'; nameKey: string; state: string | null };

export interface GrantEdge {
  funder: { ein: string; name: string };
  recipient: {
    key: RecipientKey;
    /** The name as filed. */
    name: string;
    ein: string | null;
    city: string | null;
    state: string | null;
    country: string | null;
  };
  /** Total as filed: cash plus non-cash where the form splits them, the one amount where it does not. */
  amount: number;
  /** Only where the form reports the split (Schedule I). */
  cash: number | null;
  nonCash: number | null;
  purpose: string | null;
  taxYear: number;
  status: PaymentStatus;
  /** Which form part the edge was read from. */
  part: 'schedule_i' | 'pf_paid' | 'pf_future';
  /** The document and the record within it: `row=N` (RFC 7111 CSV row, header = row 1) or an element path. */
  source: { docId: string; record: string };
}

export type SourceKind = 'efile_xml' | 'grants_extract' | 'bmf_extract';

/** One file read by an ingest: a filing, an extract, or a Business Master File extract (NTEE codes). */
export interface SourceDoc {
  /** Stable id: the e-file object id, or the file's SHA-256 for extracts. */
  docId: string;
  kind: SourceKind;
  title: string;
  sha256: string;
  bytes: number;
  /** Local file name as given to the ingest. */
  fileName: string;
  /** Where the bytes came from upstream, when known (e-file URL; a provenance sidecar for extracts). */
  upstream: string | null;
  /** Free text on what the file is and what in it is not publisher data (from the sidecar). */
  note: string | null;
}

/** One funder's return for one tax year, as far as the graph holds it. */
export interface FilingCover {
  funderEin: string;
  funderName: string;
  taxYear: number;
  /** 990, 990PF, or `extract` when the form is not stated in the row. */
  form: string;
  docId: string;
  edges: number;
}

/** NTEE code of an organization, from a BMF row. */
export interface NteeCode { ein: string; code: string; name: string; docId: string }

/** A record the parser could not use, with why (collected, never thrown one at a time). */
export interface ParseIssue { docId: string; record: string; code: string; message: string }

export interface ParsedDoc {
  doc: SourceDoc;
  edges: GrantEdge[];
  covers: FilingCover[];
  ntee: NteeCode[];
  issues: ParseIssue[];
}
