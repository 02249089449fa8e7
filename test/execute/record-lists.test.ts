/**
 * Records-by-entity readers beyond SEC filings, examined on real publisher bodies: NSF awards
 * (the UCAR 2015 response), NIH RePORTER projects (a 20-project results array) and USAspending
 * prime awards (a 2-row contracts page). These bodies are "unkeyed" (their exact requests are not
 * known, so they are never replayed as cassettes): the list contents are pinned here, from the
 * parsers and the list examination; end to end such questions end as operationally_blocked (see
 * test/ask/status-list.test.ts). Also: the request each binder makes (state, year, award group).
 */
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RawResponse } from '../../src/http/client.ts';
import { readDeclarations, type Declarations } from '../../src/connectors/declarations.ts';
import { nsfAwardRecords } from '../../src/connectors/nsf-awards.ts';
import { buildNihRequest, nihProjectRecords } from '../../src/connectors/nih-reporter.ts';
import { awardRows, buildUsaRequest } from '../../src/connectors/usaspending.ts';
import { pointer, type OperationResult } from '../../src/connectors/records.ts';
import { bindRecordOperation } from '../../src/execute/bind-records.ts';
import { examineList, sameEntity } from '../../src/execute/list.ts';
import type { BoundRead } from '../../src/execute/record-search.ts';
import type { Assessment } from '../../src/plan/plan.ts';

const raw = (source: string, file: string, json: unknown): RawResponse => ({ source, method: 'GET', url: `https://example.invalid/${file}`, status: 200, sha256: 'n/a', retrievedAt: 'unknown', contentType: 'application/json', text: '', json, attempts: 0, keyless: false });
const body = async (source: string, file: string) => JSON.parse(await readFile(`fixtures/publishers/${source}/unkeyed/${file}`, 'utf8'));

function read(name: string): BoundRead {
  const candidate = { candidateKey: 'x', kind: 'operation', publisherId: 'x', title: 'x', discoveryRank: 1, verdict: 'exact', reason: 'test' } as Assessment;
  return { bundle: { id: `name:${name}`, label: name, altLabels: [], types: [], identifiers: {}, from: 'offline-snapshot', match: 'words' }, key: { keyType: 'name', value: name }, byName: true, candidate, attemptN: 1, namesakes: 1, asked: name };
}
const result = (source: string, operation: string, records: OperationResult['records'], r: RawResponse, complete: boolean, notes: string[] = []): OperationResult =>
  ({ source, operation, records, responses: [pointer(r)], complete, notes });

describe('NSF awards by awardee (UCAR 2015, real response)', () => {
  let res: OperationResult;
  beforeAll(async () => {
    const r = raw('nsf-awards', 'ucar', await body('nsf-awards', 'v1_awards.json_awardee-UCAR_2015.json'));
    const awards = (r.json as { response: { award: Array<Record<string, string>> } }).response.award;
    res = result('nsf-awards', 'awards-by-awardee', nsfAwardRecords(awards, r, 'awards-by-awardee'), r, true);
  });

  it('lists all 21 awards, most recent first, each with its amount as a value and its NSF id as the key', () => {
    const x = examineList({ kind: 'award', cap: 100 }, 'NSF awards')(res, read('University Corporation for Atmospheric Research'));
    if (!('admit' in x)) throw new Error(x.reject);
    expect(x.total).toBe(21);
    expect(x.complete).toBe(true);
    expect(x.admit.slice(0, 3).map((i) => [i.record!.key, i.period.end, i.value])).toEqual([
      ['nsf_award_id=1513102', '2015-09-17', 608513], ['nsf_award_id=1559702', '2015-09-10', 378482], ['nsf_award_id=1443652', '2015-09-10', 116288],
    ]);
    expect(x.admit[20]).toMatchObject({ value: 13540, unit: 'USD', currency: 'USD', record: { key: 'nsf_award_id=1462194', label: 'Support of the International Conference on Mesoscale Convective System' } });
    // "University Corporation For Atmospheric Res" is NSF's truncation of the name asked: a textual match, disclosed
    expect(x.checks[0]!.detail).toBe('21 award record(s) carry name "University Corporation for Atmospheric Research" (matched textually, as the publisher matches it)');
    expect(x.admit.reduce((a, i) => a + (i.value as number), 0)).toBe(8_310_024);
  });

  it('a year filter keeps the awards dated that year; another year is no data', () => {
    const y = examineList({ kind: 'award', cap: 100, year: 2015 }, null)(res, read('University Corporation for Atmospheric Research'));
    expect('admit' in y && y.total).toBe(21);
    const none = examineList({ kind: 'award', cap: 100, year: 2016 }, null)(res, read('University Corporation for Atmospheric Research'));
    expect(none).toMatchObject({ code: 'not_found', prune: false });
  });

  it('awards of another awardee answer a different question and prune the source', () => {
    const x = examineList({ kind: 'award', cap: 100 }, null)(res, read('Massachusetts Institute of Technology'));
    expect(x).toMatchObject({ code: 'different_question', prune: true });
  });
});

