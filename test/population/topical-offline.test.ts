// Grants.gov offline: the recorded search answers its own words only; every other search is an
// honest offline block; the fetchOpportunity details recorded in the samples (one raw body, eleven
// verbatim data objects rebuilt into the API envelope) are read by key. Expected values are read
// here from the cassette bodies.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 180_000 });
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import type { AskResult } from '../../src/ask/types.ts';
import { entities, observations, run } from '../connectors/harness.ts';
import { testServices } from '../ask/services.ts';

const DIR = 'fixtures/publishers/grants-gov';
interface Cassette { operation: string; request: { body: string }; response: { bodyFile: string }; origin: { derived: boolean; trimmed: boolean; note: string; sample: string } }
const cassettes = readdirSync(DIR).filter((f) => f.endsWith('.cassette.json')).map((f) => JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Cassette);
const details = cassettes.filter((c) => c.operation === 'fetch-opportunity');
const bodyOf = (c: Cassette) => JSON.parse(readFileSync(join(DIR, c.response.bodyFile), 'utf8')) as { errorcode: number; data: { id: number; opportunityTitle: string; synopsis: { awardCeiling?: string } } };

let services: AskServices;
beforeAll(async () => { services = await testServices(); }, 120_000);

const keys = (r: AskResult) => (r.table?.rows ?? []).map((row) => row.find((c) => c.column === 'key')?.value);

describe('Grants.gov fetchOpportunity details in the offline snapshot', () => {
  it('twelve recorded opportunities, each keyed by its own id, the rebuilt ones marked DERIVED with their provenance', () => {
    expect(details).toHaveLength(12);
    for (const c of details) {
      const id = (JSON.parse(c.request.body) as { opportunityId: number }).opportunityId;
      const b = bodyOf(c);
      expect(b.errorcode).toBe(0);
      expect(b.data.id).toBe(id);
      if (c.origin.sample.includes('nativeforge')) {
        expect(c.origin.derived).toBe(true);
        expect(c.origin.note).toMatch(/verbatim fetchOpportunity data object/);
      }
    }
  });

  it('each is read through the connector: the record and its award ceiling as published', async () => {
    for (const c of details) {
      const b = bodyOf(c);
      const r = await run('grants-gov', 'fetch-opportunity', { opportunity_id: String(b.data.id) });
      expect(entities(r)[0]).toMatchObject({ label: b.data.opportunityTitle, keys: { opportunity_id: String(b.data.id) } });
      const ceiling = observations(r).find((o) => o.measure === 'synopsis/awardCeiling');
      const published = b.data.synopsis.awardCeiling;
      if (published !== undefined && /^\d+$/.test(published)) expect(ceiling?.value).toBe(Number(published));
    }
  });

  it('a point question on a recorded opportunity answers with the published award ceiling', async () => {
    const c = details.find((x) => bodyOf(x).data.id === 362633)!;
    const r = await ask(services, { question: 'What is the award ceiling of opportunity 362633?' });
    expect(r.status, JSON.stringify(r.refusal)).toBe('answered');
    expect(r.figures.map((f) => [f.value, f.grade])).toEqual([[Number(bodyOf(c).data.synopsis.awardCeiling), 'verified']]);
  });
});

describe('topical searches offline', () => {
  it('"grants for <topic>" reaches the search operation; the recorded search answers with its hit, the TRIMMED page said as such, no count', async () => {
    const r = await ask(services, { question: 'Are there any grants for tribal energy development?' });
    expect(r.status, JSON.stringify(r.refusal)).toBe('answered');
    const search = cassettes.find((c) => c.operation === 'search-opportunities')!;
    const hits = (JSON.parse(readFileSync(join(DIR, search.response.bodyFile), 'utf8')) as { data: { hitCount: number; oppHits: Array<{ id: string }> } }).data;
    expect(keys(r)).toEqual(hits.oppHits.map((h) => h.id));
    const d = r.qualification!.disclosures.join(' ');
    expect(d).toMatch(/TRIMMED sample of the publisher's response/);
    // the recorded page lists every hit it counts: no "more matches reported" claim
    expect(hits.hitCount).toBe(hits.oppHits.length);
    expect(d).not.toMatch(/reported more matches/);
    expect(r.figures.every((f) => f.grade === 'verified')).toBe(true);
  });

  it.each(['Find grants for cancer research', 'Are there any grants for rural broadband?', 'Find education grant opportunities'])('an unrecorded search is blocked offline and says so, never answered from another page: %s', async (question) => {
    const r = await ask(services, { question });
    expect(r.status).toBe('refused');
    expect(r.refusal).toMatchObject({ boundary: 'operationally_blocked' });
    expect(r.refusal!.reason).toMatch(/no recording of this Grants\.gov request/);
    expect(r.figures).toEqual([]);
  });

  it.each(['Search for NSF awards about quantum computing.', 'Find NIH-funded studies about opioid addiction.', 'Which nonprofits are named after Lincoln?'])('records no topical search this build reads returns are refused naming the searches it reads, never sent to Grants.gov: %s', async (question) => {
    const r = await ask(services, { question });
    expect(r.status).toBe('refused');
    expect(r.attempts.filter((a) => a.source === 'grants-gov')).toEqual([]);
    if (r.refusal!.code === 'no_search') expect(r.refusal!.reason).toMatch(/grants-gov\/search-opportunities \(grant and funding opportunities\)/);
    expect(r.figures).toEqual([]);
  });
});
