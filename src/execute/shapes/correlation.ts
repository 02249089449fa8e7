/**
 * Correlation: two measures across the members of two complete populations at the same grain
 * ("Is county poverty associated with diabetes prevalence?"), each component read on its own from
 * the candidates planned for it, aligned on FIPS, missing and suppressed members counted, r, ρ and
 * n computed (simple-statistics), with the ecological and spatial caveats. Mismatched grains, a
 * suppressed series, fewer than three aligned members or a partial population are refused.
 */
import { correlate } from '../../population/compute/correlation.ts';
import { computeRefused, evidenceFor, isOutcome, populationOutcome, refuseSearch, searchPopulation, templateFor } from '../../population/execute.ts';
import { scopeLabel } from '../../population/geo.ts';
import { grainOf } from '../../population/choices.ts';
import { refusal } from './common.ts';
import type { ShapeExecutor } from './types.ts';

export const correlation: ShapeExecutor = {
  shapes: ['correlation'],
  name: 'population correlation',
  async execute(i) {
    const attrs = i.intent.attributes;
    if (attrs.length !== 2) return refusal('not_understood', 'components', 'a correlation needs exactly two measures', { attribute: i.intent.attribute, missing: 'the two measures named ("is A associated with B")' });
    // components that name their own grains ("county income with state poverty") must name the same one: no read aligns them
    const named = attrs.map((a) => grainOf({ geography: { level: a, within: null }, type: null }));
    if (named[0] && named[1] && named[0] !== named[1]) return computeRefused(i, [], { code: 'grain_mismatch', grains: [named[0], named[1]] });
    const t = templateFor(i);
    if (isOutcome(t)) return t;
    const reads = [];
    const attempts = [];
    for (const a of attrs) {
      const candidates = i.planned.components?.get(a) ?? [];
      if (candidates.length === 0) return refusal('no_access_path', 'component_unplanned', `no candidate was planned for the component "${a}"`, { attribute: a });
      let s = await searchPopulation(i, candidates, { ...t, attribute: a }, a);
      attempts.push(...s.out.attempts);
      // components are published in different vintages: a component with no population for the year
      // asked is read at its latest, said as such (and the periods-differ caveat follows)
      if (!s.read && !s.partial && !t.period.latest) {
        const latest = await searchPopulation(i, candidates, { ...t, attribute: a, period: { year: null, latest: true, text: 'latest' } }, a);
        attempts.push(...latest.out.attempts);
        if (latest.read) s = { ...latest, read: { ...latest.read, notes: [...latest.read.notes, { code: 'period_not_published', asked: t.period.text, read: latest.read.period.label }] } };
      }
      if (!s.read) { const r = refuseSearch(i, s, t.grain, scopeLabel(t.scope)); return { ...r, attempts, ...(r.kind === 'refused' ? { context: { ...r.context, attribute: a } } : {}) }; }
      reads.push(s.read);
    }
    const [x, y] = reads as [typeof reads[0], typeof reads[0]];
    const c = correlate(x, y);
    if (!c.ok) return computeRefused(i, attempts, c.refusal);
    // the pairs at both ends of the first measure are shown as evidence; every pair is in the table
    const byX = [...c.value.pairs].sort((a, b) => a.x.value! - b.x.value!);
    const shown = byX.length <= 4 ? byX : [byX[0]!, byX[1]!, byX[byX.length - 2]!, byX[byX.length - 1]!];
    const items = [...evidenceFor(i, x, shown.map((p) => p.x)), ...evidenceFor(i, y, shown.map((p) => p.y))];
    return populationOutcome(attempts, items, {
      shape: 'correlation', reads: [x, y], result: { kind: 'correlation', correlation: c.value },
      itemOf: Object.fromEntries([...shown.map((p, k) => [`0:${p.key}`, k]), ...shown.map((p, k) => [`1:${p.key}`, shown.length + k])]),
    });
  },
};
