/**
 * Census ACS connector: the data API by geography (all states, one state, counties in a state or all
 * counties, places), and variables metadata.
 *
 * Conventions handled here:
 *  - the body is an array of arrays of strings; the first row is the header; geography codes are the
 *    trailing predicate columns (state, county, place). Values are strings: "16.9" → 16.9.
 *  - the jam values -666666666, -888888888, -999999999, -222222222, -333333333, -555555555 (as int or
 *    float spelling) are markers, never numbers: value null with a status saying why.
 *  - `…E` estimates pair with `…M` margins of error; `…EA`/`…MA` annotations are kept as attributes.
 *  - units: percent for `…PE` profile variables, subject-table percent columns and labels that say
 *    so; US dollars for income/value tables; counts otherwise. Where the unit is inferred from the
 *    variable id rather than read from metadata, `attributes.unitFrom` says so.
 *  - ACS 1-year publishes only geographies of 65,000+ people: a missing county/place in acs1 is
 *    "not published by the 1-year survey — use acs5", not "does not exist".
 *  - a keyless request that gets an HTML page back is operationally blocked (Census wants a key).
 */
import { PublisherError } from '../http/errors.ts';
import type { RawResponse } from '../http/client.ts';
import type { OperationDecl } from './declarations.ts';
import { fillUrl } from './declarations.ts';
import { pointer, type EntityRecord, type Geography, type Observation, type OperationResult, type Period, type ValueStatus } from './records.ts';
import { decimal, policyFor, requireArgs } from './request.ts';
import { ConnectorInputError, type Connector, type ConnectorContext, type RequestBuilder } from './types.ts';
import { ownMeasure, type KeyedBinder, type KeyedBinding } from './binding.ts';

const SOURCE = 'census-acs';

export const SENTINELS: ReadonlyMap<number, { status: ValueStatus; meaning: string }> = new Map([
  [-666666666, { status: 'not_computable', meaning: 'estimate could not be computed (too few sample observations)' }],
  [-999999999, { status: 'too_few_cases', meaning: 'too few sample cases to compute the estimate or its margin of error' }],
  [-888888888, { status: 'not_applicable', meaning: 'not applicable or not available for this geography or cell' }],
  [-222222222, { status: 'not_computable', meaning: 'margin of error could not be computed (too few sample observations)' }],
  [-333333333, { status: 'not_computable', meaning: 'margin of error not appropriate: the median falls in the lowest or highest interval of an open-ended distribution' }],
  [-555555555, { status: 'controlled', meaning: 'controlled estimate: no sampling error, margin of error not applicable' }],
]);

const MONEY = /^(B19013|B19113|B19301|B19049|B19202|B25077|B25064|B25088|B25105|DP03_006[2-3]E|DP03_0086E|DP03_0088E|DP04_0089E|DP04_0134E|S1901_C0[1-4]_01[2-3]E)/;

/** Unit of an estimate variable, from its label when known, else from its id. */
export function censusUnit(variable: string, label?: string): { unit: string; currency?: string; from: 'label' | 'variable id' } {
  if (label) {
    if (/percent|rate\b/i.test(label)) return { unit: '%', from: 'label' };
    if (/dollars/i.test(label)) return { unit: 'USD', currency: 'USD', from: 'label' };
  }
  if (/^DP\d+_\d+PE$/.test(variable) || /^S1701_C03_/.test(variable)) return { unit: '%', from: 'variable id' };
  if (MONEY.test(variable)) return { unit: 'USD', currency: 'USD', from: 'variable id' };
  return { unit: 'count', from: 'variable id' };
}

export function parseCensusNumber(s: string | null | undefined): { value: number | null; status: ValueStatus; meaning?: string } {
  if (s === null || s === undefined || s === '' || s === 'null') return { value: null, status: 'missing' };
  const n = decimal(s);
  if (n === undefined) return { value: null, status: 'missing', meaning: `not a number: "${s}"` };
  const sentinel = SENTINELS.get(n);
  if (sentinel) return { value: null, status: sentinel.status, meaning: sentinel.meaning };
  return { value: n, status: 'reported' };
}

