/**
 * One answer as the page shows it: the text with every figure marked by its grade, the legend,
 * the figures with their arithmetic, the table and chart when the result has them, citations
 * (publisher URL and evidence IRI), the qualification and disclosures — or the clarification's
 * options as buttons, or the refusal with its boundary and what would make it answerable.
 */
import { h, link, srOnly, uid } from './dom.ts';
import { segments } from './marks.ts';
import { readTable } from './table-data.ts';
import { chartFor } from './chart-data.ts';
import { GRADES, type AskResult, type Figure, type Grade, type ClarificationOption } from './types.ts';

export const GRADE_MEANING: Record<Grade, string> = {
  verified: 'equals a value the publisher returned',
  derived: 'computed from verified values; the arithmetic is shown',
  corroborated: 'no primary value states it, but code reproduced it a second way',
  conflict: 'tied to a published value that differs',
  unverified: 'found nowhere trusted',
};

export function legend(): HTMLElement {
  return h('dl', { class: 'legend', 'aria-label': 'Figure grades' },
    ...GRADES.flatMap((g) => [h('dt', {}, h('span', { class: `grade grade-${g}` }, g)), h('dd', {}, GRADE_MEANING[g])]));
}

/** The text with each figure wrapped in a mark that names its grade (visibly and for screen readers). */
export function markedText(text: string, figures: readonly Figure[], figureIds: string[]): HTMLElement {
  const p = h('p', { class: 'answer-text' });
  for (const s of segments(text, figures)) {
    if (s.kind === 'text') p.append(document.createTextNode(s.text));
    else {
      p.append(h('mark', {
        class: `fig grade-${s.figure.grade}`, 'data-grade': s.figure.grade, title: `${s.figure.grade}: ${GRADE_MEANING[s.figure.grade]}`,
        'aria-describedby': figureIds[s.index] ?? null,
      }, s.text, srOnly(` (${s.figure.grade})`)));
    }
  }
  return p;
}

function evidenceLinks(iris: readonly string[]): HTMLElement {
  const span = h('span', { class: 'evidence-links' });
  iris.forEach((iri, i) => {
    if (i > 0) span.append(', ');
    span.append(link(iri, shortIri(iri), `evidence ${iri}`));
  });
  return span;
}

export function shortIri(iri: string): string {
  const m = /\/(evidence|response|run|publisher)\/(.+)$/.exec(iri);
  if (!m) return iri;
  const rest = m[2]!;
  return m[1] === 'response' ? `response ${rest.slice(0, 12)}…` : `${m[1]} ${rest}`;
}

function figureList(figures: readonly Figure[], ids: string[], caption: string): HTMLElement {
  const body = h('tbody');
  figures.forEach((f, i) => {
    const detail = h('td', {});
    if (f.arithmetic) detail.append(h('code', { class: 'arithmetic' }, f.arithmetic));
    if (f.note) detail.append(h('div', { class: 'note' }, `Note: ${f.note}`));
    for (const c of f.corroborated_by ?? []) {
      detail.append(h('div', { class: 'note' }, `Reproduced by ${c.source} ${c.operation}`, c.url ? ' (' : '', c.url ? link(c.url, 'response') : '', c.url ? ')' : '', c.note ? ` — ${c.note}` : ''));
    }
    body.append(h('tr', { id: ids[i] },
      h('td', {}, f.text),
      h('td', {}, h('span', { class: `grade grade-${f.grade}` }, f.grade)),
      h('td', {}, evidenceLinks(f.evidence)),
      detail));
  });
  return h('table', { class: 'figures' },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'figure'), h('th', { scope: 'col' }, 'grade'), h('th', { scope: 'col' }, 'evidence'), h('th', { scope: 'col' }, 'how'))),
    body);
}

function publisherName(iri: string | null): string {
  if (!iri) return 'unknown publisher';
  return iri.replace(/\/+$/, '').split('/').pop() ?? iri;
}

