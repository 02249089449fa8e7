import { describe, expect, it } from 'vitest';
import { validateDescriptorFiles, formatReport, type Problem } from '../../src/ard/index.ts';
import { readDescriptor, writeMutated, entryIndex } from './helpers.ts';

const SEC = 'sec-edgar.json';
const op = (d: any, id: string) => d.entries[entryIndex(d, `urn:air:assay:sec-edgar:op:${id}`)];

interface Case {
  name: string;
  edit: (d: any) => void;
  expect: Partial<Problem>[];
}

const cases: Case[] = [
  { name: 'bad identifier (not a urn:air URN)', edit: (d) => { op(d, 'frames').identifier = 'assay:sec-edgar:op:frames'; },
    expect: [{ layer: 'ard-schema', rule: 'pattern', path: '/entries/4/identifier' }] },
  { name: 'identifier outside Assay\'s scheme', edit: (d) => { op(d, 'frames').identifier = 'urn:air:assay:sec-edgar:thing:frames'; },
    expect: [{ layer: 'extension', rule: 'urn-scheme' }] },
  { name: 'missing required ARD field (displayName)', edit: (d) => { delete op(d, 'frames').displayName; },
    expect: [{ layer: 'ard-schema', rule: 'required' }] },
  { name: 'missing extension field (grain)', edit: (d) => { delete op(d, 'frames').data.grain; },
    expect: [{ layer: 'extension', path: '/entries/4/data/grain' }] },
  { name: 'unknown access-path kind', edit: (d) => { op(d, 'frames').data.kind = 'full_table_dump'; },
    expect: [{ layer: 'extension', path: '/entries/4/data/kind', rule: 'invalid_value' }] },
  { name: 'measure served by a non-existent operation', edit: (d) => {
      d.entries.push({ identifier: 'urn:air:assay:sec-edgar:measure:us-gaap:Foo', displayName: 'Foo', type: 'application/vnd.assay.measure+json',
        data: { type: 'Metric', title: 'Foo', description: 'A test measure.', measureId: 'us-gaap/Foo', dataset: 'xbrl-financial-data', unit: 'USD', valueType: 'decimal', servedBy: ['companyfacts', 'no-such-op'] } });
    },
    expect: [{ layer: 'reference', path: '/entries/7/data/servedBy/1' }] },
  { name: 'bad URL template (unbalanced brace)', edit: (d) => { op(d, 'frames').data.urlTemplate = 'https://data.sec.gov/api/xbrl/frames/{taxonomy/{tag}.json'; },
    expect: [{ layer: 'extension', rule: 'url-template' }] },
  { name: 'bad URL template (undeclared placeholder)', edit: (d) => { op(d, 'companyfacts').data.urlTemplate = 'https://data.sec.gov/api/xbrl/companyfacts/CIK{cik}.json'; },
    expect: [{ layer: 'extension', rule: 'url-template' }] },
  { name: 'SHACL violation: an API that serves no dataset', edit: (d) => { d.entries[0].data.services[1].servesDatasets = []; },
    expect: [{ layer: 'shacl', rule: 'MinCountConstraintComponent', focusNode: 'https://assay.invalid/source/sec-edgar/service/sec-files' }] },
];

describe('validateDescriptorFiles', () => {
  it('accepts the real SEC EDGAR descriptor', async () => {
    const r = await validateDescriptorFiles([new URL('../../ard-okf/sec-edgar.json', import.meta.url).pathname]);
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.counts.accessPaths).toBe(6);
    expect(formatReport(r)).toMatch(/^ok: 1 file/);
  });

  it.each(cases)('rejects: $name', async ({ edit, expect: wanted }) => {
    const doc = await readDescriptor(SEC);
    const path = await writeMutated(SEC, doc, edit);
    const r = await validateDescriptorFiles([path]);
    expect(r.ok).toBe(false);
    for (const w of wanted) expect(r.problems).toContainEqual(expect.objectContaining({ file: path, ...w }));
    for (const p of r.problems) { expect(p.message.length).toBeGreaterThan(0); expect(p.fix.length).toBeGreaterThan(0); }
    // Rejected whole: a file failing layers 1-2 contributes nothing, not even its valid entries.
    if (wanted.some((w) => w.layer !== 'shacl')) expect(r.counts).toMatchObject({ publishers: 0, accessPaths: 0, measures: 0 });
  });

  it('lists every problem of a file, not just the first', async () => {
    const doc = await readDescriptor(SEC);
    const path = await writeMutated(SEC, doc, (d) => { op(d, 'frames').data.kind = 'nope'; op(d, 'submissions').data.method = 'PUT'; delete op(d, 'companyfacts').data.coverage; });
    const r = await validateDescriptorFiles([path]);
    expect(r.problems.map((p) => p.path)).toEqual(expect.arrayContaining(['/entries/4/data/kind', '/entries/5/data/method', '/entries/2/data/coverage']));
    expect(formatReport(r)).toMatch(/nothing was loaded/);
  });

  it('reports unreadable and non-JSON files', async () => {
    const r = await validateDescriptorFiles(['/nonexistent/x.json']);
    expect(r.problems[0]).toMatchObject({ layer: 'json', rule: 'readable' });
  });
});