function surveyPeriod(year: number, product: string): Period {
  const five = product.startsWith('acs5');
  const one = product.startsWith('acs1');
  const supplemental = product.startsWith('acsse');
  return {
    start: `${five ? year - 4 : year}-01-01`, end: `${year}-12-31`, instant: false, basis: 'survey',
    label: five ? `ACS 5-year ${year - 4}–${year}` : one ? `ACS 1-year ${year}` : supplemental ? `ACS 1-year supplemental estimates ${year}` : `ACS ${product} ${year}`,
  };
}

function validProduct(p: string | undefined): string {
  if (!p || !/^acs(1|5|se|3)(\/(profile|subject|cprofile|spp))?$/.test(p)) throw new ConnectorInputError(`--product is an ACS dataset such as acs5, acs1, acs5/subject, acs1/profile; not "${p}"`);
  return p;
}

export const buildCensusRequest: RequestBuilder = (decl, args) => {
  const product = validProduct(args.product);
  if (!/^\d{4}$/.test(args.year ?? '')) throw new ConnectorInputError(`--year is a four-digit survey year, not "${args.year}"`);
  // the product is a path (acs1/profile): substitute it before encoding the other placeholders
  const url = fillUrl(decl.data.urlTemplate.replace('{product}', product), args);
  return { request: { method: 'GET', url }, policy: policyFor(decl, 'json', { queryParam: 'key' }) };
};

async function get(decl: OperationDecl, args: Readonly<Record<string, string>>, ctx: ConnectorContext): Promise<RawResponse> {
  const { request, policy } = buildCensusRequest(decl, args);
  try {
    return await ctx.http.request(request, policy, ctx);
  } catch (e) {
    if (!(e instanceof PublisherError)) throw e;
    const keyless = !ctx.http.hasCredential(decl.credentials.env);
    if (e.code === 'html_instead_of_data' && keyless) {
      throw new PublisherError('refused', `Census answered with a web page instead of data to a request sent without an API key (keyless use is limited to ${decl.rateLimit?.requestsPerDay ?? 500} requests a day); set ${decl.credentials.env}`, { method: e.method, url: e.url, status: e.status, source: SOURCE });
    }
    if (e.code === 'http_status' && e.status === 400 && /unknown variable|unknown\/unsupported geography|error:/i.test(e.message)) {
      throw new PublisherError('not_found', `Census rejected the request: ${/"([^"]+)"/.exec(e.message)?.[1] ?? e.message}`, { method: e.method, url: e.url, status: 400, source: SOURCE });
    }
    if (e.code === 'not_found' && args.product?.startsWith('acs1') && args.year === '2020') {
      throw new PublisherError('not_found', 'ACS 1-year 2020 standard estimates were not released (pandemic data-collection disruption); use the experimental 1-year or the 5-year survey', { method: e.method, url: e.url, status: e.status, source: SOURCE });
    }
    throw e;
  }
}

function table(raw: RawResponse): string[][] {
  if (raw.status === 204) return [];
  const t = raw.json as unknown;
  if (!Array.isArray(t) || !t.every((r) => Array.isArray(r))) throw new PublisherError('unexpected_shape', 'Census data responses are an array of arrays', { method: raw.method, url: raw.url, status: raw.status, source: SOURCE });
  return t as string[][];
}

const GEO_COLUMNS = ['state', 'county', 'place', 'tract', 'us'] as const;

function geographyOf(header: string[], row: (string | null)[]): Geography {
  const at = (c: string) => { const i = header.indexOf(c); return i >= 0 ? row[i] ?? undefined : undefined; };
  const name = at('NAME') ?? undefined;
  const state = at('state');
  const county = at('county');
  const place = at('place');
  if (county && state) return { level: 'county', fips: `${state}${county}`, ...(name ? { name } : {}) };
  if (place && state) return { level: 'place', fips: `${state}${place}`, ...(name ? { name } : {}) };
  if (state) return { level: 'state', fips: state, ...(name ? { name } : {}) };
  if (at('us')) return { level: 'nation', fips: '1', ...(name ? { name } : {}) };
  return { level: 'other', ...(name ? { name } : {}) };
}