describe('NIH projects by organization (real results array)', () => {
  it("keeps Johns Hopkins' 2 projects of the 20, by the organization name; a fiscal year filters by RePORTER's fiscal_year", async () => {
    const r = raw('nih-reporter', 'results', null);
    const recs = nihProjectRecords(await body('nih-reporter', 'v2_projects_search.results-array.json'), r, 'projects-by-organization');
    expect(recs).toHaveLength(20);
    const res = result('nih-reporter', 'projects-by-organization', recs, r, false, ['paging stopped (SYNTHETIC note for the test)']);
    const x = examineList({ kind: 'project', cap: 100 }, 'NIH projects')(res, read('Johns Hopkins University'));
    if (!('admit' in x)) throw new Error(x.reject);
    expect(x.admit.map((i) => [i.record!.key, i.period.end, i.value, i.record!.attributes.fiscalYear])).toEqual([
      ['appl_id=11128734', '2025-08-01', 136315, 2025], ['appl_id=10899575', '2024-08-01', 136315, 2024],
    ]);
    expect(x.checks[0]!.detail).toContain('18 about other entities left out');
    expect(x.complete).toBe(false);
    expect(x.admit[0]!.assurance.warnings.join(' ')).toContain("the publisher's paging was not read to its end");
    const fy = examineList({ kind: 'project', cap: 100, year: 2024 }, null)(res, read('Johns Hopkins University'));
    expect('admit' in fy && fy.admit.map((i) => i.record!.key)).toEqual(['appl_id=10899575']);
  });

  it('asks RePORTER for every fiscal year when the question names none (the criterion is left out)', async () => {
    const decls: Declarations = await readDeclarations('ard-okf');
    const decl = decls.operation('nih-reporter', 'projects-by-organization')!;
    expect(JSON.parse(buildNihRequest(decl, { org: 'JOHNS HOPKINS UNIVERSITY' }).request.body!)).toEqual({ criteria: { org_names: ['JOHNS HOPKINS UNIVERSITY'] }, offset: 0, limit: 500 });
    expect(JSON.parse(buildNihRequest(decl, { org: 'JOHNS HOPKINS UNIVERSITY', fiscal_year: '2023' }).request.body!).criteria).toEqual({ org_names: ['JOHNS HOPKINS UNIVERSITY'], fiscal_years: [2023] });
  });
});

