/**
 * Content negotiation for the endpoint (RFC 9110 §12.5.1): pick the offered media type the
 * client rates highest by its `Accept` q-values; ties go to the server's order of preference.
 * A range with q=0 excludes. No `Accept` (or only wildcards) gets the first offer.
 *
 * The offer lists below are the endpoint's whole repertoire: SPARQL results for SELECT/ASK,
 * RDF syntaxes for CONSTRUCT/DESCRIBE and the service description. Each offer names the
 * media type sent back (aliases such as application/json answer with the canonical type).
 */

export interface Offer {
  /** What the client may ask for. */
  accepts: readonly string[];
  /** The Content-Type we answer with (also what the serializer is told). */
  mediaType: string;
}

export const RESULTS_JSON = 'application/sparql-results+json';
export const RESULTS_XML = 'application/sparql-results+xml';
export const RESULTS_CSV = 'text/csv';
export const RESULTS_TSV = 'text/tab-separated-values';

export const SELECT_OFFERS: readonly Offer[] = [
  { accepts: [RESULTS_JSON, 'application/json'], mediaType: RESULTS_JSON },
  { accepts: [RESULTS_XML, 'application/xml', 'text/xml'], mediaType: RESULTS_XML },
  { accepts: [RESULTS_CSV], mediaType: RESULTS_CSV },
  { accepts: [RESULTS_TSV], mediaType: RESULTS_TSV },
];

/** CSV/TSV have no boolean form in the SPARQL 1.1 results formats, so ASK offers JSON and XML. */
export const ASK_OFFERS: readonly Offer[] = SELECT_OFFERS.slice(0, 2);

export const RDF_OFFERS: readonly Offer[] = [
  { accepts: ['text/turtle', 'application/x-turtle'], mediaType: 'text/turtle' },
  { accepts: ['application/n-triples', 'text/plain'], mediaType: 'application/n-triples' },
  { accepts: ['application/n-quads'], mediaType: 'application/n-quads' },
  { accepts: ['application/ld+json', 'application/json'], mediaType: 'application/ld+json' },
  { accepts: ['application/rdf+xml', 'application/xml'], mediaType: 'application/rdf+xml' },
];

interface Range {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): Range[] {
  const out: Range[] = [];
  for (const part of header.split(',')) {
    const [media, ...params] = part.trim().split(';');
    const [type, subtype] = (media ?? '').trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split('=');
      if (k?.trim().toLowerCase() === 'q') {
        // RFC 9110 qvalue: 0 to 1 with at most three decimals. A malformed one (q=abc) is
        // ignored, as if absent, rather than read as "not acceptable".
        const t = (v ?? '').trim();
        if (/^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(t)) q = Number(t);
      }
    }
    out.push({ type, subtype, q });
  }
  return out;
}

/** The q the client gives `mediaType`: from the most specific matching range, or -1 if none matches. */
function qualityOf(mediaType: string, ranges: readonly Range[]): number {
  const [type, subtype] = mediaType.split('/');
  let best = -1;
  let bestSpecificity = -1;
  for (const r of ranges) {
    const specificity = r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === '*' ? 1 : r.type === '*' && r.subtype === '*' ? 0 : -1;
    if (specificity > bestSpecificity) {
      bestSpecificity = specificity;
      best = r.q;
    }
  }
  return best;
}

/** The chosen offer, or undefined when nothing offered is acceptable (→ 406). */
export function negotiate(accept: string | undefined, offers: readonly Offer[]): Offer | undefined {
  if (accept === undefined || accept.trim() === '') return offers[0];
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return offers[0];
  let chosen: Offer | undefined;
  let chosenQ = 0;
  for (const offer of offers) {
    for (const name of offer.accepts) {
      // Aliases answer only when named exactly; wildcards pick canonical types (text/* is CSV, not text/xml).
      const q = qualityOf(name, name === offer.mediaType ? ranges : ranges.filter((r) => r.type !== '*' && r.subtype !== '*'));
      if (q > chosenQ) {
        chosen = offer;
        chosenQ = q;
      }
    }
  }
  return chosen;
}

/** Media types a client could have asked for, for the 406 message. */
export function offered(offers: readonly Offer[]): string {
  return offers.map((o) => o.mediaType).join(', ');
}
