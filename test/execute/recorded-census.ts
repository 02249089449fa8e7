/** Read a figure from a recorded Census cassette body (array of arrays), by the row's geography columns: tests never type a publisher figure in. */
import { readFileSync } from 'node:fs';

const ACS = new URL('../../fixtures/publishers/census-acs/', import.meta.url);

export function recordedCensus(cassette: string, variable: string, geo: Record<string, string>): number {
  const c = JSON.parse(readFileSync(new URL(cassette, ACS), 'utf8')) as { response: { bodyFile: string } };
  const rows = JSON.parse(readFileSync(new URL(c.response.bodyFile, ACS), 'utf8')) as string[][];
  const [header, ...body] = rows as [string[], ...string[][]];
  const row = body.find((r) => Object.entries(geo).every(([k, v]) => r[header.indexOf(k)] === v));
  if (!row) throw new Error(`${cassette} holds no row for ${JSON.stringify(geo)}`);
  return Number(row[header.indexOf(variable)]);
}

/** The ACS 5-year 2017–2021 all-counties table in the connector's request form (total population, white alone, median household income). */
export const ACS5_2021_COUNTIES = 'acs-all-counties.acs5_2021_county_B01003-B02001_002-B19013.census-pypkg.cassette.json';
