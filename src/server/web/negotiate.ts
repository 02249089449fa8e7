/**
 * Does a request want the web page rather than RDF? Only an explicit text/html (or XHTML) range
 * counts, and only when no RDF type is preferred to it: browsers send `text/html,…,*\/*;q=0.8`
 * and get the page; RDF clients (`text/turtle`, `application/ld+json`, `*\/*`, no Accept at all)
 * keep getting RDF, as before the page existed. A tie goes to whichever the client listed first.
 */
import { ALL_RDF_OUTPUT } from '../../rdf/serialize.ts';

const HTML = new Set(['text/html', 'application/xhtml+xml']);
const RDF = new Set<string>([...ALL_RDF_OUTPUT, 'application/rdf+xml', 'text/n3']);

interface Range { type: string; q: number; order: number }

function ranges(accept: string): Range[] {
  return accept.split(',').map((part, order) => {
    const [type = '', ...params] = part.trim().toLowerCase().split(';').map((s) => s.trim());
    let q = 1;
    for (const p of params) {
      const m = /^q=([0-9.]+)$/.exec(p);
      if (m) q = Math.min(1, Number(m[1]) || 0);
    }
    return { type, q, order };
  }).filter((r) => r.type !== '');
}

export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  let html: Range | undefined;
  let rdf: Range | undefined;
  for (const r of ranges(accept)) {
    if (HTML.has(r.type) && (!html || r.q > html.q)) html = r;
    if (RDF.has(r.type) && (!rdf || r.q > rdf.q)) rdf = r;
  }
  if (!html || html.q <= 0) return false;
  if (!rdf || rdf.q <= 0) return true;
  return html.q > rdf.q || (html.q === rdf.q && html.order < rdf.order);
}
