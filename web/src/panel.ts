/**
 * "How this answer was made": the intent (each part with the call that produced it), the discovery
 * summary, the plan's verdict and reason, every attempt with its disposition, the validation
 * decisions, the admitted evidence and the cross-checks — all from the result and its progress
 * events, as the pipeline recorded them.
 */
import { h, link } from './dom.ts';
import { shortIri } from './answer.ts';
import type { AskResult, ProgressEvent } from './types.ts';

const STRUCTURE_FIELDS = ['shape', 'entity', 'canonical_entity', 'entity_status', 'entity_candidates', 'entities', 'type', 'direction', 'geography'];
const MEASURE_FIELDS = ['attribute', 'attributes', 'interpretations', 'period', 'periods', 'quantifier', 'threshold', 'order', 'limit'];

function shown(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.length ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ') : null;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.text === 'string') return `${o.text} (${Object.entries(o).filter(([k, x]) => k !== 'text' && x !== null && x !== false).map(([k, x]) => `${k} ${String(x)}`).join(', ')})`;
    return JSON.stringify(v);
  }
  return String(v);
}

function intentPart(title: string, by: string | null, intent: Record<string, unknown>, fields: string[]): HTMLElement {
  const dl = h('dl', { class: 'kv' });
  for (const f of fields) {
    const v = shown(intent[f]);
    if (v === null) continue;
    dl.append(h('dt', {}, f), h('dd', {}, v));
  }
  return h('div', { class: 'intent-part' }, h('h5', {}, title, by ? h('span', { class: 'by' }, ` — decided by ${by}`) : ''), dl);
}

function table(caption: string, head: string[], rows: Array<Array<Node | string>>): HTMLElement {
  return h('div', { class: 'table-scroll' }, h('table', { class: 'data' },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, ...head.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((c) => h('td', {}, c)))))));
}

export function renderPanel(result: AskResult, events: readonly ProgressEvent[]): HTMLDetailsElement {
  const byStage = (stage: string) => events.filter((e) => e.stage === stage);
  const first = (stage: string) => byStage(stage)[0];
  const body = h('div', { class: 'panel-body' });

  const intent = result.intent;
  body.append(h('h5', {}, 'Intent', result.interpreter ? h('span', { class: 'by' }, ` (interpreter: ${result.interpreter})`) : ''));
  if (intent) {
    body.append(
      intentPart('Structure', first('structure')?.by ?? result.interpreter, intent, STRUCTURE_FIELDS),
      intentPart('Measure', first('measure')?.by ?? result.interpreter, intent, MEASURE_FIELDS));
  } else body.append(h('p', {}, 'No intent: the question was not understood (see the refusal).'));

  if (result.followup) {
    body.append(h('h5', {}, 'Follow-up'), h('p', {}, 'Read against ', link(`/runs/${encodeURIComponent(result.followup.from_run.split('/').pop() ?? '')}`, `“${result.followup.from_question}”`),
      `: carried over ${result.followup.carried.map((c) => c.field).join(', ') || 'nothing'}; set by this question: ${result.followup.replaced.map((c) => c.field).join(', ') || 'nothing'}.`));
  }

  const discovery = byStage('discovery');
  body.append(h('h5', {}, 'Discovery'), discovery.length
    ? h('ul', {}, ...discovery.map((e) => h('li', {}, `[${e.by}] ${e.message}`)))
    : h('p', {}, 'No discovery step was recorded for this run.'));

  body.append(h('h5', {}, 'Plan'), result.plan
    ? h('p', {}, h('strong', { class: 'verdict' }, result.plan.verdict), ` — ${result.plan.reason}`)
    : h('p', {}, 'No plan (the run ended before planning).'));

  body.append(h('h5', {}, `Attempts (${result.attempts.length})`));
  body.append(result.attempts.length
    ? table('Every attempt, accepted or not', ['#', 'source', 'operation', 'measure', 'disposition', 'reason', 'ms'],
      result.attempts.map((a) => [String(a.n), a.source, a.operation, a.measure ?? '—', h('span', { class: `disp disp-${a.disposition}` }, a.disposition), a.reason ?? '', String(Math.round(a.elapsed_ms))]))
    : h('p', {}, 'No attempts were made.'));

  const validation = byStage('validation');
  body.append(h('h5', {}, 'Validation'), validation.length
    ? h('ul', { class: 'validation' }, ...validation.map((e) => h('li', {}, `[${e.by}] ${e.message}`)))
    : h('p', {}, 'No validation decisions were recorded.'));

  body.append(h('h5', {}, `Evidence (${result.evidence.length})`));
  if (result.evidence.length) {
    body.append(table('Admitted evidence', ['evidence', 'entity', 'measure', 'value', 'period', 'source', 'assurance'],
      result.evidence.map((e) => [link(e.iri, shortIri(e.iri)), `${e.entity} (${e.entity_key})`, e.measure_label,
        e.value === null ? (e.record ? `${e.record.kind} ${e.record.key}` : '—') : `${String(e.value)} ${e.unit}`, e.period, e.source, e.assurance])));
  }
  const checks = result.cross_checks ?? [];
  body.append(h('h5', {}, `Cross-checks (${checks.length})`));
  body.append(checks.length
    ? table('Second reads of the admitted values', ['evidence', 'second path', 'outcome', 'value', 'detail'],
      checks.map((c) => [link(c.evidence, shortIri(c.evidence)), `${c.source} ${c.operation}`, h('span', { class: `outcome outcome-${c.outcome}` }, c.outcome),
        c.value === null || c.value === undefined ? '—' : String(c.value), `${c.detail ?? ''}${c.shared_upstream ? ' (not independent: shared upstream)' : ''}`]))
    : h('p', {}, 'No cross-checks for this run.'));

  body.append(h('p', {}, 'The whole run as RDF: ', link(`/runs/${encodeURIComponent(result.run_id)}`, `run graph ${result.run_id}`), ' (Turtle; also N-Triples, N-Quads, TriG, JSON-LD).'));
  return h('details', { class: 'panel' }, h('summary', {}, 'How this answer was made'), body);
}
