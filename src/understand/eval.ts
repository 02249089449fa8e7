/**
 * Understanding metrics over the labelled corpus: shape accuracy (overall, per shape, confusion),
 * "cannot tell" counts (preferred to a wrong shape), and entity / attribute / period accuracy.
 * Entity and attribute are compared loosely (case, punctuation, stop words, containment) because
 * "the American Red Cross" and "American Red Cross" name the same thing.
 */
import type { CorpusRecord } from './corpus.ts';
import { asksForNow, periodLabel, type Period } from './intent.ts';
import type { Understanding } from './understanding.ts';

export interface UnderstandMetrics {
  questions: number;
  shape: { accuracy: number; correct: number; cannotTell: number; wrong: number };
  perShape: Record<string, { n: number; correct: number; cannotTell: number; accuracy: number }>;
  confusion: Record<string, Record<string, number>>;
  entity: { accuracy: number; n: number };
  attribute: { accuracy: number; n: number };
  period: { accuracy: number; n: number };
  /**
   * Entity ambiguity: of the questions labelled ambiguous, how many were reported ambiguous
   * (recall), and of those reported ambiguous, how many are labelled so (precision).
   */
  ambiguity: { labelled: number; reported: number; recall: number; precision: number; missed: string[]; spurious: string[] };
  wrong: { id: string; question: string; gold: string; got: string }[];
}

const STOP = new Set(['the', 'a', 'an', 'of', 'and', 's', 'for', 'in', 'on', 'by', 'to']);
const words = (s: string) => s.toLowerCase().replace(/['’]s\b/g, '').split(/[^a-z0-9&]+/).filter((w) => w && !STOP.has(w)).map((w) => w.replace(/s$/, ''));

export function looselyEqual(gold: string | null, got: string | null): boolean {
  if (gold === null || got === null) return gold === got;
  const a = words(gold); const b = words(got);
  if (a.join(' ') === b.join(' ')) return true;
  const A = new Set(a); const B = new Set(b);
  const inter = [...A].filter((w) => B.has(w)).length;
  return inter > 0 && (inter === A.size || inter === B.size || inter / new Set([...A, ...B]).size >= 0.5);
}

export function understandMetrics(corpus: CorpusRecord[], results: Map<string, Understanding>): UnderstandMetrics {
  const perShape: UnderstandMetrics['perShape'] = {};
  const confusion: UnderstandMetrics['confusion'] = {};
  let correct = 0; let cannot = 0; let ent = 0; let entN = 0; let att = 0; let attN = 0; let per = 0; let perN = 0;
  const wrong: UnderstandMetrics['wrong'] = [];
  const missed: string[] = []; const spurious: string[] = []; let labelled = 0; let reported = 0; let agreed = 0;
  for (const r of corpus) {
    const said = results.get(r.id)?.status === 'understood' && (results.get(r.id) as { intent: { entity_status: string } }).intent.entity_status === 'ambiguous';
    if (r.entity_status === 'ambiguous') { labelled++; if (said) agreed++; else missed.push(r.id); }
    if (said) { reported++; if (r.entity_status !== 'ambiguous') spurious.push(r.id); }
  }
  for (const r of corpus) {
    const u = results.get(r.id)!;
    const ps = (perShape[r.shape] ??= { n: 0, correct: 0, cannotTell: 0, accuracy: 0 });
    ps.n++;
    const got = u.status === 'understood' ? u.intent.shape : 'cannot_tell';
    (confusion[r.shape] ??= {})[got] = (confusion[r.shape]![got] ?? 0) + 1;
    if (u.status !== 'understood') { cannot++; ps.cannotTell++; continue; }
    const i = u.intent;
    if (i.shape === r.shape) { correct++; ps.correct++; } else wrong.push({ id: r.id, question: r.question, gold: r.shape, got: i.shape });
    const goldEntities = r.entities.length ? r.entities : r.entity ? [r.entity] : [];
    const gotEntities = i.entities.length ? i.entities : i.entity ? [i.entity] : [];
    entN++;
    if (goldEntities.length === gotEntities.length && goldEntities.every((g, k) => looselyEqual(g, gotEntities[k] ?? null))) ent++;
    if (r.attribute !== null) { attN++; if (looselyEqual(r.attribute, i.attribute)) att++; }
    perN++;
    const goldPeriods = r.periods.join(','); const gotPeriods = i.periods.map(periodLabel).join(',');
    if (periodMatches(r.period, i.period) && goldPeriods === gotPeriods) per++;
  }
  for (const s of Object.values(perShape)) s.accuracy = s.n ? s.correct / s.n : 0;
  const n = corpus.length || 1;
  return {
    questions: corpus.length,
    shape: { accuracy: correct / n, correct, cannotTell: cannot, wrong: corpus.length - correct - cannot },
    perShape, confusion,
    entity: { accuracy: entN ? ent / entN : 0, n: entN },
    attribute: { accuracy: attN ? att / attN : 0, n: attN },
    period: { accuracy: perN ? per / perN : 0, n: perN },
    ambiguity: { labelled, reported, recall: labelled ? agreed / labelled : 0, precision: reported ? agreed / reported : 0, missed, spurious },
    wrong,
  };
}

/** "now" is a latest period worded as the present day ("right now", "today"). */
function periodMatches(gold: string | null, got: Period | null): boolean {
  if (gold === 'now') return !!got && got.latest && asksForNow(got);
  return gold === periodLabel(got);
}