/** The array-of-arrays body → one observation per estimate cell (with its MOE and annotations). */
export function acsObservations(raw: RawResponse, rows: (string | null)[][], year: number, product: string, operation: string): Observation[] {
  if (rows.length === 0) return [];
  const header = rows[0] as string[];
  const estimates = header.filter((h) => /^[A-Z]+\d+[A-Z]?_(C\d+_)?\d+P?E$/.test(h));
  const out: Observation[] = [];
  for (const row of rows.slice(1)) {
    const geography = geographyOf(header, row);
    for (const v of estimates) {
      const cell = row[header.indexOf(v)];
      const parsed = parseCensusNumber(cell);
      const base = v.slice(0, -1);
      const moeIdx = header.indexOf(v.endsWith('PE') ? `${v.slice(0, -2)}PM` : `${base}M`);
      const moe = moeIdx >= 0 ? parseCensusNumber(row[moeIdx]) : undefined;
      const ea = header.indexOf(`${v}A`);
      const ma = header.indexOf(v.endsWith('PE') ? `${v.slice(0, -2)}PMA` : `${base}MA`);
      const { unit, currency, from } = censusUnit(v);
      out.push({
        type: 'observation', source: SOURCE, operation,
        measure: `${product.replace('/', '-')}-${year}/${v}`,
        value: parsed.value, status: parsed.status, asPublished: cell ?? undefined,
        unit, ...(currency ? { currency } : {}), scale: 1,
        period: surveyPeriod(year, product), geography,
        ...(moe ? { marginOfError: moe.value } : {}),
        attributes: {
          unitFrom: from, dataset: `${year}/acs/${product}`,
          ...(parsed.meaning ? { statusMeaning: parsed.meaning } : {}),
          ...(moe && moe.status !== 'reported' ? { moeStatus: moe.status, moeMeaning: moe.meaning ?? null } : {}),
          ...(ea >= 0 ? { estimateAnnotation: row[ea] ?? null } : {}),
          ...(ma >= 0 ? { moeAnnotation: row[ma] ?? null } : {}),
        },
        raw: pointer(raw),
      });
    }
  }
  return out;
}

function result(operation: string, records: OperationResult['records'], raw: RawResponse, notes: string[]): OperationResult {
  if (raw.origin?.derived) notes.push(`replayed from a DERIVED cassette (${raw.origin.sample}): ${raw.origin.note ?? ''}`);
  return { source: SOURCE, operation, records, responses: [pointer(raw)], complete: true, notes };
}

function dataOperation(kind: 'state' | 'county' | 'place' | 'all-states' | 'all-counties') {
  const required = ['year', 'product', 'variables', ...(kind === 'state' ? ['state'] : kind === 'county' ? ['state', 'county'] : kind === 'place' ? ['state', 'place'] : [])];
  return {
    params: [
      { name: 'year', description: 'survey year (end year for 5-year)', required: true, example: '2021' },
      { name: 'product', description: 'acs5, acs1, acs5/subject, acs1/profile…', required: true, example: 'acs5' },
      { name: 'variables', description: 'comma-separated variable ids, or group(S1701)', required: true, example: 'B01001_001E' },
      ...(kind === 'state' || kind === 'county' || kind === 'place' ? [{ name: 'state', description: 'state FIPS (2 digits) or *', required: true, example: '17' }] : []),
      ...(kind === 'county' ? [{ name: 'county', description: 'county FIPS (3 digits) or *', required: true, example: '031' }] : []),
      ...(kind === 'place' ? [{ name: 'place', description: 'place FIPS (5 digits) or *', required: true, example: '14000' }] : []),
    ],
    async run(args: Readonly<Record<string, string>>, ctx: ConnectorContext, decl: OperationDecl): Promise<OperationResult> {
      requireArgs(args, required, decl.id);
      const raw = await get(decl, args, ctx);
      const rows = table(raw);
      const year = Number(args.year);
      const product = args.product!;
      const notes: string[] = [`values from the ${surveyPeriod(year, product).label} (${year}/acs/${product})`];
      const one = product.startsWith('acs1');
      if (rows.length <= 1) {
        const where = kind === 'county' ? `county ${args.state}${args.county}` : kind === 'place' ? `place ${args.state}${args.place}` : kind === 'state' ? `state ${args.state}` : 'the requested geographies';
        throw new PublisherError('not_found', one && (kind === 'county' || kind === 'place')
          ? `ACS 1-year does not publish ${where}: the 1-year survey covers only geographies of 65,000 people or more; ask the 5-year survey (acs5) instead`
          : `Census returned no data for ${where} in ${year}/acs/${product}${raw.status === 204 ? ' (204 No Content: not published)' : ''}`, { method: raw.method, url: raw.url, status: raw.status, source: SOURCE });
      }
      if (one && (kind === 'all-counties' || kind === 'county' || kind === 'place')) {
        notes.push(`ACS 1-year publishes only geographies of 65,000+ people: ${rows.length - 1} rows here; smaller ones are in the 5-year survey (acs5)`);
      }
      return result(decl.id, acsObservations(raw, rows, year, product, decl.id), raw, notes);
    },
  };
}

