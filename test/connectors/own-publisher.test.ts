/**
 * Connectors own their publisher: the jam values, the record kinds an operation lists and the
 * status fields its records carry are declared in each connector file, and read through the
 * registry — not kept in lists of publisher ids elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { connectorRegistry, listKindOf, listKinds, programNameOf, readerNameOf, recordsNameOf, sentinelsOf } from '../../src/connectors/registry.ts';
import { publisherName } from '../../src/answer/render.ts';
import { LIST_KINDS } from '../../src/execute/list.ts';
import { checkObservation } from '../../src/validate/structural.ts';
import type { Observation } from '../../src/connectors/records.ts';

describe('connector declarations', () => {
  it('each connector declares its jam values', () => {
    expect([...sentinelsOf('census-acs')].sort((a, b) => a - b)).toEqual([-999999999, -888888888, -666666666, -555555555, -333333333, -222222222]);
    expect(sentinelsOf('cdc-svi').has(-999)).toBe(true);
    expect(sentinelsOf('cdc-svi').has(-666666666)).toBe(true);
    expect(sentinelsOf('cdc-places').has(-999)).toBe(true);
    expect(sentinelsOf('sec-edgar').size).toBe(0);
  });

  it('each connector says how a sentence names its publisher, and the answer uses that name', () => {
    for (const c of connectorRegistry().values()) {
      expect(c.readerName, `${c.source} declares no readerName`).toMatch(/\S/);
      expect(publisherName(c.source)).toBe(c.readerName);
      expect(recordsNameOf(c.source)).toBe(c.recordsName ?? c.readerName);
    }
    expect(readerNameOf('census-acs')).toBe('the Census Bureau (ACS)');
    expect(recordsNameOf('usaspending')).toBe('USAspending.gov');
    // another program of the same publisher is credited under the publisher's own name
    expect(programNameOf('census-acs', 'SAIPE')).toBe('the Census Bureau (SAIPE)');
    // a source no connector serves is named by its id, never by a guess
    expect(publisherName('no-such-publisher')).toBe('no-such-publisher');
  });

  it('a jam value that arrives as a number is still never admitted', () => {
    const rec: Observation = { type: 'observation', source: 'census-acs', operation: 'acs-county', measure: 'acs5-2021/B01003_001E', value: -666666666, status: 'reported', unit: 'count', scale: 1, period: { start: '2017-01-01', end: '2021-12-31', instant: false, basis: 'survey', label: 'ACS 5-year 2017–2021' }, geography: { level: 'county', fips: '06037', name: 'Los Angeles County, California' }, attributes: {}, raw: { source: 'census-acs', method: 'GET', url: 'https://api.census.gov/x', status: 200, sha256: 'x', retrievedAt: 'x' } };
    const v = checkObservation(rec, { entity: { keyType: 'fips', key: '06037', label: 'Los Angeles County, California' }, measure: rec.measure, period: { year: 2021, basis: 'unspecified', latest: false, text: '2021' }, attribute: null });
    expect(v.checks.find((c) => c.name === 'sentinel')?.passed).toBe(false);
  });

  it('the listing operations and their record kinds come from the connectors (the executor\'s table is the same)', () => {
    expect(listKinds()).toEqual(LIST_KINDS);
    expect(listKindOf('sec-edgar', 'submissions')).toBe('filing');
    expect(listKindOf('sec-edgar', 'companyfacts')).toBeUndefined();
  });
});
