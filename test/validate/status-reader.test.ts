/**
 * The status reader is chosen by the intent's status id, never by the question's words, and the
 * operations that can answer it are the ones whose connectors declare the field.
 */
import { describe, expect, it } from 'vitest';
import { statusReader } from '../../src/validate/status.ts';
import { operationsCarrying } from '../../src/connectors/registry.ts';

describe('statusReader', () => {
  it.each([
    ['501c3', '501c3', 'subsection'],
    ['501c7', '501c7', 'subsection'],
    ['private_foundation', 'private_foundation', 'foundation'],
    ['public_charity', 'public_charity', 'foundation'],
    ['tax_exempt', 'tax_exempt', 'status'],
    ['large_accelerated_filer', 'large_accelerated_filer', 'category'],
    ['smaller_reporting_company', 'smaller_reporting_company', 'category'],
  ] as const)('%s → reader %s over the operations carrying %s', (id, readerId, field) => {
    const r = statusReader({ id, text: id });
    expect(r?.id).toBe(readerId);
    expect(r?.operations).toEqual(operationsCarrying(field));
    expect(r!.operations.length).toBeGreaterThan(0);
  });

  it('has no reader for a status no table answers, nor for none asked', () => {
    expect(statusReader({ id: 'active', text: 'active' })).toBeNull();
    expect(statusReader(null)).toBeNull();
  });

  it('the operations come from the connectors\' declarations', () => {
    expect(operationsCarrying('category')).toEqual(['sec-edgar/submissions-identity', 'sec-edgar/submissions']);
    expect(operationsCarrying('subsection')).toEqual(expect.arrayContaining(['irs-eo-bmf/eo-bmf-ein-lookup', 'irs-eo-bmf/eo-bmf-state', 'propublica-nonprofits/organization']));
  });
});
