/** The `assay ask` door: the real launcher on the offline default, a fresh data directory. */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
async function assay(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  try { return await run(process.execPath, ['bin/assay.js', ...args], { timeout: 90_000, env: { ...process.env, ASSAY_LLM_URL: '', ASSAY_LLM_REPLAY: '' } }); }
  catch (e) { const err = e as { stdout?: string; stderr?: string }; return { stdout: err.stdout ?? '', stderr: err.stderr ?? '' }; }
}

describe('assay ask', () => {
  it('answers offline with the figure graded and cited, progress on stderr; the clarification resumes across invocations', async () => {
    const data = await mkdtemp(join(tmpdir(), 'assay-ask-'));
    const plain = await assay('ask', "What was Apple's total revenue in 2023?", '--data', data);
    expect(plain.stdout).toContain("Apple Inc.'s Revenue from Contract with Customer, Excluding Assessed Tax for FY2023 (ending 2023-09-30) was $383,285,000,000, according to SEC EDGAR.");
    expect(plain.stdout).toMatch(/\$383,285,000,000\s+verified/);
    expect(plain.stdout).toContain('https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json');
    expect(plain.stdout).toContain('plain rendering');
    expect(plain.stderr).toMatch(/structure .*\[offline\] point/);
    const asked = JSON.parse((await assay('ask', "What was Apple's profit in 2023?", '--on-ambiguity', 'ask', '--json', '--data', data)).stdout);
    expect(asked.status).toBe('needs_clarification');
    const resumed = JSON.parse((await assay('ask', '--resume', asked.run_id, '--option', '1', '--json', '--data', data)).stdout);
    expect(resumed.status).toBe('answered');
    expect(resumed.evidence[0].value).toBe(96995000000);
  }, 180_000);
});
