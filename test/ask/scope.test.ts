/**
 * Scope ambiguity of place names (issue 10, rule 3) through the ask path, offline: "New York" is the
 * state (FIPS 36) and New York County (36061) in the registry; the county's newest recorded value is
 * the ACS 5-year 2017–2021 all-counties table's (read from the cassette here); the newest recorded ACS state vintage is the 1-year
 * 2018 table. The registry holds no cities, so "New York City" is a grain it cannot read.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import { testServices } from './services.ts';
import { ACS5_2021_COUNTIES, recordedCensus } from '../execute/recorded-census.ts';

let services: AskServices;
beforeAll(async () => { services = await testServices(); }, 120_000);

const NY = 'What is the population of New York?';

describe('What is the population of New York?', () => {
  it('under on_ambiguity=ask: a clarification naming the state and the county, before any request', async () => {
    const r = await ask(services, { question: NY, on_ambiguity: 'ask' });
    expect(r.status).toBe('needs_clarification');
    expect(r.clarification!.options.map((o) => o.label)).toEqual(['New York (state)', 'New York County, New York']);
    expect(r.attempts).toEqual([]);
  }, 60_000);

  it('resuming with the county reads the county by its FIPS code, the reading disclosed', async () => {
    const first = await ask(services, { question: NY, on_ambiguity: 'ask' });
    const r = await ask(services, { resume: { run: first.run_id, option: 2 } });
    expect(r.status).toBe('answered');
    // the county's newest recorded vintage: the ACS 5-year 2017–2021 all-counties table (newer than the SVI 2018 republication)
    expect(r.evidence.map((e) => [e.source, e.entity_key, e.period, e.value])).toEqual([['census-acs', 'fips=36061', 'ACS 5-year 2017–2021', recordedCensus(ACS5_2021_COUNTIES, 'B01003_001E', { state: '36', county: '061' })]]);
    expect(r.qualification!.disclosures.some((d) => d.includes('read as New York County, New York (the county'))).toBe(true);
  }, 60_000);

  it('under on_ambiguity=answer: the state is read (never the county silently), and the reading is disclosed', async () => {
    const r = await ask(services, { question: NY, on_ambiguity: 'answer' });
    // the newest recorded ACS state vintage (the figure is checked against its cassette in test/execute/latest-vintages.test.ts)
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => [e.source, e.entity_key])).toEqual([['census-acs', 'fips=36']]);
    expect(r.evidence.some((e) => e.entity_key === 'fips=36061')).toBe(false);
    // the county file cannot read a state: never tried
    expect(r.attempts.some((a) => a.source === 'cdc-svi')).toBe(false);
    expect(r.qualification!.disclosures.some((d) => /answered for the most likely, New York \(the state\)/.test(d))).toBe(true);
  }, 120_000);
});

describe('a grain the registry does not hold', () => {
  it('"New York City" is refused as grain_missing, never read as the state or the county', async () => {
    const r = await ask(services, { question: 'What is the population of New York City?' });
    expect(r.status).toBe('refused');
    expect(r.refusal).toMatchObject({ boundary: 'entity_unresolved', code: 'grain_missing' });
    expect(r.refusal!.answerable_if).toMatch(/a place the identity registry holds/);
    expect(r.attempts).toEqual([]);
    expect(r.evidence).toEqual([]);
  }, 60_000);

  it('"New York County" settles the grain by its own words and discloses the namesake', async () => {
    const r = await ask(services, { question: 'What is the population of New York County?' });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => [e.entity_key, e.value])).toEqual([['fips=36061', recordedCensus(ACS5_2021_COUNTIES, 'B01003_001E', { state: '36', county: '061' })]]);
    expect(r.qualification!.disclosures).toContain('"New York County" read as New York County, New York (the county, as "County" says); the same name is also New York');
  }, 60_000);
});

describe('the scope of each entity of a comparison', () => {
  const Q = 'Compare the population of New York and Texas.';
  it('under ask: the ambiguous entity is asked about before any request; resuming with the state compares the two states', async () => {
    const first = await ask(services, { question: Q, on_ambiguity: 'ask' });
    expect(first.status).toBe('needs_clarification');
    expect(first.clarification!.options.map((o) => o.label)).toEqual(['New York (state)', 'New York County, New York']);
    expect(first.attempts).toEqual([]);
    const r = await ask(services, { resume: { run: first.run_id, option: 1 } });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => [e.entity_key, e.period])).toEqual([['fips=36', 'ACS 1-year 2018'], ['fips=48', 'ACS 1-year 2018']]);
  }, 180_000);

  it('under answer: each entity is read at the scope taken, disclosed; the county is never read for the state silently', async () => {
    const r = await ask(services, { question: Q, on_ambiguity: 'answer' });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => e.entity_key)).toEqual(['fips=36', 'fips=48']);
    expect(r.qualification!.disclosures.some((d) => /^"New York" names several geographies .*answered for the most likely, New York \(the state\)/.test(d))).toBe(true);
  }, 180_000);

  it('a grain word of another entity does not settle this one ("New York and Los Angeles County" asks which New York)', async () => {
    const r = await ask(services, { question: 'Compare the population of New York and Los Angeles County.', on_ambiguity: 'ask' });
    expect(r.status).toBe('needs_clarification');
    expect(r.clarification!.options.map((o) => o.label)).toEqual(['New York (state)', 'New York County, New York']);
  }, 180_000);
});
