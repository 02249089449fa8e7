/** `assay chat`: lines from stdin are the turns of one conversation; a number resumes a clarification. */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'assay-chat-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function chat(lines: string[], ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/assay.js', 'chat', '--data', join(dir, 'data'), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { child.kill(); reject(new Error(`assay chat did not finish: ${stderr.slice(-2000)}`)); }, 240_000);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
    child.stdin.end(lines.map((l) => `${l}\n`).join(''));
  });
}

describe('assay chat', () => {
  it('answers a question, then a follow-up read against it', async () => {
    const r = await chat(["What was Apple's total revenue in 2023?", 'and in 2022?', 'exit', 'never asked']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('$383,285,000,000');
    expect(r.stdout).toContain('$394,328,000,000');
    expect(r.stdout).toMatch(/\(follow-up: carried over [a-z, ]*entity[a-z, ]* from "What was Apple's total revenue in 2023\?"\)/);
    expect(r.stdout).toContain('disclosed: Read as a follow-up');
    expect(r.stdout).not.toContain('never asked');
    expect(r.stderr).toMatch(/\[follow-up reader \(offline\)\]/);
    // The session's id is printed so a later session can continue it (--conversation; the turns are
    // in the store — continuing after a restart is tested over HTTP in followup-http.test.ts).
    expect(r.stderr).toMatch(/conversation [0-9a-f]{16}/);
  }, 240_000);

  it('a number after a clarification resumes it', async () => {
    const r = await chat(["What was Apple's profit in 2023?", '3'], '--on-ambiguity', 'ask', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Answer with the option number to resume.');
    expect(r.stdout).toContain('$169,148,000,000');
  }, 240_000);

  it('refuses a bad conversation id with a message', async () => {
    const r = await chat([], '--conversation', 'x');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--conversation takes the id a session printed/);
  }, 60_000);
});
