/**
 * The plain renderer: the answer text written by code from the fact sheet, used when no synthesis
 * model is configured (and labelled as such). Values are written exactly as admitted; its layout
 * follows the evidence (one value, a comparison, a series), not the classified shape. `hedge`
 * softens the verb when the weakest supporting assurance is below full.
 */
import { readerNameOf } from '../connectors/registry.ts';
import { entityRelativeUnit, formatDifference, formatValue, periodPhrase, type FactSheet } from './factsheet.ts';

export const PLAIN_LABEL = 'plain rendering of the admitted evidence (no synthesis model configured; set ASSAY_LLM_URL and ASSAY_LLM_MODEL for drafted prose)';

export function renderPlain(sheet: FactSheet, options: { hedge: boolean }): string {
  const verb = options.hedge ? 'is reported as' : 'was';
  const line = (i: number) => {
    const e = sheet.facts[i]!.evidence;
    return `${e.entity.label}'s ${e.measureLabel}${periodPhrase(e.period)} ${verb} ${formatValue(e.value, e.unit, e.currency)}, according to ${publisherName(e.source)}.`;
  };
  if (sheet.layout === 'point') return sheet.facts.map((_, i) => line(i)).join(' ');
  const out: string[] = [];
  if (sheet.layout === 'comparison') {
    sheet.facts.forEach((_, i) => out.push(line(i)));
    const d = sheet.derived.find((x) => x.id === 'D1');
    if (!d && sheet.facts.some((f) => entityRelativeUnit(f.evidence.unit))) out.push(`The values are in each currency's own units, so they are not subtracted or ranked.`);
    else if (!d && sheet.facts.some((f) => f.evidence.period.basis === 'survey') && new Set(sheet.facts.map((f) => f.evidence.period.label)).size > 1) out.push('The values are estimates of different surveys or vintages, so they are not subtracted or ranked.');
    if (d && sheet.facts.length === 2) {
      const [a, b] = sheet.facts as [typeof sheet.facts[0], typeof sheet.facts[0]];
      const higher = d.value >= 0 ? a.evidence.entity.label : b.evidence.entity.label;
      out.push(`${higher} had the higher value, by ${formatDifference(Math.abs(d.value), d.unit, d.currency)}.`);
    }
    return out.join(' ');
  }
  const sorted = [...sheet.facts].sort((x, y) => (x.evidence.period.end ?? '').localeCompare(y.evidence.period.end ?? ''));
  const e0 = sorted[0]!.evidence;
  out.push(`${e0.entity.label}'s ${e0.measureLabel}, according to ${publisherName(e0.source)}:`);
  for (const f of sorted) out.push(`- ${f.evidence.period.label}: ${formatValue(f.evidence.value, f.evidence.unit, f.evidence.currency)}`);
  const d1 = sheet.derived.find((x) => x.id === 'D1');
  const d2 = sheet.derived.find((x) => x.id === 'D2');
  // the arithmetic is published beside each derived figure (figures[].arithmetic), not in the prose
  if (d1) out.push(`Change from ${e0.period.label} to ${sorted[sorted.length - 1]!.evidence.period.label}: ${formatDifference(d1.value, d1.unit, d1.currency)}${d2 ? ` (${d2.value.toFixed(1)}%)` : ''}.`);
  return out.join('\n');
}

/** How a sentence names a publisher: its connector says (connectors own their publisher). */
export function publisherName(source: string): string { return readerNameOf(source); }
