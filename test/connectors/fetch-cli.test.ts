/**
 * `assay fetch` and `assay resolve` end to end, as a user runs them (a child process on the offline
 * default; the child's network is never used: replay mode has no fetch at all).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
async function assay(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/assay.js', ...args], { timeout: 120_000, env: { ...process.env, ASSAY_USER_AGENT: '' } });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

// Concurrent: each test runs its own child processes (replays, nothing written), so they overlap.
describe.concurrent('assay fetch', () => {
  it('--list names every source and operation', async () => {
    const r = await assay('fetch', '--list');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/sec-edgar\s+companyfacts\s+keyed_read\s+--cik/);
    expect(r.stdout).toMatch(/census-acs\s+acs-county/);
    expect(r.stdout).toMatch(/grants-gov\s+search-opportunities/);
  });

  it('prints typed records from the cassettes, with their origin', async () => {
    const r = await assay('fetch', 'sec-edgar', 'companyfacts', '--cik', '320193', '--concept', 'RevenueFromContractWithCustomerExcludingAssessedTax', '--fy', '2023', '--form', '10-K', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const fy = out.records.find((x: { period: { end: string; fiscalYear?: number } }) => x.period.end === '2023-09-30' && x.period.fiscalYear === 2023);
    expect(fy).toMatchObject({ value: 383285000000, unit: 'USD', raw: { cassette: 'fixtures/publishers/sec-edgar/companyfacts.CIK0000320193.cassette.json' } });
  });

  it('a typed failure: not in the offline snapshot is an operational block (exit 3)', async () => {
    const r = await assay('fetch', 'sec-edgar', 'submissions-identity', '--cik', '1234567');
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/blocked \(offline\).*not in the offline snapshot/);
  });

  it('live without a User-Agent contact is refused before any call (exit 3); bad arguments exit 2', async () => {
    const live = await assay('fetch', 'sec-edgar', 'submissions-identity', '--cik', '320193', '--live');
    expect(live.code).toBe(3);
    expect(live.stderr).toMatch(/missing_user_agent/);
    const bad = await assay('fetch', 'sec-edgar', 'companyfacts');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/needs --cik/);
  });
});

describe.concurrent('assay resolve', () => {
  it('lists every candidate with its identifiers, never choosing', async () => {
    const r = await assay('resolve', 'Apple', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.candidates.length).toBeGreaterThan(1);
    expect(out.candidates[0]).toMatchObject({ label: 'Apple Inc.', identifiers: { cik: ['0000320193'], ticker: ['AAPL'] } });
    const table = await assay('resolve', 'Cook County', '--type', 'county');
    expect(table.stdout).toMatch(/3 candidates .* the registry does not choose/);
    expect(table.stdout).toMatch(/Cook County, Illinois .*fips=17031/);
  });
});
