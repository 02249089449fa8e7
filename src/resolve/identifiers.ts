/**
 * Identifier types an identity bundle can carry, the Wikidata property each one is stored under (in
 * Wikidata and in the offline snapshot alike), and their canonical text form: CIKs 10 digits, EINs
 * 9 digits (Wikidata writes 12-3456789), FIPS as zero-padded text. Canonical forms are what
 * connectors accept, so binding never reformats.
 */
import { WDT } from '../rdf/vocab.ts';

export const ID_TYPES = ['qid', 'cik', 'ticker', 'ein', 'lei', 'fips', 'ipeds_unitid'] as const;
export type IdType = (typeof ID_TYPES)[number];

/** Property → identifier type (FIPS state, county and place codes all bind as `fips`). */
export const PROPERTY_ID: ReadonlyMap<string, { type: IdType; level?: 'state' | 'county' | 'place' }> = new Map([
  [WDT.P5531, { type: 'cik' }],
  [WDT.P249, { type: 'ticker' }],
  [WDT.P1297, { type: 'ein' }],
  [WDT.P1278, { type: 'lei' }],
  [WDT.P5087, { type: 'fips', level: 'state' }],
  [WDT.P882, { type: 'fips', level: 'county' }],
  [WDT.P774, { type: 'fips', level: 'place' }],
  [WDT.P1771, { type: 'ipeds_unitid' }],
]);

/** The canonical text of an identifier value, or undefined when it is not well-formed. */
export function canonical(type: IdType, value: string): string | undefined {
  const v = value.trim();
  switch (type) {
    case 'cik': return /^\d{1,10}$/.test(v) ? v.padStart(10, '0') : undefined;
    case 'ein': { const d = v.replace(/-/g, ''); return /^\d{9}$/.test(d) ? d : undefined; }
    case 'ticker': return /^[A-Za-z0-9.\-]{1,10}$/.test(v) ? v.toUpperCase() : undefined;
    case 'lei': return /^[A-Z0-9]{20}$/.test(v) ? v : undefined;
    case 'fips': return /^\d{2}(\d{3}|\d{5})?$/.test(v) ? v : undefined;
    case 'ipeds_unitid': return /^\d{6}$/.test(v) ? v : undefined;
    case 'qid': return /^Q\d+$/.test(v) ? v : undefined;
  }
}
