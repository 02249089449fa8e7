// "Latest" over a population descends through the vintages of one operation before an older source:
// with the newer ACS vintages not in the offline snapshot, the ACS 5-year 2017–2021 county table is
// ranked, not the ACS 2014–2018 values CDC SVI republishes; the newer periods are disclosed as
// not read, each because the snapshot does not hold it. Values come from the cassette body itself.
import { beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import { testServices } from '../ask/services.ts';
import { ACS5_2021_COUNTIES, recordedCensus } from '../execute/recorded-census.ts';

let services: AskServices;
beforeAll(async () => { services = await testServices(); }, 120_000);

describe('a "latest" population read descends through the vintages of its operation', () => {
  it('ranks Illinois counties by the recorded ACS 5-year 2017–2021 table, with every newer vintage disclosed as not in the snapshot', async () => {
    const cook = recordedCensus(ACS5_2021_COUNTIES, 'B01003_001E', { state: '17', county: '031' });
    const r = await ask(services, { question: 'Which Illinois county has the largest population?' });
    expect(r.status, r.text).toBe('answered');
    expect(r.figures.map((f) => f.value)).toContain(cook);
    expect(r.figures.filter((f) => f.grade === 'unverified')).toEqual([]);
    // the ACS read, never the SVI republication of an older vintage
    expect(r.attempts.filter((a) => a.disposition === 'accepted').map((a) => a.source)).toEqual(['census-acs']);
    expect(r.attempts.some((a) => a.source === 'cdc-svi')).toBe(false);
    const latest = r.qualification!.disclosures.find((d) => d.startsWith('"latest" read as ACS 5-year 2017–2021'));
    expect(latest).toBeDefined();
    for (const newer of ['2020–2024', '2019–2023', '2018–2022']) expect(latest).toContain(`ACS 5-year ${newer}`);
    expect(latest).not.toContain('not tried');
  }, 120_000);
});
