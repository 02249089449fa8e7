/**
 * Ratio and per-capita figures: the intent's component measures (numerator first), each read on
 * its own as a population and reduced to one value for the entity or scope asked — the member's
 * own row (a state's population), or a count or sum over the members within the scope (the
 * private foundations in DC) — then divided in code. Components of different grain, period or
 * match method are shown with the alignment warnings; a component that cannot be read is a
 * refusal naming it, never a guess. A ratio of one named entity that is not a place (a company, an
 * organization) reads each component by key instead (ratio-keyed.ts).
 */
import { aggregate } from '../../population/compute/aggregate.ts';
import { ratio as divide, type RatioComponent } from '../../population/compute/ratio.ts';
import { grainOf } from '../../population/choices.ts';
import { computeRefused, evidenceFor, isOutcome, populationOutcome, refuseSearch, searchPopulation, templateFor } from '../../population/execute.ts';
import { NATION, scopeFromText, scopeLabel, type Scope } from '../../population/geo.ts';
import type { PopulationRead, PopulationRow } from '../../population/types.ts';
import { aggregateOp } from './aggregate.ts';
import { keyedRatio } from './ratio-keyed.ts';
import { refusal } from './common.ts';
import type { Item, ShapeExecutor } from './types.ts';
import type { Intent } from '../../understand/intent.ts';

/** "per 100,000 residents" → 100000; a share or percentage → 100; otherwise 1. */
/**
 * The scale a ratio is stated in, from the intent alone (only src/understand reads the question):
 * "per 1,000 …" in the measure's words; a percent when the quantity asked is one (a share, a margin);
 * otherwise the words of the measure, else a plain ratio.
 */
export function ratioScale(intent: Pick<Intent, 'attribute' | 'attributes' | 'quantity'>): number {
  const words = [intent.attribute ?? '', ...intent.attributes].join(' ');
  const per = /\bper\s+(\d[\d,]*)\b/i.exec(words);
  if (per) return Number(per[1]!.replace(/,/g, ''));
  if (/\bper\s+(thousand|million)\b/i.test(words)) return /thousand/i.test(words) ? 1000 : 1e6;
  if (intent.quantity === 'percent') return 100;
  // a margin and a return on assets or equity are stated in percent, as a share is
  return /\b(share|percent|percentage|proportion|margins?|return\s+on)\b/i.test(words) ? 100 : 1;
}

export const ratio: ShapeExecutor = {
  shapes: ['ratio'],
  name: 'population ratio',
  async execute(i) {
    const attrs = i.intent.attributes;
    if (attrs.length !== 2) return refusal('not_understood', 'components', 'a ratio needs its two component measures (numerator, denominator)', { attribute: i.intent.attribute, missing: 'both components named ("X per Y", "the share of X in Y")' });
    // a named entity that is not a state-level area (a company, an organization): each component a keyed read of it
    const named = i.intent.canonical_entity ?? i.intent.entity;
    if (named && !scopeFromText(named)) return keyedRatio(i, named, attrs, ratioScale(i.intent));
    const t = templateFor(i);
    if (isOutcome(t)) return t;
    const place: Scope | undefined = scopeFromText(i.intent.canonical_entity ?? i.intent.entity ?? i.intent.geography?.within ?? null);
    if (!place || place.kind !== 'state') return refusal('no_access_path', 'ratio_entity', 'a ratio is read here for one state-level area (its own row, or its members counted or summed)', { attribute: i.intent.attribute, missing: 'a state, DC or Puerto Rico named' });
    const comps: RatioComponent[] = [];
    const items: Item[] = [];
    const itemOf: Record<string, number> = {};
    const reads: Array<PopulationRead & { attemptN: number }> = [];
    const attempts = [];
    for (const [k, a] of attrs.entries()) {
      const { op, members } = aggregateOp({ attribute: a });
      const candidates = i.planned.components?.get(a) ?? [];
      if (candidates.length === 0) return refusal('no_access_path', 'component_unplanned', `no candidate was planned for the component "${a}"`, { attribute: a });
      // a member-level value (a state's population) is read among all states; a count over members within the state
      const grain = op === 'count' ? grainOf({ geography: null, type: members }) : 'state';
      const scope = grain === 'state' ? NATION : place;
      const s = await searchPopulation(i, candidates, { ...t, attribute: a, grain, scope, members: members ?? null, includeStateEquivalents: true }, a);
      attempts.push(...s.out.attempts);
      if (!s.read) return { ...refuseSearch(i, s, grain, scopeLabel(scope)), attempts };
      reads.push(s.read);
      let value: number;
      let shownRows: PopulationRow[];
      if (grain === 'state') {
        const row = s.read.usable.find((r) => r.key === place.fips);
        if (!row) return refusal('no_access_path', 'component_missing', `${s.read.source}/${s.read.operation} has no usable ${a} row for ${place.name}`, { attribute: a });
        value = row.value!; shownRows = [row];
      } else {
        const agg = aggregate(s.read, op);
        if (!agg.ok) return computeRefused(i, attempts, agg.refusal);
        value = agg.value.value; shownRows = s.read.usable.slice(0, 3);
      }
      const ev = evidenceFor(i, s.read, shownRows);
      shownRows.forEach((r, j) => { itemOf[`${k}:${r.key}`] = items.length + j; });
      items.push(...ev);
      comps.push({
        measure: op === 'count' ? `count of ${members}` : s.read.measure.key, value, unit: op === 'count' ? 'count' : s.read.measure.unit, ...(s.read.measure.currency ? { currency: s.read.measure.currency } : {}),
        period: { label: s.read.period.label, ...(s.read.period.end ? { end: s.read.period.end } : {}) },
        about: { grain: 'state', key: place.fips, label: place.name }, match: 'key', evidence: ev.map((_, j) => String(items.length - ev.length + j)),
      });
    }
    const r = divide(comps[0]!, comps[1]!, ratioScale(i.intent));
    if (!r.ok) return computeRefused(i, attempts, r.refusal);
    return populationOutcome(attempts, items, { shape: 'ratio', reads, result: { kind: 'ratio', ratio: r.value }, itemOf });
  },
};
