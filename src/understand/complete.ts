/**
 * Completing an intent from a model or a caller: the fields a producer left null that follow from
 * the intent's own words are filled the way the offline interpreter reads them — the status asked
 * from the attribute ("501(c)(3) status"), the kind of quantity from the shape and attribute, the
 * grain from the period, a form type or a publisher code from the question. A field the producer
 * set is never changed. This is still interpretation (it lives here, in understand/), so no later
 * stage has to read the question text again.
 */
import { grainAsked, type Intent } from './intent.ts';
import { codesNamedIn, formNamedIn, statusAskedIn } from './offline/asked.ts';
import { grainWords, quantityAsked } from './offline/quantity.ts';

export function completeIntent(intent: Intent): { intent: Intent; filled: string[] } {
  const filled: string[] = [];
  const out: Intent = { ...intent };
  if (out.shape === 'status' && out.status === null) {
    const s = statusAskedIn(out.attribute ?? '') ?? statusAskedIn(out.question);
    if (s) { out.status = s; filled.push('status'); }
  }
  if (out.quantity === null) {
    const q = quantityAsked(out.question, out.shape, out.attribute, out.threshold?.unit ?? null);
    if (q) { out.quantity = q; filled.push('quantity'); }
  }
  if (out.grain === null) {
    const g = out.period?.quarter ? 'quarter' : grainWords(out.question) ?? grainAsked(out);
    if (g) { out.grain = g; filled.push('grain'); }
  }
  if (out.form === null && (out.shape === 'entity_list' || out.shape === 'topical')) {
    const f = formNamedIn(`${out.attribute ?? ''} ${out.question}`);
    if (f) { out.form = f; filled.push('form'); }
  }
  if (out.codes.length === 0) {
    const c = codesNamedIn(out.question);
    if (c.length > 0) { out.codes = c; filled.push('codes'); }
  }
  return { intent: out, filled };
}
