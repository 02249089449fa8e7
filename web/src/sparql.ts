/**
 * The SPARQL console: a CodeMirror 6 editor with SPARQL highlighting, run with a button or
 * Ctrl/Cmd+Enter against /sparql (the endpoint's own limits apply), results as a table. The
 * editor loads on demand so the ask box is usable before it arrives.
 */
import { h, link } from './dom.ts';
import { runSparql, HttpError, type SparqlJson } from './api.ts';

export const EXAMPLE_QUERY = `PREFIX dcat: <http://www.w3.org/ns/dcat#>
PREFIX dct: <http://purl.org/dc/terms/>
# The publishers in Assay's catalog
SELECT ?service ?title WHERE {
  ?service a dcat:DataService ; dct:title ?title .
}
ORDER BY ?title
LIMIT 25`;

const SHOWN_ROWS = 1000;

export interface Console { getQuery(): string; setQuery(q: string): void; run(): Promise<void> }

export async function mountConsole(editorHost: HTMLElement, runButton: HTMLButtonElement, status: HTMLElement, results: HTMLElement): Promise<Console> {
  const [{ EditorView, basicSetup }, { keymap }, { StreamLanguage }, { sparql }] = await Promise.all([
    import('codemirror'), import('@codemirror/view'), import('@codemirror/language'), import('@codemirror/legacy-modes/mode/sparql'),
  ]);
  let running: AbortController | undefined;
  const run = async () => {
    running?.abort();
    const controller = new AbortController();
    running = controller;
    const query = view.state.doc.toString();
    status.textContent = 'Running…';
    runButton.disabled = true;
    try {
      const outcome = await runSparql(query, controller.signal);
      if (outcome.kind === 'boolean') {
        results.replaceChildren(h('p', { class: 'sparql-boolean' }, `ASK: ${outcome.value}`));
        status.textContent = 'Done: a boolean result.';
      } else if (outcome.kind === 'graph') {
        results.replaceChildren(h('pre', { class: 'sparql-graph' }, outcome.text));
        status.textContent = `Done: a graph (Turtle)${outcome.truncated ? ', cut at the endpoint\'s row limit' : ''}.`;
      } else {
        const n = outcome.json.results?.bindings.length ?? 0;
        results.replaceChildren(resultsTable(outcome.json));
        status.textContent = `Done: ${n} row${n === 1 ? '' : 's'}${outcome.truncated ? ' — cut at the endpoint\'s row limit' : ''}.`;
      }
    } catch (e) {
      if (controller.signal.aborted) return;
      const err = e as Error;
      results.replaceChildren(h('div', { class: 'error', role: 'alert' },
        h('strong', {}, err instanceof HttpError ? `Error ${err.status}: ` : 'Error: '), err.message,
        err instanceof HttpError && err.fix ? h('div', {}, `Fix: ${err.fix}`) : null));
      status.textContent = 'The query failed.';
    } finally {
      if (running === controller) runButton.disabled = false;
    }
  };
  const view = new EditorView({
    doc: EXAMPLE_QUERY,
    parent: editorHost,
    extensions: [
      keymap.of([{ key: 'Mod-Enter', run: () => { void run(); return true; } }]),
      basicSetup,
      StreamLanguage.define(sparql),
      EditorView.contentAttributes.of({ 'aria-label': 'SPARQL query', 'aria-multiline': 'true' }),
    ],
  });
  runButton.addEventListener('click', () => void run());
  return {
    getQuery: () => view.state.doc.toString(),
    setQuery: (q: string) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: q } }),
    run,
  };
}

export function resultsTable(json: SparqlJson): HTMLElement {
  const vars = json.head.vars ?? [];
  const rows = json.results?.bindings ?? [];
  return h('div', { class: 'table-scroll' }, h('table', { class: 'data sparql-results' },
    h('caption', {}, `${rows.length} row${rows.length === 1 ? '' : 's'}${rows.length > SHOWN_ROWS ? `, first ${SHOWN_ROWS} shown` : ''}`),
    h('thead', {}, h('tr', {}, ...vars.map((v) => h('th', { scope: 'col' }, `?${v}`)))),
    h('tbody', {}, ...rows.slice(0, SHOWN_ROWS).map((b) => h('tr', {}, ...vars.map((v) => {
      const t = b[v];
      if (!t) return h('td', { class: 'unbound' }, '');
      if (t.type === 'uri') return h('td', {}, link(t.value, t.value));
      if (t.type === 'bnode') return h('td', {}, `_:${t.value}`);
      const tag = t['xml:lang'] ? `@${t['xml:lang']}` : t.datatype && !t.datatype.endsWith('#string') ? ` ^^${t.datatype.split(/[#/]/).pop()}` : '';
      return h('td', {}, t.value, tag ? h('span', { class: 'dt' }, tag) : null);
    }))))));
}