describe('USAspending prime awards by recipient (real 2-row contracts page)', () => {
  it('keeps the recipient asked, its amount a value, and says the page was not the last', async () => {
    const r = raw('usaspending', 'contracts', await body('usaspending', 'spending_by_award_contracts.json'));
    const page = awardRows(r, 'spending-by-award');
    expect(page.more).toBe(true);
    const res = result('usaspending', 'spending-by-award', page.records, r, false, ['more pages exist']);
    const x = examineList({ kind: 'award', cap: 100 }, 'federal contracts')(res, read('Northrop Grumman Systems Corp'));
    if (!('admit' in x)) throw new Error(x.reject);
    expect(x.admit).toHaveLength(1);
    expect(x.admit[0]).toMatchObject({ value: 4345585999.01, unit: 'USD', period: { end: '2003-10-01' }, record: { key: 'award_id=GSFC0200211DNAS502200' } });
    expect(x.checks[0]!.detail).toContain('1 about other entities left out');
  });

  it('filters by recipient and one award-type group in the request', async () => {
    const decls = await readDeclarations('ard-okf');
    const decl = decls.operation('usaspending', 'spending-by-award')!;
    const b = JSON.parse(buildUsaRequest(decl, { start: '2007-10-01', end: '2026-11-30', award_types: 'A,B,C,D', recipient: 'LOCKHEED MARTIN CORP' }).request.body!);
    expect(b.filters).toEqual({ time_period: [{ start_date: '2007-10-01', end_date: '2026-11-30' }], award_type_codes: ['A', 'B', 'C', 'D'], recipient_search_text: ['LOCKHEED MARTIN CORP'] });
  });
});

describe('record binders', () => {
  const name = { keyType: 'name', value: 'LOCKHEED MARTIN CORP' };
  it('USAspending: the award group from the question, the year or every searchable year to today', () => {
    expect(bindRecordOperation('usaspending/spending-by-award', name, { awardGroup: 'contracts', today: '2026-11-30' })).toEqual({ fetchArgs: { recipient: 'LOCKHEED MARTIN CORP', award_types: 'A,B,C,D', start: '2007-10-01', end: '2026-11-30', pages: '10' } });
    expect(bindRecordOperation('usaspending/spending-by-award', name, { awardGroup: 'grants', year: 2024 })).toEqual({ fetchArgs: { recipient: 'LOCKHEED MARTIN CORP', award_types: '02,03,04,05', start: '2024-01-01', end: '2024-12-31', pages: '10' } });
    expect(bindRecordOperation('usaspending/spending-by-award', name, { today: '2026-11-30' })).toMatchObject({ error: expect.stringContaining('one award-type group per request') });
  });
  it('NSF and NIH take the name; NIH the fiscal year only when asked', () => {
    expect(bindRecordOperation('nsf-awards/awards-by-awardee', { keyType: 'name', value: 'UCAR' }, {})).toEqual({ fetchArgs: { awardee: 'UCAR', pages: '40' } });
    expect(bindRecordOperation('nih-reporter/projects-by-organization', { keyType: 'name', value: 'JHU' }, {})).toEqual({ fetchArgs: { org: 'JHU', pages: '10' } });
    expect(bindRecordOperation('nih-reporter/projects-by-organization', { keyType: 'name', value: 'JHU' }, { year: 2023 })).toEqual({ fetchArgs: { org: 'JHU', fiscal_year: '2023', pages: '10' } });
    expect(bindRecordOperation('nsf-awards/awards-by-awardee', { keyType: 'ein', value: '123456789' }, {})).toMatchObject({ error: expect.stringContaining('takes a name') });
  });
  it('textual name matching: legal forms and case aside, or a truncation at a word boundary', () => {
    expect(sameEntity('name', 'University Corporation for Atmospheric Research', 'University Corporation For Atmospheric Res')).toBe(true);
    expect(sameEntity('name', 'Northrop Grumman Systems Corp', 'NORTHROP GRUMMAN SYSTEMS CORPORATION')).toBe(true);
    expect(sameEntity('name', 'Johns Hopkins University', 'JOHNS HOPKINS UNIVERSITY')).toBe(true);
    expect(sameEntity('name', 'Johns Hopkins University', 'UNIVERSITY OF PENNSYLVANIA')).toBe(false);
    expect(sameEntity('name', 'MIT', 'MITRE CORP')).toBe(false);
    expect(sameEntity('ein', '142007220', '142007220')).toBe(true);
  });
});