/** The Census Bureau's jam values (the keys of SENTINELS): never a number. */
export const CENSUS_SENTINEL_VALUES: ReadonlySet<number> = new Set(SENTINELS.keys());

/** The newest ACS vintage the descriptors declare ("latest" reads it), from the validated catalog. */
export function newestAcsVintage(descriptors: { newestDeclaredYear(source: string): number | undefined }): number {
  const y = descriptors.newestDeclaredYear(SOURCE);
  if (y === undefined) throw new Error(`the ${SOURCE} descriptor declares no dataset temporal end, so the newest ACS vintage ("latest") is unknown: add temporal.end to the ${SOURCE} dataset`);
  return y;
}

/**
 * Keyed reads of ACS estimates by FIPS code (states, counties, places). A year the question names
 * is the survey year asked: for a state, the 1-year estimate of that year first, then the 5-year
 * estimate ending that year (each disclosed by its label); for a county or place, the 5-year
 * estimate (the only survey that publishes every county and place). "Latest" is the newest vintage
 * the validated descriptors declare (`newestAcsVintage`), then each older declared vintage in turn
 * (the dataset's years, newest first): every reading carries its vintage (`period`), so the search
 * tries the newest first and names the newer ones it could not read — a vintage is never read in
 * place of a newer one silently. A state's value is read from the all-states table (one request for
 * every state, with margins and annotations); a county's or place's from the variable for every
 * county (place) of its state, and a county's headline variables also in the connector's all-counties
 * request form (`COUNTY_BUNDLE`). The record is still found by its FIPS code.
 */
type AcsLevel = 'state' | 'county' | 'place';
const FIPS_LENGTH: Record<AcsLevel, number> = { state: 2, county: 5, place: 7 };

/** `acs5-2009/B19013_001E` → the variable; the group is the variables file the catalog read it from, not a vintage to fetch. */
export function acsVariable(measureKey: string): string | undefined {
  const m = ownMeasure(measureKey, SOURCE);
  const v = m.includes('/') ? m.slice(m.lastIndexOf('/') + 1) : m;
  return /^[A-Z]+\d+[A-Z]*_(C\d+_)?\d+P?E$/.test(v) ? v : undefined;
}

/** Which ACS product family publishes a variable: subject tables (S…), data profiles (DP…), comparison profiles (CP…), else detailed tables. */
export function productFamily(variable: string): '' | '/subject' | '/profile' | '/cprofile' {
  if (/^S\d/.test(variable)) return '/subject';
  if (/^DP/.test(variable)) return '/profile';
  if (/^CP/.test(variable)) return '/cprofile';
  return '';
}

