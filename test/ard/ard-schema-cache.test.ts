import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateArdManifest } from '../../src/ard/ard-schema.ts';

// Only passes are remembered (by the bytes' hash), so a manifest that fails is reported every time.
describe('ARD manifest validation, remembered by content', () => {
  const text = readFileSync('ard-okf/sec-edgar.json', 'utf8');
  it('a valid manifest passes with and without its text, and again from the remembered hash', () => {
    expect(validateArdManifest(JSON.parse(text), 'sec-edgar.json', text)).toEqual([]);
    expect(validateArdManifest(JSON.parse(text), 'sec-edgar.json', text)).toEqual([]);
    expect(validateArdManifest(JSON.parse(text), 'sec-edgar.json')).toEqual([]);
  });
  it('an invalid manifest fails every time, its text never taken for a valid one', () => {
    const bad = JSON.parse(text) as { entries: unknown };
    bad.entries = 'not a list';
    const badText = JSON.stringify(bad);
    for (let i = 0; i < 2; i++) expect(validateArdManifest(JSON.parse(badText), 'bad.json', badText).length).toBeGreaterThan(0);
  });
});
