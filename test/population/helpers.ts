/**
 * Population test helpers. Expected values are computed here from the recorded publisher bodies
 * (the sample files as the cassettes hold them: byte copies, or the API's array of arrays rebuilt
 * from a flattened sample), parsed with csv-parse / JSON.parse, never through src/population.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { connectorRuntime, type ConnectorRuntime } from '../../src/connectors/runtime.ts';
import { systemClock } from '../../src/http/context.ts';
import type { PopulationContext } from '../../src/population/read.ts';
import { readFirst } from '../../src/population/read.ts';
import { POPULATION_PROVIDERS } from '../../src/connectors/population/providers.ts';
import type { PopulationAsk } from '../../src/connectors/population/provider.ts';
import type { PopulationRead } from '../../src/population/types.ts';

const FIX = 'fixtures/publishers';

/** The body a cassette replays, as text. */
export function body(source: string, cassette: string): string {
  const c = JSON.parse(readFileSync(join(FIX, source, cassette), 'utf8')) as { response: { bodyFile: string } };
  return readFileSync(join(FIX, source, c.response.bodyFile), 'utf8');
}

export function csvRows(source: string, cassette: string): Array<Record<string, string>> {
  return parse(body(source, cassette).replace(/^\uFEFF/, ''), { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
}

/** A Census array-of-arrays body → objects keyed by header. */
export function censusRows(cassette: string): Array<Record<string, string | null>> {
  const t = JSON.parse(body('census-acs', cassette)) as Array<Array<string | null>>;
  const h = t[0] as string[];
  return t.slice(1).map((r) => Object.fromEntries(h.map((k, i) => [k, r[i] ?? null])));
}

export const CASSETTES = {
  states2018: (g: string) => `acs-all-states.acs-acs1-${g === 'S1701' ? 'subject-' : ''}2018-GROUP_${g}_DATA.cassette.json`,
  counties2021: 'acs-all-counties.acs5_2021_county_B01003-B02001_002-B19013.census-pypkg.cassette.json',
  places2022: 'all-counties-wide.PLACES__County_Data__GIS_Friendly_Format___2022_release.cassette.json',
  svi2018: 'county-poverty-all.SVI2018_US_COUNTY.poverty-columns.TRIMMED.cassette.json',
  bmf: (st: string) => `eo-bmf-state.eo_${st}.cassette.json`,
};

/** Census jam values (-666666666 …) and CDC's -999 are not numbers. */
export const isSentinel = (n: number) => n <= -111111111 || n === -999;

let runtime: Promise<ConnectorRuntime> | undefined;
export async function popContext(): Promise<PopulationContext> {
  runtime ??= connectorRuntime();
  return { runtime: await runtime, signal: new AbortController().signal, deadline: Infinity, clock: systemClock, fetchMemo: new Map() };
}

/** Reads a population through a provider's bindings, as an executor would. */
export async function population(source: string, operation: string, ask: Omit<PopulationAsk, 'today'>): Promise<PopulationRead> {
  const p = POPULATION_PROVIDERS.get(source)!;
  const full: PopulationAsk = { ...ask, today: '2026-12-01' };
  const b = p.bind(full, operation);
  if (!Array.isArray(b)) throw new Error(`bind failed: ${JSON.stringify(b)}`);
  const r = await readFirst(await popContext(), p, b, full);
  if (!r.read) throw new Error(`read failed: ${JSON.stringify(r.failures.map((f) => f.failure))}`);
  return r.read;
}

/** Pearson's r by its definition, for expected values (not simple-statistics). */
export function pearson(x: number[], y: number[]): number {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0; let sxx = 0; let syy = 0;
  for (let i = 0; i < n; i++) { sxy += (x[i]! - mx) * (y[i]! - my); sxx += (x[i]! - mx) ** 2; syy += (y[i]! - my) ** 2; }
  return sxy / Math.sqrt(sxx * syy);
}

/** Average ranks (1-based) for ties. */
export function midranks(v: number[]): number[] {
  const idx = v.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(v.length);
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j + 1 < idx.length && idx[j + 1]![0] === idx[i]![0]) j++;
    for (let k = i; k <= j; k++) out[idx[k]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}