function citations(result: AskResult): HTMLElement | null {
  if (result.citations.length === 0) return null;
  const list = h('ol', { class: 'citations' });
  const seen = new Set<string>();
  for (const c of result.citations) {
    const key = `${c.evidence} ${c.response ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    list.append(h('li', {},
      c.note ? h('span', { class: 'no-source' }, `${shortIri(c.evidence)}: ${c.note}`) : h('span', {},
        h('strong', {}, publisherName(c.publisher)), ': ',
        c.url ? link(c.url, c.url, `publisher response ${c.url}`) : 'no URL recorded', ' · ',
        link(c.evidence, shortIri(c.evidence), `evidence ${c.evidence}`),
        c.response ? ' · ' : '', c.response ? link(c.response, shortIri(c.response), `response record ${c.response}`) : '',
        c.retrieved_at ? ` · retrieved ${c.retrieved_at}` : ' · retrieval time not recorded in the sample',
        c.content_hash ? h('span', { class: 'hash', title: `SHA-256 ${c.content_hash}` }, ` · sha256 ${c.content_hash.slice(0, 12)}…`) : '')));
  }
  return h('section', { class: 'block', 'aria-label': 'Citations' }, h('h4', {}, 'Citations'), list);
}

function qualification(result: AskResult): HTMLElement | null {
  const q = result.qualification;
  if (!q) return null;
  return h('section', { class: 'block', 'aria-label': 'Qualification' },
    h('h4', {}, `Qualification (asserted assurance ${q.level}/3)`),
    h('p', {}, q.statement),
    q.disclosures.length ? h('ul', { class: 'disclosures' }, ...q.disclosures.map((d) => h('li', {}, d))) : null);
}

/** Rows shown before "Show all": a population table can have thousands (3,140 counties). */
export const TABLE_ROWS_SHOWN = 50;

export function tableView(result: AskResult): HTMLElement | null {
  if (result.table === undefined || result.table === null) return null;
  const t = readTable(result.table);
  if (!t) return h('p', { class: 'warn' }, 'This answer carries a table in a form the page cannot read; see the JSON result.');
  const gradeOf = new Map<string, Grade>();
  for (const f of result.figures) if (f.evidence.length === 1) gradeOf.set(f.evidence[0]!, f.grade);
  const rowOf = (r: (typeof t.rows)[number]) => h('tr', {}, ...r.map((c) => {
    const own = GRADES.includes(c.grade as Grade) ? (c.grade as Grade) : undefined; // 'exempt' and 'label' are not grades
    const grade = (c.evidence ? gradeOf.get(c.evidence) : undefined) ?? (c.value !== null && typeof c.value === 'number' ? own : undefined);
    const value = c.value === null || c.value === undefined ? '—' : typeof c.value === 'number' ? c.value.toLocaleString('en-US') : String(c.value);
    return h('td', grade ? { class: `cell grade-${grade}`, 'data-grade': grade } : {},
      value, grade ? srOnly(` (${grade})`) : null,
      c.evidence ? h('span', { class: 'cell-ev' }, ' ', link(c.evidence, '↗', `evidence ${c.evidence}`)) : null);
  }));
  const body = h('tbody', {}, ...t.rows.slice(0, TABLE_ROWS_SHOWN).map(rowOf));
  const table = h('table', { class: 'data', 'data-rows': t.rows.length },
    h('caption', {}, t.caption ?? 'Table', t.rows.length > TABLE_ROWS_SHOWN ? ` (${t.rows.length.toLocaleString('en-US')} rows)` : ''),
    h('thead', {}, h('tr', {}, ...t.columns.map((c) => h('th', { scope: 'col' }, c.label, c.unit ? ` (${c.unit})` : '', c.period ? `, ${c.period}` : '')))),
    body);
  if (t.rows.length <= TABLE_ROWS_SHOWN) return table;
  const more = h('button', {
    type: 'button', class: 'show-rows',
    onclick: () => { body.append(...t.rows.slice(TABLE_ROWS_SHOWN).map(rowOf)); more.remove(); },
  }, `Show all ${t.rows.length.toLocaleString('en-US')} rows`);
  return h('div', { class: 'table-wrap' }, h('div', { class: 'table-scroll' }, table), more);
}

export interface AnswerHooks {
  /** A clarification option was chosen: resume the run with it. */
  resume(run: string, option: ClarificationOption): void;
  /** Draw the chart into its container (charts load their library on demand). */
  drawChart(container: HTMLElement, result: AskResult): void;
}

function clarification(result: AskResult, hooks: AnswerHooks): HTMLElement | null {
  const c = result.clarification;
  if (!c) return null;
  const headingId = uid('clar');
  return h('section', { class: 'clarification', role: 'group', 'aria-labelledby': headingId },
    h('h4', { id: headingId }, c.question),
    h('div', { class: 'options' }, ...c.options.map((o) => h('button', {
      type: 'button', class: 'option', 'data-option': o.n,
      onclick: () => hooks.resume(result.run_id, o),
    }, `${o.n}. ${o.label}`, o.value !== null ? h('span', { class: 'option-value' }, ` — ${formatNumber(o.value, o.unit)}${o.period ? ` (${o.period})` : ''}`) : null))));
}

function refusal(result: AskResult): HTMLElement | null {
  const r = result.refusal;
  if (!r) return null;
  return h('section', { class: 'refusal', 'aria-label': 'Refusal' },
    h('dl', {},
      h('dt', {}, 'Boundary'), h('dd', {}, h('code', {}, r.boundary), r.code ? ` (${r.code})` : ''),
      h('dt', {}, 'Why'), h('dd', {}, r.reason),
      h('dt', {}, 'Answerable if'), h('dd', {}, r.answerable_if)));
}

export function formatNumber(value: number, unit: string | null): string {
  if (unit === 'USD') return `$${value.toLocaleString('en-US')}`;
  if (unit === '%') return `${value.toLocaleString('en-US')}%`;
  return `${value.toLocaleString('en-US')}${unit ? ` ${unit}` : ''}`;
}

export function renderAnswer(result: AskResult, hooks: AnswerHooks): HTMLElement {
  const figIds = result.figures.map(() => uid('fig'));
  const root = h('div', { class: `answer status-${result.status}`, 'data-status': result.status, 'data-run': result.run_id });
  const statusLabel = result.status === 'answered' ? 'Answer' : result.status === 'needs_clarification' ? 'Which did you mean?' : 'Not answered';
  root.append(h('h4', { class: 'status' }, statusLabel));
  if (result.followup) {
    const f = result.followup;
    const shown = (v: unknown) => (v && typeof v === 'object' && 'text' in (v as object) ? String((v as { text: unknown }).text) : Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ') : typeof v === 'string' ? v : JSON.stringify(v));
    const list = (xs: Array<{ field: string; value: unknown }>) => xs.filter((x) => x.field !== 'quantity' && x.field !== 'grain' && !(x.value === null || (Array.isArray(x.value) && x.value.length === 0))).map((x) => `${x.field} ${shown(x.value)}`).join('; ');
    root.append(h('p', { class: 'carried', 'data-followup': f.parts.join(' ') },
      h('strong', {}, 'Follow-up'), ` to “${f.from_question}”: carried over ${list(f.carried) || 'nothing'}`,
      f.replaced.length ? `; this question set ${list(f.replaced)}` : '', '.'));
  }
  root.append(result.figures.length ? markedText(result.text, result.figures, figIds) : h('p', { class: 'answer-text' }, result.text));
  if (result.rendering_label) root.append(h('p', { class: 'rendering' }, `(${result.rendering_label})`));
  const clar = clarification(result, hooks);
  if (clar) root.append(clar);
  const ref = refusal(result);
  if (ref) root.append(ref);
  for (const a of result.answers ?? []) {
    const ids = a.figures.map(() => uid('fig'));
    root.append(h('section', { class: 'block reading' }, h('h4', {}, `Reading: ${a.interpretation}`), markedText(a.text, a.figures, ids), a.figures.length ? figureList(a.figures, ids, `Figures (${a.interpretation})`) : null));
  }
  const table = tableView(result);
  if (table) root.append(table);
  const spec = chartFor(result);
  if (spec) {
    const holder = h('div', { class: 'chart-holder' });
    root.append(holder);
    hooks.drawChart(holder, result);
  }
  if (result.figures.length) {
    root.append(figureList(result.figures, figIds, 'Figures in the answer, each graded by code'));
    root.append(legend());
  }
  if (result.guarded_figures?.length) {
    const ids = result.guarded_figures.map(() => uid('gfig'));
    root.append(figureList(result.guarded_figures, ids, 'Numbers in follow-up suggestions (graded, not answer figures)'));
  }
  if (result.alternatives?.length) {
    root.append(h('section', { class: 'block' }, h('h4', {}, 'Other readings'),
      h('ul', {}, ...result.alternatives.map((a) => h('li', {}, `${a.interpretation}: ${formatNumber(a.value, a.unit)} (${a.period}) `, link(a.evidence, shortIri(a.evidence)))))));
  }
  const cit = citations(result);
  if (cit) root.append(cit);
  const q = qualification(result);
  if (q) root.append(q);
  return root;
}
