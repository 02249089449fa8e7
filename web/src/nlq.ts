/**
 * The question-to-SPARQL box, shown only when the gateway serves POST /nlq (the page config says
 * so). The generated query is shown labelled unverified, with its rows when the route returns
 * them, and can be opened in the console to read or change before running.
 */
import { h } from './dom.ts';
import { nlq, HttpError, type SparqlJson } from './api.ts';
import { resultsTable } from './sparql.ts';

function queryOf(r: Record<string, unknown>): string | null {
  for (const k of ['sparql', 'query', 'generated_sparql']) if (typeof r[k] === 'string') return r[k] as string;
  return null;
}

/** POST /nlq's `result`: {kind: 'select', vars, rows (SPARQL JSON bindings)} or {kind: 'ask', boolean}. */
function rowsOf(r: Record<string, unknown>): SparqlJson | null {
  const res = r.result as { kind?: string; vars?: string[]; rows?: NonNullable<SparqlJson['results']>['bindings']; boolean?: boolean } | undefined;
  if (!res || typeof res !== 'object') return null;
  if (res.kind === 'ask' && typeof res.boolean === 'boolean') return { head: {}, boolean: res.boolean };
  if (res.kind === 'select' && Array.isArray(res.rows)) return { head: { vars: res.vars ?? [] }, results: { bindings: res.rows } };
  return null;
}

export function mountNlq(form: HTMLFormElement, input: HTMLInputElement, out: HTMLElement, openInConsole: (q: string) => void): void {
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    out.replaceChildren(h('p', { role: 'status' }, 'Writing a query…'));
    try {
      const r = await nlq(input.value);
      const query = queryOf(r);
      const rows = rowsOf(r);
      const parts: Array<Node | null> = [
        h('p', { class: 'unverified-label' }, h('span', { class: 'grade grade-unverified' }, 'unverified'), ' Generated SPARQL — written from your question, not checked against what you meant.'),
        query ? h('pre', { class: 'nlq-query', 'aria-label': 'generated SPARQL (unverified)' }, query) : h('p', {}, 'No query was generated.'),
        typeof r.lane_label === 'string' ? h('p', { class: 'note' }, r.lane_label) : null,
        typeof r.text === 'string' ? h('p', {}, r.text) : null,
        rows && typeof rows.boolean === 'boolean' ? h('p', {}, `ASK: ${rows.boolean}`) : rows ? resultsTable(rows) : null,
        query ? h('button', { type: 'button', onclick: () => openInConsole(query) }, 'Open in the SPARQL console') : null];
      out.replaceChildren(...parts.filter((p): p is Node => p !== null));
    } catch (err) {
      const x = err as Error;
      out.replaceChildren(h('div', { class: 'error', role: 'alert' }, x instanceof HttpError ? `Error ${x.status}: ` : 'Error: ', x.message));
    }
  });
}
