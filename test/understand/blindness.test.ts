/**
 * Interpretation is blind to the corpus: no source identifier, publisher name or catalog listing
 * may appear in the understanding code or in either model prompt, and nothing under
 * src/understand/ may read the catalog. Asserts on names, not on capability words.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderPrompts } from '../../src/understand/model/prompts.ts';

interface Entry { identifier: string; type: string; displayName: string; data?: { publisher?: { id: string; name: string }; title?: string; services?: { title: string }[]; datasets?: { title: string }[] } }

function catalogNames(): { phrases: string[]; acronyms: string[]; titles: string[] } {
  const phrases = new Set<string>();
  const acronyms = new Set<string>();
  const titles: string[] = [];
  for (const f of readdirSync('ard-okf').filter((x) => x.endsWith('.json'))) {
    const entries = (JSON.parse(readFileSync(join('ard-okf', f), 'utf8')) as { entries: Entry[] }).entries;
    for (const e of entries) {
      if (e.type.includes('source')) {
        const pub = e.data!.publisher!;
        for (const n of [pub.id, pub.name, e.displayName, e.displayName.replace(/\s*\(.*\)$/, ''), e.identifier, ...(e.data!.services ?? []).map((s) => s.title), ...(e.data!.datasets ?? []).map((d) => d.title)]) phrases.add(n);
        for (const w of e.displayName.split(/\s+/)) if (/^[A-Z]{3,}$/.test(w)) acronyms.add(w);
        for (const w of e.displayName.split(/\s+/)) if (/^[A-Z][a-z]+[A-Z]\w+$/.test(w)) acronyms.add(w); // RePORTER, ProPublica, USAspending
      } else {
        titles.push(e.displayName);
      }
    }
  }
  return { phrases: [...phrases].filter((p) => p.length >= 4), acronyms: [...acronyms], titles };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

function leaks(text: string, names: ReturnType<typeof catalogNames>): string[] {
  const found: string[] = [];
  const lower = text.toLowerCase();
  for (const p of names.phrases) if (lower.includes(p.toLowerCase())) found.push(p);
  for (const a of names.acronyms) if (new RegExp(`\\b${a}\\b`).test(text)) found.push(a);
  // A catalog listing: three or more measure/operation titles in one text.
  const listed = names.titles.filter((t) => t.length > 12 && lower.includes(t.toLowerCase()));
  if (listed.length >= 3) found.push(`catalog listing (${listed.slice(0, 3).join(', ')}, ...)`);
  return found;
}

describe('interpretation is blind to the corpus', () => {
  const names = catalogNames();

  it('the name list is real (the test can fail)', () => {
    expect(names.phrases).toEqual(expect.arrayContaining(['sec-edgar', 'SEC EDGAR', 'census-acs', 'ProPublica Nonprofit Explorer']));
    expect(names.acronyms).toEqual(expect.arrayContaining(['SEC', 'IRS', 'NSF', 'NIH']));
    expect(leaks('ask SEC EDGAR first', names)).not.toEqual([]);
    expect(leaks('an NSF award', names)).not.toEqual([]);
  });

  it('no understanding source file names a source or reads the catalog', () => {
    const files = filesUnder('src/understand').filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      expect({ file: f, leaks: leaks(text, names) }).toEqual({ file: f, leaks: [] });
      expect(text, `${f} must not import the catalog`).not.toMatch(/from\s+['"][./]*(?:\.\.\/)+ard\/|ard-okf|loadCatalog|\/discover\//);
    }
  });

  it('neither model prompt names a source or lists the catalog', () => {
    const p = renderPrompts('What was the total revenue of the example company in 2023?');
    for (const text of [p.structure.system, p.structure.user, p.measure.system, p.measure.user]) {
      expect(leaks(text, names)).toEqual([]);
    }
  });
});
