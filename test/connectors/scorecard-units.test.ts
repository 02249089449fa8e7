/**
 * The Scorecard's responses state no units: the connector stamps them (college-scorecard.ts
 * FIELDS). Every field the catalog declares a measure for must come back in the unit its card
 * declares, or the structural unit check refuses every read of it — Yale's completion rate was
 * refused as "unit 1, the measure is declared in ratio" because the card's field was missing from
 * the connector's table. Rates and shares are fractions of 1 (unit `fraction`), read from Yale's
 * cassette (fixtures/publishers/college-scorecard).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkObservation } from '../../src/validate/structural.ts';
import { observations, run } from './harness.ts';

interface Entry { type: string; data?: { measureId?: string; unit?: string; title?: string } }
const cards = (JSON.parse(readFileSync('ard-okf/college-scorecard.json', 'utf8')) as { entries: Entry[] }).entries
  .filter((e) => e.type === 'application/vnd.assay.measure+json').map((e) => e.data!);

describe('Scorecard units: the connector and the catalog say the same', () => {
  it('every catalogued field comes back in its declared unit and passes the unit check', async () => {
    expect(cards.length).toBeGreaterThanOrEqual(6);
    const fields = cards.map((c) => c.measureId!.replace('/', '.'));
    const obs = observations(await run('college-scorecard', 'school', { unitid: '130794', fields: fields.join(',') }));
    const got = cards.map((c, i) => {
      const o = obs.find((x) => x.measure === fields[i])!;
      const unit = checkObservation(o, { entity: { keyType: 'ipeds_unitid', key: '130794', label: 'Yale University' }, measure: fields[i]!, unit: c.unit!, period: { year: null, basis: 'unspecified', latest: true, text: 'latest' }, attribute: null }).checks.find((k) => k.name === 'unit')!;
      return [fields[i], o.unit, unit.passed];
    });
    expect(got).toEqual(cards.map((c, i) => [fields[i], c.unit, true]));
  });

  it('a rate or share is a fraction of 1, exactly as published', async () => {
    const obs = observations(await run('college-scorecard', 'school', { unitid: '130794', fields: 'latest.completion.rate_suppressed.overall,latest.admissions.admission_rate.overall' }));
    expect(obs.map((o) => [o.measure, o.value, o.unit])).toEqual([
      ['latest.completion.rate_suppressed.overall', 0.9759, 'fraction'],
      ['latest.admissions.admission_rate.overall', 0.0693, 'fraction'],
    ]);
    for (const c of cards.filter((x) => /\brate\b|share/i.test(`${x.title} ${x.measureId}`))) expect(c.unit, c.measureId).toBe('fraction');
  });
});

describe('other publishers\' fractions of 1 are declared so', () => {
  it('the IRS e-file percentages (RatioType) are fractions; ratios not known to stay at that scale stay ratios', () => {
    const units = new Map(((JSON.parse(readFileSync('ard-okf/generated/irs-990-efile.fields.measures.json', 'utf8')) as { entries: Entry[] }).entries)
      .map((e) => [e.data?.measureId, e.data?.unit]));
    // a recorded return writes Schedule A's public support percentage as a fraction of 1
    expect(readFileSync('fixtures/publishers/irs-990-efile/bodies/efile-xml/201541349349307794_public.xml', 'utf8')).toContain('<PublicSupportCY170Pct>0.73390</PublicSupportCY170Pct>');
    expect(units.get('IRS990ScheduleA/SkdA_PblcSpprtCY170Pct')).toBe('fraction');
    expect(units.get('IRS990ScheduleH/Rsrch_TtlExpnsPct')).toBe('fraction');
    expect(units.get('IRS990PF/AvrgDstrbtnRt')).toBe('ratio');
    expect(units.get('IRS990ScheduleH/FPGFmlyIncmLmtFrCrPct')).toBe('ratio');
  });
});