/** "Median household income … (median household income …)": the catalog appends the table concept, often the label again. */
function dropRepeatedConcept(t: string): string {
  if (!t.endsWith(')')) return t;
  let depth = 0;
  let open = -1;
  for (let k = t.length - 1; k >= 0; k--) {
    if (t[k] === ')') depth++;
    else if (t[k] === '(' && --depth === 0) { open = k; break; }
  }
  const head = open > 0 ? t.slice(0, open).trimEnd() : '';
  return head && head.toLowerCase() === t.slice(open + 1, -1).toLowerCase() ? head : t;
}

/**
 * The all-counties request form: the headline county variables (total population, white alone,
 * median household income) are asked together for every county, so one response per vintage serves
 * any of them — a population read, a correlation, or one county's keyed read alike. A keyed county
 * read of one of them tries this form after the county's own state table.
 */
export const COUNTY_BUNDLE = ['B01003_001E', 'B02001_002E', 'B19013_001E'] as const;

/** The first vintage each survey published: ACS 1-year 2005, the 5-year 2005–2009, the supplemental estimates 2014. */
const FIRST_VINTAGE = { acs1: 2005, acs5: 2009, acsse: 2014 } as const;

/**
 * The vintages a read takes, newest first: the survey year named, or for "latest" every vintage the
 * descriptors declare, from the newest down to the first the survey published.
 */
export function acsVintages(period: { latest: boolean; year: number | null }, declared?: { newestDeclaredYear(source: string): number | undefined }): number[] {
  if (!period.latest) return period.year === null ? [] : [period.year];
  const newest = newestAcsVintage(declared!);
  return Array.from({ length: Math.max(0, newest - FIRST_VINTAGE.acs1 + 1) }, (_, i) => newest - i);
}

/** Whether a survey published estimates for a vintage (ACS 1-year 2020 standard estimates were not released). */
function published(survey: 'acs1' | 'acs5' | 'acsse', year: number): boolean {
  return year >= FIRST_VINTAGE[survey] && !(survey === 'acs1' && year === 2020);
}

export function acsSurveyLabel(survey: 'acs1' | 'acs5', year: number): string {
  return survey === 'acs5' ? `ACS 5-year ${year - 4}–${year}` : `ACS 1-year ${year}`;
}

/** The record measure this connector writes for a product and year (`acs1-subject-2018/S1701_C03_001E`). */
export const recordMeasure = (product: string, year: number, variable: string) => `${product.replace('/', '-')}-${year}/${variable}`;

function acsBinder(level: AcsLevel): KeyedBinder {
  return {
    entityType: level,
    bind({ measureKey, key, period, declared }) {
      if (key.keyType !== 'fips' || key.value.length !== FIPS_LENGTH[level]) return { error: `acs-${level} takes a ${FIPS_LENGTH[level]}-digit ${level} FIPS code, not ${key.keyType} ${key.value}` };
      const variable = acsVariable(measureKey);
      if (!variable) return { error: `${measureKey} is not an ACS estimate variable` };
      if (!period.latest && period.year === null) return { error: 'the question names no survey year' };
      if (period.latest && !declared) return { error: 'the newest ACS vintage comes from the catalog, and none was given to the binder' };
      const years = acsVintages(period, declared);
      if (!period.latest && years[0]! < FIRST_VINTAGE.acs1) return { error: `the ACS began in ${FIRST_VINTAGE.acs1}; there is no ${years[0]} estimate` };
      const fam = productFamily(variable);
      // supplemental estimates (K2… tables) are a 1-year product of their own, for geographies of 65,000+
      const supplemental = /^K2\d/.test(variable);
      const surveys: Array<'acs1' | 'acs5' | 'acsse'> = supplemental ? ['acsse'] : level === 'state' ? ['acs1', 'acs5'] : ['acs5'];
      const out: KeyedBinding[] = [];
      for (const year of years) {
        for (const survey of surveys) {
          // a year named that the survey did not publish is said as such; "latest" passes over it
          if (!published(survey, year) && (period.latest || survey !== 'acs1')) continue;
          out.push(...acsReadings(level, variable, key.value, survey === 'acsse' ? survey : `${survey}${fam}`, year));
        }
      }
      return out.length ? out : { error: `no ACS survey publishes ${level}s for ${years.join(', ')}` };
    },
  };
}

