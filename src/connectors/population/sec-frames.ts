/**
 * SEC frames populations: for one XBRL concept, unit and calendar period, one value per company
 * that reported it (`/frames/{taxonomy}/{tag}/{unit}/{period}`). Live, a frames response is the
 * complete set of filers that reported that concept for that period — not every company (a filer
 * reporting revenue under another concept is absent, said as the population's coverage). The
 * offline snapshot holds only DERIVED frames of 2–5 filers: a partial population, whose membership
 * cannot be verified from the response, so it never answers a ranking or an aggregate.
 *
 * Periods: a year named is CY<year> (a duration) or CY<year>Q4I (the year-end instant, for
 * balance-sheet concepts), tried in that order; "latest" starts from the last full calendar year.
 */
import type { Observation, OperationResult } from '../records.ts';
import type { PopulationFailure } from '../../population/types.ts';
import type { MembershipCheck, PopulationAsk, PopulationBinding, PopulationProvider, ProviderRows } from './provider.ts';

const SOURCE = 'sec-edgar';

function bind(ask: PopulationAsk, operation: string): PopulationBinding[] | PopulationFailure {
  const m = /^(?:sec-edgar\/)?([a-z-]+(?:-full)?)\/([A-Za-z0-9]+)$/.exec(ask.measureKey);
  if (!m) return { code: 'not_a_population_measure', measure: ask.measureKey, operation: `${SOURCE}/${operation}` };
  if (ask.grain !== 'company') return { code: 'grain_mismatch', asked: ask.grain, returns: 'company', operation: `${SOURCE}/frames` };
  if (ask.scope.kind !== 'nation') return { code: 'scope_not_covered', asked: ask.scope.name, covers: 'every SEC filer that reported the concept, without a location filter', operation: `${SOURCE}/frames` };
  const unit = ask.measureUnit === 'USD/shares' ? 'USD/shares' : ask.measureUnit && ask.measureUnit !== 'pure' ? ask.measureUnit : 'USD';
  const thisYear = Number(ask.today.slice(0, 4));
  const years = ask.period.latest || ask.period.year === null ? [thisYear - 1, thisYear - 2, thisYear - 3] : [ask.period.year];
  const out: PopulationBinding[] = [];
  for (const y of years) {
    for (const period of [`CY${y}`, `CY${y}Q4I`]) {
      out.push({ source: SOURCE, operation: 'frames', grain: 'company', args: { taxonomy: m[1]!, tag: m[2]!, unit, period }, recordMeasure: `${m[1]}/${m[2]}`, period: { label: period, start: `${y}-01-01`, end: `${y}-12-31`, basis: 'calendar' } });
    }
  }
  return out;
}

function rows(result: OperationResult, b: PopulationBinding): ProviderRows {
  const obs = result.records.filter((r): r is Observation => r.type === 'observation' && r.measure === b.recordMeasure);
  return {
    rows: obs.map((o) => ({ key: o.entity!.cik!, keyType: 'cik' as const, label: o.entity!.name ?? o.entity!.cik!, value: o.value, status: o.status, period: { label: b.args.period!, ...(o.period.start ? { start: o.period.start } : {}), ...(o.period.end ? { end: o.period.end } : {}), basis: 'calendar' as const }, attributes: { accn: o.attributes.accn ?? null } })),
    declared: null, unit: obs[0]?.unit ?? 'USD', ...(obs[0]?.currency ? { currency: obs[0].currency } : {}), label: obs[0]?.label ?? b.recordMeasure,
    notes: [{ code: 'coverage_of', of: `filers that reported ${b.recordMeasure} for ${b.args.period}` }],
  };
}

/** Which companies report a concept cannot be known apart from the response. */
const membership = (): MembershipCheck => ({ verified: false, expected: 'every filer that reported the concept' });

export const secFramesPopulation: PopulationProvider = {
  source: SOURCE,
  // a frame grows as filers file (and amend) for its period: a day at most
  freshnessDays: 1,
  operations: { frames: 'company' }, bind, rows, membership };
