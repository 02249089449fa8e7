/**
 * SPARQL 1.1 results serializers working from the SPARQL-JSON object model. Used when the
 * endpoint had to materialise and cut a result at the row cap (the uncut fast path lets
 * oxigraph serialize directly).
 *
 * Truncation marker: SPARQL-JSON gets a top-level `"truncated": true` member (outside the
 * standard `head`/`results`, which conforming readers ignore) and a `head.link` entry;
 * SPARQL-XML gets a `<link href>` in its head; CSV/TSV cannot carry one. Every format also
 * gets the `Assay-Truncated: true` response header, set by the route.
 */
import { RESULTS_CSV, RESULTS_JSON, RESULTS_TSV, RESULTS_XML } from './negotiate.ts';

export type JsonTerm =
  | { type: 'uri'; value: string }
  | { type: 'bnode'; value: string }
  | { type: 'literal'; value: string; 'xml:lang'?: string; datatype?: string }
  | { type: 'triple'; value: unknown };

export interface JsonResults {
  head: { vars: string[]; link?: string[] };
  results: { bindings: Record<string, JsonTerm>[] };
  truncated?: boolean;
}

export function serializeResults(r: JsonResults, mediaType: string, truncationLink: string): string {
  switch (mediaType) {
    case RESULTS_JSON:
      return JSON.stringify(r.truncated
        ? { head: { ...r.head, link: [...(r.head.link ?? []), truncationLink] }, results: r.results, truncated: true }
        : r);
    case RESULTS_XML:
      return toXml(r, truncationLink);
    case RESULTS_CSV:
      return toCsv(r);
    case RESULTS_TSV:
      return toTsv(r);
    default:
      throw new Error(`no results serializer for ${mediaType}`);
  }
}

function xmlEscape(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

function toXml(r: JsonResults, truncationLink: string): string {
  const out: string[] = ['<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n<head>\n'];
  for (const v of r.head.vars) out.push(`<variable name="${xmlEscape(v)}"/>\n`);
  if (r.truncated) out.push(`<link href="${xmlEscape(truncationLink)}"/>\n`);
  out.push('</head>\n<results>\n');
  for (const b of r.results.bindings) {
    out.push('<result>');
    for (const [name, t] of Object.entries(b)) {
      out.push(`<binding name="${xmlEscape(name)}">`);
      if (t.type === 'uri') out.push(`<uri>${xmlEscape(t.value)}</uri>`);
      else if (t.type === 'bnode') out.push(`<bnode>${xmlEscape(t.value)}</bnode>`);
      else if (t.type === 'literal') {
        const attr = t['xml:lang'] ? ` xml:lang="${xmlEscape(t['xml:lang'])}"` : t.datatype ? ` datatype="${xmlEscape(t.datatype)}"` : '';
        out.push(`<literal${attr}>${xmlEscape(t.value)}</literal>`);
      }
      out.push('</binding>');
    }
    out.push('</result>\n');
  }
  out.push('</results>\n</sparql>\n');
  return out.join('');
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function toCsv(r: JsonResults): string {
  const lines = [r.head.vars.map(csvField).join(',')];
  for (const b of r.results.bindings) {
    lines.push(r.head.vars.map((v) => {
      const t = b[v];
      if (!t) return '';
      return csvField(t.type === 'bnode' ? `_:${t.value}` : typeof t.value === 'string' ? t.value : '');
    }).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const PLAIN_NUMERIC = new Set([`${XSD}integer`, `${XSD}decimal`, `${XSD}double`]);

function tsvTerm(t: JsonTerm): string {
  if (t.type === 'uri') return `<${t.value}>`;
  if (t.type === 'bnode') return `_:${t.value}`;
  if (t.type !== 'literal') return '';
  if (t.datatype && PLAIN_NUMERIC.has(t.datatype) && /^[+-]?[0-9.eE+-]+$/.test(t.value)) return t.value;
  const escaped = t.value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  if (t['xml:lang']) return `"${escaped}"@${t['xml:lang']}`;
  if (t.datatype && t.datatype !== `${XSD}string`) return `"${escaped}"^^<${t.datatype}>`;
  return `"${escaped}"`;
}

function toTsv(r: JsonResults): string {
  const lines = [r.head.vars.map((v) => `?${v}`).join('\t')];
  for (const b of r.results.bindings) lines.push(r.head.vars.map((v) => (b[v] ? tsvTerm(b[v]) : '')).join('\t'));
  return lines.join('\n') + '\n';
}
