/**
 * Content checks: a response is data only if it looks like the format the operation declares.
 * Status 200 with an HTML page, an empty body, or JSON that does not parse is a failure with a
 * precise message — never handed to a connector as if it were data. 204 is "no content" and is
 * passed on for the connector to interpret (Census answers 204 for a year not yet published).
 */
import { PublisherError } from './errors.ts';

export type ExpectedFormat = 'json' | 'csv' | 'xml' | 'text';

export interface CheckTarget {
  method: string;
  url: string;
  status: number;
  contentType: string;
  text: string;
  source?: string;
}

export function looksLikeHtml(contentType: string, text: string): boolean {
  if (/\btext\/html\b|application\/xhtml/i.test(contentType)) return true;
  const head = text.slice(0, 512).replace(/^\uFEFF/, '').trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || (head.startsWith('<head') && head.includes('<title'));
}

/** Throws the precise malformed-response failure, or returns the parsed JSON for `json`. */
export function checkContent(t: CheckTarget, expect: ExpectedFormat): unknown {
  const at = { method: t.method, url: t.url, status: t.status, source: t.source };
  if (t.status === 204) return undefined;
  if (t.text.replace(/^\uFEFF/, '').trim() === '') {
    throw new PublisherError('empty_body', `${t.source ?? 'publisher'} answered ${t.status} with an empty body where ${expect.toUpperCase()} was expected`, at);
  }
  if (looksLikeHtml(t.contentType, t.text)) {
    const title = /<title[^>]*>([^<]{0,120})/i.exec(t.text)?.[1]?.trim();
    throw new PublisherError('html_instead_of_data', `${t.source ?? 'publisher'} answered ${t.status} with an HTML page${title ? ` ("${title}")` : ''} where ${expect.toUpperCase()} was expected`, at);
  }
  if (expect === 'json') {
    try {
      return JSON.parse(t.text.replace(/^\uFEFF/, ''));
    } catch (e) {
      const tail = t.text.slice(-60).replace(/\s+/g, ' ');
      const truncated = isTruncatedJson(t.text);
      throw new PublisherError('invalid_json', `${t.source ?? 'publisher'} answered ${t.status} with a body of ${t.text.length} characters that is not valid JSON${truncated ? ', cut off before it closes' : ''} (${(e as Error).message}; it ends with "${tail}")`, { ...at, cause: e, truncated });
    }
  }
  if (expect === 'xml' && !t.text.replace(/^\uFEFF/, '').trimStart().startsWith('<')) {
    throw new PublisherError('unexpected_shape', `${t.source ?? 'publisher'} answered ${t.status} with a body that is not XML`, at);
  }
  return undefined;
}

/**
 * Whether a body that does not parse is JSON cut off in the middle (it opens an object or array
 * and the brackets outside strings never balance), rather than something that is not JSON at all.
 */
export function isTruncatedJson(text: string): boolean {
  const t = text.replace(/^\uFEFF/, '').trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') { depth--; if (depth === 0) return false; }
  }
  return depth > 0 || inString;
}