/** The requests that read one variable of one geography from one product and vintage, in the order to try them. */
function acsReadings(level: AcsLevel, variable: string, fips: string, product: string, year: number): KeyedBinding[] {
  const survey = product.split('/')[0]!;
  const reading = survey === 'acsse' ? `ACS 1-year supplemental estimates ${year}` : acsSurveyLabel(survey as 'acs1' | 'acs5', year);
  // the catalog read the variable from one vintage's metadata; its dollars are that vintage's
  const labelFor = (t: string) => dropRepeatedConcept(t.replace(/^[A-Z0-9_]+: /, '').replace(/\b(19|20)\d\d inflation-adjusted/gi, `${year} inflation-adjusted`));
  const common = { measure: recordMeasure(product, year, variable), reading, labelFor, period: { end: `${year}-12-31`, label: reading } };
  if (level === 'state') return [{ operation: 'acs-all-states', fetchArgs: { year: String(year), product, variables: `group(${variable.split('_')[0]})` }, ...common }];
  if (level === 'place') return [{ operation: 'acs-place', fetchArgs: { year: String(year), product, variables: variable, state: fips.slice(0, 2), place: '*' }, ...common }];
  const own: KeyedBinding = { operation: 'acs-county', fetchArgs: { year: String(year), product, variables: variable, state: fips.slice(0, 2), county: '*' }, ...common };
  if (!(COUNTY_BUNDLE as readonly string[]).includes(variable)) return [own];
  return [own, { operation: 'acs-all-counties', fetchArgs: { year: String(year), product, variables: COUNTY_BUNDLE.join(',') }, ...common }];
}


/**
 * Estimates Census publishes in more than one table. A data-profile percent republishes a
 * subject-table estimate: DP03's "percentage of people whose income in the past 12 months is below
 * the poverty level — all people" is S1701's "percent below poverty level" of the population whose
 * poverty status is determined (S1701_C03_001E; MANIFEST §2d: Illinois 2018, 12.1, equal to the
 * B17001 ratio). When the profile of a year cannot be read (not released, no recording), the same
 * estimate is read from the table it republishes, as a further reading of the same survey and
 * year, and the evidence says which table it came from. Only equalities Census documents belong here.
 */
export const SAME_ESTIMATE: Readonly<Record<string, { variable: string; table: string; label: string }>> = {
  DP03_0128PE: { variable: 'S1701_C03_001E', table: 'S1701 (poverty status in the past 12 months)', label: 'Percent below poverty level (population for whom poverty status is determined)' },
  // DP03's "median household income (dollars)" republishes subject table S1901's median income of households (column C01, households)
  DP03_0062E: { variable: 'S1901_C01_012E', table: 'S1901 (income in the past 12 months)', label: 'Median household income (dollars)' },
};

/**
 * The total population is one controlled estimate per geography and vintage, published as the
 * universe total of several tables and profiles (B01003 total population, B01001 sex by age, B02001
 * race, DP05 demographic and housing estimates): a total population asked from one of them may be
 * read from any other of the same survey and vintage, and the evidence says which table it came from.
 */
export const UNIVERSE_TOTAL: readonly string[] = ['B01003_001E', 'B01001_001E', 'B02001_001E', 'DP05_0001E', 'DP05_0033E'];

/** The other variables that publish the estimate a variable publishes, each with its table and label. */
function sameEstimates(variable: string): Array<{ variable: string; table: string; label: string; why: string }> {
  const out: Array<{ variable: string; table: string; label: string; why: string }> = [];
  const republished = SAME_ESTIMATE[variable];
  if (republished) out.push({ ...republished, table: `subject table ${republished.table}`, why: `the estimate the data profile's ${variable} republishes` });
  if (UNIVERSE_TOTAL.includes(variable)) {
    for (const v of UNIVERSE_TOTAL) if (v !== variable) out.push({ variable: v, table: `table ${v.split('_')[0]!}`, label: 'Total population', why: `the same total population estimate as ${variable} (the universe total of each table)` });
  }
  return out;
}

