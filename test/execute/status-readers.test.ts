/**
 * The status readers as tables: which yes/no a question asks, how each publisher code reads
 * (true, false on its own terms, a descriptive label, blank), and the state a question names.
 */
import { describe, expect, it } from 'vitest';
import type { EntityRecord } from '../../src/connectors/records.ts';
import { polarityCheck, statusAsk } from '../../src/validate/status.ts';
import { stateCode } from '../../src/execute/bind-records.ts';
import { interpretOffline } from '../../src/understand/offline/interpret.ts';
import { recordIdFor } from '../../src/execute/unkeyed.ts';

const rec = (attributes: Record<string, string | null>): EntityRecord => ({
  type: 'entity', source: 'irs-eo-bmf', operation: 'eo-bmf-ein-lookup', kind: 'organization', label: 'X', keys: { ein: '000000001' }, attributes,
  raw: { source: 'irs-eo-bmf', method: 'GET', url: 'https://example.org/', status: 200, sha256: '0'.repeat(64), retrievedAt: '2025-01-01' },
});

describe('statusAsk', () => {
  it.each([
    ['Is the Red Cross a 501(c)(3)?', null, '501c3'],
    ['Is the NRA a 501(c)(4) organization?', null, '501c4'],
    ['Is Tesla a large accelerated filer?', 'accelerated filer status', 'large_accelerated_filer'],
    ['Is Apple an accelerated filer?', 'accelerated filer status', 'accelerated_filer'],
    ['Is the Gates Foundation a private foundation?', null, 'private_foundation'],
    ['Is Wikimedia Foundation a public charity?', null, 'public_charity'],
    ['Is the American Red Cross tax-exempt?', null, 'tax_exempt'],
  ])('%s → %s', (q, attr, id) => expect(statusAsk(q, attr)?.id).toBe(id));

  it('has no reader for a status no table answers', () => expect(statusAsk('Is Apple still an active SEC filer?', 'active status')).toBeNull());
});

describe('reading codes', () => {
  const c3 = statusAsk('a 501(c)(3)?', null)!;
  const pf = statusAsk('a private foundation?', null)!;
  const ex = statusAsk('tax-exempt?', null)!;
  it.each([
    [c3, { subsection: '03' }, 'boolean', true],
    [c3, { subsection: '04' }, 'boolean', false],
    [c3, { subsection: null }, 'missing', undefined],
    [pf, { foundation: '04' }, 'boolean', true],
    [pf, { foundation: '15' }, 'boolean', false],
    [pf, { foundation: '00' }, 'boolean', false],
    [pf, { foundation: '09' }, 'label', undefined],
    [ex, { status: '01' }, 'boolean', true],
    [ex, { status: '25' }, 'label', undefined],
    [ex, { status: '12' }, 'label', undefined],
  ] as const)('%#: %o reads as %s %s', (ask, attrs, kind, truth) => {
    const r = ask.read(rec(attrs));
    expect(r.kind).toBe(kind);
    if (r.kind === 'boolean') expect(r.truth).toBe(truth);
    expect(polarityCheck(ask, r).passed).toBe(kind === 'boolean');
  });

  it('an SEC category outside Rule 12b-2 is a label, not a no', () => {
    const ask = statusAsk('Is X a large accelerated filer?', null)!;
    expect(ask.read({ ...rec({ category: 'Large accelerated filer' }), source: 'sec-edgar' })).toMatchObject({ kind: 'boolean', truth: true });
    expect(ask.read({ ...rec({ category: 'Non-accelerated filer<br>Smaller reporting company' }), source: 'sec-edgar' })).toMatchObject({ kind: 'boolean', truth: false });
    expect(ask.read({ ...rec({ category: 'Foreign private issuer' }), source: 'sec-edgar' }).kind).toBe('label');
    expect(ask.read({ ...rec({ category: '' }), source: 'sec-edgar' }).kind).toBe('missing');
  });
});

describe('hints from the question', () => {
  it.each([
    ['Is the Red Cross in DC tax-exempt?', 'dc'],
    ['Is X in the District of Columbia a 501(c)(3)?', 'dc'],
    ['Is AARP in Rhode Island a 501(c)(4)?', 'ri'],
    ['Is the Red Cross tax-exempt?', null],
  ])('%s → %s', (q, s) => {
    // the state comes from the intent's geography (the interpreter reads "in DC"), never from the question text
    const u = interpretOffline(q);
    expect(u.status === 'understood' ? stateCode(u.intent.geography?.within) : 'not understood').toBe(s);
  });
  it('state names and codes', () => { expect(stateCode('Rhode Island')).toBe('ri'); expect(stateCode('D.C.')).toBe('dc'); expect(stateCode('Atlantis')).toBeNull(); });
  it('a record id is bound from the intent\'s codes by the noun the parameter numbers, never from the question', () => {
    const code = (value: string, noun: string | null) => ({ kind: 'record_id' as const, value, noun, text: `${noun ?? ''} ${value}` });
    expect(recordIdFor([code('350123', 'opportunity')], 'opportunity_id')).toBe('350123');
    expect(recordIdFor([code('9', 'award'), code('350123', 'opportunity')], 'opportunity_id')).toBe('350123');
    expect(recordIdFor([code('350123', null)], 'opportunity_id')).toBe('350123');
    expect(recordIdFor([code('9', 'award')], 'opportunity_id')).toBeUndefined();
    expect(recordIdFor([{ kind: 'currency', value: 'euro', noun: null, text: 'euro' }], 'opportunity_id')).toBeUndefined();
  });
});