const surveyOf = (b: KeyedBinding) => (b.fetchArgs.product ?? '').split('/')[0]!;

/**
 * A keyed ACS binder whose every reading of an estimate is followed by the same estimate from the
 * other tables that publish it (`sameEstimates`), as further readings of the same survey and vintage.
 */
function withSameEstimates(own: KeyedBinder): KeyedBinder {
  return {
    ...(own.entityType ? { entityType: own.entityType } : {}),
    bind({ measureKey, key, period, declared }) {
      const d = declared;
      const r = own.bind({ measureKey, key, period, ...(d ? { declared: d } : {}) });
      if ('error' in r) return r;
      const variable = acsVariable(measureKey)!;
      const others = sameEstimates(variable).map((same) => {
        const alt = own.bind({ measureKey: `${SOURCE}/${same.variable}`, key, period, ...(d ? { declared: d } : {}) });
        return { same, readings: 'error' in alt ? [] : alt };
      });
      const out: KeyedBinding[] = [];
      const taken = new Set<KeyedBinding>();
      for (const b of r) {
        out.push(b);
        for (const { same, readings } of others) {
          for (const x of readings) {
            if (taken.has(x) || surveyOf(x) !== surveyOf(b) || x.period?.end !== b.period?.end) continue;
            taken.add(x);
            out.push({
              ...x,
              reading: `${b.reading}, table ${same.variable.split('_')[0]}`,
              labelFor: () => same.label,
              note: `read as ${same.variable} of the ${b.reading} ${same.table}, ${same.why}`,
            });
          }
        }
      }
      return out;
    },
  };
}

export const KEYED: Readonly<Record<string, KeyedBinder>> = { 'acs-state': withSameEstimates(acsBinder('state')), 'acs-county': withSameEstimates(acsBinder('county')), 'acs-place': withSameEstimates(acsBinder('place')) };

export const censusAcs: Connector = {
  source: SOURCE,
  readerName: 'the Census Bureau (ACS)',
  publisherName: 'the Census Bureau',
  buildRequest: buildCensusRequest,
  keyedBinders: KEYED,
  sentinels: CENSUS_SENTINEL_VALUES,
  operations: {
    'acs-state': dataOperation('state'),
    'acs-county': dataOperation('county'),
    'acs-place': dataOperation('place'),
    'acs-all-states': dataOperation('all-states'),
    'acs-all-counties': dataOperation('all-counties'),
    'acs-variables': {
      params: [
        { name: 'year', description: 'survey year', required: true, example: '2019' },
        { name: 'product', description: 'acs5, acs1/profile…', required: true, example: 'acs1/profile' },
        { name: 'variable', description: 'keep only ids starting with this', required: false, example: 'DP03_0062' },
      ],
      async run(args, ctx, decl) {
        requireArgs(args, ['year', 'product'], decl.id);
        const raw = await get(decl, args, ctx);
        const vars = (raw.json as { variables?: Record<string, { label: string; concept?: string; predicateType?: string; group?: string; attributes?: string; predicateOnly?: boolean }> }).variables;
        if (!vars) throw new PublisherError('unexpected_shape', 'variables.json lacks "variables"', { method: raw.method, url: raw.url, source: SOURCE });
        const records: EntityRecord[] = [];
        for (const [id, v] of Object.entries(vars)) {
          if (v.predicateOnly || (args.variable && !id.startsWith(args.variable))) continue;
          const label = v.label.replace(/:(?=!!|$)/g, '');
          const u = censusUnit(id, label);
          records.push({
            type: 'entity', source: SOURCE, operation: decl.id, kind: 'variable', label,
            keys: { census_variable: id },
            attributes: { concept: v.concept ?? null, group: v.group ?? null, predicateType: v.predicateType ?? null, unit: u.unit, companions: v.attributes ? v.attributes.split(',') : [] },
            raw: pointer(raw),
          });
        }
        return result(decl.id, records, raw, []);
      },
    },
  },
};
