/**
 * SEC EDGAR connector: ticker→CIK (company_tickers.json), companyfacts, companyconcept, frames and
 * submissions (with overflow pages).
 *
 * XBRL semantics kept explicit on every observation:
 *  - `fy`/`fp` on a fact name the *filing's* fiscal year and period, not the period's: Apple's FY2024
 *    10-K repeats FY2023 revenue with fy=2024. The period's own fiscal year is taken from the filing
 *    in which it was the current period (its latest end date for that concept) → period.fiscalYear.
 *  - the same period is repeated once per filing that reported it; the value from the latest filing
 *    is `current`, and `restated` says an earlier filing reported a different value.
 *  - `frame` (CY2023, CY2023Q4I) marks the one fact SEC assigned to a calendar period; /frames
 *    returns those, so a frames observation has calendar basis.
 *  - units: USD (currency USD), USD/shares (currency USD per share; spelled USD-per-shares in frames
 *    URLs), shares, pure (unit "1"); custom units pass through. Values are in units (scale 1).
 *  - IFRS filers report under `ifrs-full`; a concept a filer never reported is not found.
 */
import { PublisherError } from '../http/errors.ts';
import type { RawResponse } from '../http/client.ts';
import type { OperationDecl } from './declarations.ts';
import { lazyRecords, pointer, type EntityRecord, type Observation, type OperationResult, type Scalar, type UnreadPage } from './records.ts';
import { policyFor, requestFor, requireArgs } from './request.ts';
import { ConnectorInputError, type Connector, type ConnectorContext, type RequestBuilder } from './types.ts';
import { needsKey, ownMeasure, type CrossCheckBinder, type KeyedBinder, type RecordBinder } from './binding.ts';

const SOURCE = 'sec-edgar';

interface Fact { start?: string; end: string; val: number; accn: string; fy: number | null; fp: string | null; form: string; filed: string; frame?: string }
interface Concept { label: string | null; description: string | null; units: Record<string, Fact[]> }

/** CIK as the 10-digit text SEC uses in URLs; accepts 320193, "320193", "0000320193", "CIK0000320193". */
export function cik10(input: string | number): string {
  const digits = String(input).trim().replace(/^CIK/i, '');
  if (!/^\d{1,10}$/.test(digits)) throw new ConnectorInputError(`a CIK is 1 to 10 digits, not "${input}"`);
  return digits.padStart(10, '0');
}

export function unitOf(u: string): { unit: string; currency?: string } {
  if (u === 'pure') return { unit: '1' };
  const m = /^([A-Z]{3})(?:\/shares)?$/.exec(u);
  return m ? { unit: u, currency: m[1] } : { unit: u };
}

/** The request each operation sends (also used by the cassette builder). */
export const buildSecRequest: RequestBuilder = (decl, args) => {
  const a: Record<string, string> = { ...args };
  if (a.cik !== undefined) a.cik10 = cik10(a.cik);
  if (decl.id === 'frames' && a.unit) a.unit = a.unit.replace('/', '-per-');
  return { request: requestFor(decl, a), policy: policyFor(decl, 'json') };
};

async function get(decl: OperationDecl, args: Readonly<Record<string, string>>, ctx: ConnectorContext): Promise<RawResponse> {
  const { request, policy } = buildSecRequest(decl, args);
  return ctx.http.request(request, policy, ctx);
}

function shapeError(raw: RawResponse, what: string): PublisherError {
  return new PublisherError('unexpected_shape', `SEC response lacks ${what}`, { method: raw.method, url: raw.url, status: raw.status, source: SOURCE });
}

const DAY = 86_400_000;
const isAnnual = (f: Fact) => f.start !== undefined && Math.abs((Date.parse(f.end) - Date.parse(f.start)) / DAY - 364) <= 10;

/**
 * The filer's fiscal calendar, learned from its own filings: for annual periods that were the current
 * period of a 10-K (fp FY), the offset between `fy` and the calendar year of the period end, by end
 * month. Used to name the fiscal year of an annual period that was only ever reported as a prior-year
 * comparative (marked `fiscalYearInferred`).
 */
export function fiscalCalendar(concepts: Iterable<Concept>): Map<string, number> {
  const votes = new Map<string, Map<number, number>>();
  for (const c of concepts) {
    for (const facts of Object.values(c.units ?? {})) {
      const latestEnd = new Map<string, string>();
      for (const f of facts) if ((latestEnd.get(f.accn) ?? '') < f.end) latestEnd.set(f.accn, f.end);
      for (const f of facts) {
        if (f.fp !== 'FY' || f.fy === null || !isAnnual(f) || latestEnd.get(f.accn) !== f.end) continue;
        const month = f.end.slice(5, 7);
        const offset = f.fy - Number(f.end.slice(0, 4));
        const m = votes.get(month) ?? new Map<number, number>();
        m.set(offset, (m.get(offset) ?? 0) + 1);
        votes.set(month, m);
      }
    }
  }
  const out = new Map<string, number>();
  for (const [month, m] of votes) out.set(month, [...m.entries()].sort((a, b) => b[1] - a[1])[0]![0]);
  return out;
}

/** Converts one concept's facts (all units) into observations with fiscal/restatement semantics. */
export function conceptObservations(entity: { cik: string; name?: string }, taxonomy: string, tag: string, concept: Concept, raw: RawResponse, operation: string, filter: { unit?: string; fy?: number; form?: string; calendar?: Map<string, number> } = {}): Observation[] {
  const calendar = filter.calendar ?? fiscalCalendar([concept]);
  const out: Observation[] = [];
  for (const [u, facts] of Object.entries(concept.units ?? {})) {
    if (filter.unit && filter.unit !== u) continue;
    // The period each filing presented as current: its latest end date for this concept and unit.
    const latestEnd = new Map<string, string>();
    for (const f of facts) if ((latestEnd.get(f.accn) ?? '') < f.end) latestEnd.set(f.accn, f.end);
    const fiscalOf = new Map<string, { fy: number; fp: string; filed: string }>();
    for (const f of facts) {
      if (f.fy === null || f.fp === null || latestEnd.get(f.accn) !== f.end) continue;
      const k = `${f.start ?? ''}|${f.end}`;
      const prev = fiscalOf.get(k);
      if (!prev || f.filed < prev.filed) fiscalOf.set(k, { fy: f.fy, fp: f.fp, filed: f.filed });
    }
    // Versions of the same period across filings: the latest filed is current; a period whose
    // versions disagree was restated (each fact is one of its period's versions). Computed once per
    // period, not per fact: a full companyfacts body holds tens of thousands of facts.
    const versions = new Map<string, { count: number; latest: Fact; values: Set<number> }>();
    for (const f of facts) {
      const k = `${f.start ?? ''}|${f.end}`;
      const v = versions.get(k);
      if (!v) { versions.set(k, { count: 1, latest: f, values: new Set([f.val]) }); continue; }
      v.count++;
      v.values.add(f.val);
      if (f.filed > v.latest.filed || (f.filed === v.latest.filed && f.accn > v.latest.accn)) v.latest = f;
    }
    const { unit, currency } = unitOf(u);
    for (const f of facts) {
      if (filter.fy !== undefined && f.fy !== filter.fy) continue;
      if (filter.form && f.form !== filter.form) continue;
      const k = `${f.start ?? ''}|${f.end}`;
      const { count, latest, values } = versions.get(k)!;
      let fiscal: { fy: number; fp: string } | undefined = fiscalOf.get(k);
      let inferred = false;
      if (!fiscal && isAnnual(f) && calendar.has(f.end.slice(5, 7))) {
        fiscal = { fy: Number(f.end.slice(0, 4)) + calendar.get(f.end.slice(5, 7))!, fp: 'FY' };
        inferred = true;
      }
      const attributes: Record<string, Scalar> = {
        accn: f.accn, form: f.form, filed: f.filed, fy: f.fy, fp: f.fp,
        current: f === latest,
        restated: values.size > 1,
        filingsReportingPeriod: count,
        ...(inferred ? { fiscalYearInferred: true } : {}),
      };
      out.push({
        type: 'observation', source: SOURCE, operation,
        measure: `${taxonomy}/${tag}`, label: concept.label ?? undefined,
        value: f.val, status: 'reported', unit, ...(currency ? { currency } : {}), scale: 1,
        period: {
          ...(f.start ? { start: f.start } : {}), end: f.end, instant: !f.start, basis: 'fiscal',
          ...(fiscal ? { fiscalYear: fiscal.fy, fiscalPeriod: fiscal.fp } : {}),
          ...(f.frame ? { frame: f.frame } : {}),
        },
        entity: { cik: entity.cik, ...(entity.name ? { name: entity.name } : {}) },
        attributes,
        raw: pointer(raw),
      });
    }
  }
  return out;
}

function result(operation: string, records: OperationResult['records'], responses: RawResponse[], notes: string[] = [], complete = true, unreadPages: UnreadPage[] = []): OperationResult {
  const derived = responses.filter((r) => r.origin?.derived);
  if (derived.length > 0) notes.push(`replayed from a DERIVED sample (${derived.map((r) => r.origin?.sample).join(', ')}): built from real SEC companyfacts, not a recorded ${operation} response`);
  return { source: SOURCE, operation, records, responses: responses.map(pointer), complete, notes, ...(unreadPages.length ? { unreadPages } : {}) };
}

/** A filer category as SEC spells it ("Large accelerated filer<br>Smaller reporting company") → its parts, lower case. */
export function filerCategoryParts(category: string): string[] {
  return category.split(/<br\s*\/?>/i).map((p) => p.trim().toLowerCase()).filter(Boolean);
}

/** Keyed reads: companyfacts holds every period of every concept (the period is chosen among its records); companyconcept one concept. */
const KEYED: Readonly<Record<string, KeyedBinder>> = {
  companyfacts: { bind: ({ measureKey, key }) => key.keyType === 'cik'
    ? [{ fetchArgs: { cik: key.value }, measure: ownMeasure(measureKey, SOURCE) }]
    : { error: `companyfacts takes a CIK, not a ${key.keyType}` } },
  companyconcept: { bind: ({ measureKey, key }) => {
    const [taxonomy, tag] = ownMeasure(measureKey, SOURCE).split('/');
    if (key.keyType !== 'cik' || !taxonomy || !tag) return { error: 'companyconcept takes a CIK and a taxonomy/tag measure' };
    return [{ fetchArgs: { cik: key.value, taxonomy, tag }, measure: `${taxonomy}/${tag}` }];
  } },
};

const RECORDS: Readonly<Record<string, RecordBinder>> = {
  'submissions-identity': { takes: ['cik'], bind: (k) => k.keyType === 'cik' ? { fetchArgs: { cik: k.value } } : needsKey('submissions-identity', 'CIK', k.keyType) },
  submissions: { takes: ['cik'], bind: (k, h) => k.keyType === 'cik' ? { fetchArgs: { cik: k.value, ...(h.form ? { form: h.form } : {}) } } : needsKey('submissions', 'CIK', k.keyType) },
};

/**
 * The calendar frame SEC assigns a period to: a year (CY2023), a quarter (CY2023Q3) or an instant
 * (CY2023Q4I, the calendar quarter end nearest to it: NVIDIA's 2023-01-29 balance sheet is
 * CY2022Q4I). Undefined for a period SEC frames do not cover (nine months, a half).
 */
export function calendarFrame(period: { start?: string; end?: string }): string | undefined {
  if (!period.end) return undefined;
  const end = Date.parse(period.end);
  if (!period.start) {
    const d = new Date(end);
    const y = d.getUTCFullYear();
    const ends = [-1, 0, 1, 2, 3].map((q) => ({ y: q < 0 ? y - 1 : y, q: q < 0 ? 4 : q + 1, t: Date.UTC(q < 0 ? y - 1 : y, q < 0 ? 12 : (q + 1) * 3, 0) }));
    const near = ends.reduce((a, b) => (Math.abs(b.t - end) < Math.abs(a.t - end) ? b : a));
    return `CY${near.y}Q${near.q}I`;
  }
  const start = Date.parse(period.start);
  const days = (end - start) / 86_400_000;
  const mid = new Date((start + end) / 2);
  if (Math.abs(days - 364) <= 16) return `CY${mid.getUTCFullYear()}`;
  if (Math.abs(days - 91) <= 10) return `CY${mid.getUTCFullYear()}Q${Math.floor(mid.getUTCMonth() / 3) + 1}`;
  return undefined;
}

/** A population scan of one period (every filer) as the second path of an admitted value. */
const CROSS_CHECK: Readonly<Record<string, CrossCheckBinder>> = {
  frames: (e) => {
    const [, taxonomy, tag] = e.measure.split('/');
    const period = calendarFrame(e.period);
    if (!taxonomy || !tag) return { error: `frames take a taxonomy/tag measure, not ${e.measure}` };
    if (!period) return { error: `the period ${e.period.label} is not a calendar frame (year, quarter or instant)` };
    return { fetchArgs: { taxonomy, tag, unit: e.unit === '1' ? 'pure' : e.unit, period }, measure: `${taxonomy}/${tag}` };
  },
};

export const secEdgar: Connector = {
  source: SOURCE,
  readerName: 'SEC EDGAR',
  buildRequest: buildSecRequest,
  keyedBinders: KEYED,
  recordBinders: RECORDS,
  crossCheckBinders: CROSS_CHECK,
  listKinds: { submissions: 'filing' },
  statusFields: { 'submissions-identity': ['category'], submissions: ['category'] },
  operations: {
    'company-tickers': {
      params: [
        { name: 'ticker', description: 'keep only this ticker (case-insensitive)', required: false, example: 'AAPL' },
        { name: 'cik', description: 'keep only this CIK', required: false },
        { name: 'name', description: 'keep names containing this text (case-insensitive)', required: false },
      ],
      async run(args, ctx, decl) {
        const raw = await get(decl, {}, ctx);
        const rows = raw.json as Record<string, { cik_str: number; ticker: string; title: string }>;
        if (!rows || typeof rows !== 'object') throw shapeError(raw, 'the ticker table');
        const wantCik = args.cik ? cik10(args.cik) : undefined;
        const records: EntityRecord[] = [];
        for (const row of Object.values(rows)) {
          const cik = cik10(row.cik_str);
          if (args.ticker && row.ticker.toUpperCase() !== args.ticker.toUpperCase()) continue;
          if (wantCik && cik !== wantCik) continue;
          if (args.name && !row.title.toLowerCase().includes(args.name.toLowerCase())) continue;
          records.push({ type: 'entity', source: SOURCE, operation: decl.id, kind: 'company', label: row.title, keys: { cik, ticker: row.ticker, name: row.title }, attributes: {}, raw: pointer(raw) });
        }
        return result(decl.id, records, [raw]);
      },
    },

    companyfacts: {
      params: [
        { name: 'cik', description: 'the company CIK', required: true, example: '320193' },
        { name: 'taxonomy', description: 'us-gaap, ifrs-full, dei, srt…', required: false },
        { name: 'concept', description: 'one concept (tag), e.g. Revenues', required: false },
        { name: 'unit', description: 'USD, shares, USD/shares…', required: false },
        { name: 'fy', description: "the filing's fiscal year", required: false },
        { name: 'form', description: '10-K, 10-Q…', required: false },
      ],
      async run(args, ctx, decl) {
        requireArgs(args, ['cik'], 'companyfacts');
        const raw = await get(decl, args, ctx);
        const body = raw.json as { cik: number | string; entityName: string; facts: Record<string, Record<string, Concept>> };
        if (!body?.facts) throw shapeError(raw, '"facts"');
        const entity = { cik: cik10(body.cik), name: body.entityName };
        // The concepts asked for, in the response's order. Their observations are made when read
        // (lazyRecords): a question reads a few of a filer's thousands of concepts.
        const selected = new Map<string, { taxonomy: string; tag: string; concept: Concept }>();
        for (const [taxonomy, concepts] of Object.entries(body.facts)) {
          if (args.taxonomy && taxonomy !== args.taxonomy) continue;
          for (const [tag, concept] of Object.entries(concepts)) {
            if (args.concept && tag !== args.concept) continue;
            selected.set(`${taxonomy}/${tag}`, { taxonomy, tag, concept });
          }
        }
        if (args.concept && selected.size === 0) {
          const taxonomies = Object.keys(body.facts).join(', ');
          throw new PublisherError('not_found', `${entity.name} (CIK ${entity.cik}) never reported ${args.taxonomy ?? '(any taxonomy)'}/${args.concept}; it files under ${taxonomies}`, { method: raw.method, url: raw.url, status: raw.status, source: SOURCE });
        }
        // the filer's fiscal calendar is learned from every concept it reported, whichever are read
        let calendar: Map<string, number> | undefined;
        const made = new Map<string, Observation[]>();
        const ofMeasure = (measure: string): Observation[] => {
          let obs = made.get(measure);
          if (!obs) {
            const c = selected.get(measure);
            calendar ??= fiscalCalendar(Object.values(body.facts).flatMap((t) => Object.values(t)));
            obs = c ? conceptObservations(entity, c.taxonomy, c.tag, c.concept, raw, decl.id, { unit: args.unit, fy: args.fy ? Number(args.fy) : undefined, form: args.form, calendar }) : [];
            made.set(measure, obs);
          }
          return obs;
        };
        const all = () => [...selected.keys()].flatMap(ofMeasure);
        return lazyRecords(result(decl.id, [], [raw]), all, ofMeasure);
      },
    },

    companyconcept: {
      params: [
        { name: 'cik', description: 'the company CIK', required: true, example: '320193' },
        { name: 'taxonomy', description: 'us-gaap, ifrs-full, dei…', required: true, example: 'us-gaap' },
        { name: 'tag', description: 'the concept', required: true, example: 'Assets' },
        { name: 'fy', description: "the filing's fiscal year", required: false },
        { name: 'form', description: '10-K, 10-Q…', required: false },
      ],
      async run(args, ctx, decl) {
        requireArgs(args, ['cik', 'taxonomy', 'tag'], 'companyconcept');
        const raw = await get(decl, args, ctx);
        const body = raw.json as { cik: number | string; entityName: string; taxonomy: string; tag: string; label: string | null; description: string | null; units: Record<string, Fact[]> };
        if (!body?.units) throw shapeError(raw, '"units"');
        const records = conceptObservations({ cik: cik10(body.cik), name: body.entityName }, body.taxonomy, body.tag, body, raw, decl.id, { fy: args.fy ? Number(args.fy) : undefined, form: args.form });
        return result(decl.id, records, [raw]);
      },
    },

    frames: {
      params: [
        { name: 'taxonomy', description: 'us-gaap, ifrs-full…', required: true, example: 'us-gaap' },
        { name: 'tag', description: 'the concept', required: true, example: 'Revenues' },
        { name: 'unit', description: 'USD, shares, USD/shares', required: true, example: 'USD' },
        { name: 'period', description: 'CY2023 (annual), CY2023Q4 (quarter), CY2023Q4I (instant)', required: true, example: 'CY2023' },
      ],
      async run(args, ctx, decl) {
        requireArgs(args, ['taxonomy', 'tag', 'unit', 'period'], 'frames');
        if (!/^CY\d{4}(Q[1-4]I?)?$/.test(args.period!)) throw new ConnectorInputError(`a frames period is CY2023, CY2023Q4 or CY2023Q4I, not "${args.period}"`);
        const raw = await get(decl, args, ctx);
        const body = raw.json as { taxonomy: string; tag: string; ccp: string; uom: string; label: string; pts: number; data: Array<{ accn: string; cik: number; entityName: string; loc?: string; start?: string; end: string; val: number }> };
        if (!Array.isArray(body?.data)) throw shapeError(raw, '"data"');
        const { unit, currency } = unitOf(body.uom.replace('-per-', '/'));
        const records: Observation[] = body.data.map((d) => ({
          type: 'observation', source: SOURCE, operation: decl.id,
          measure: `${body.taxonomy}/${body.tag}`, label: body.label,
          value: d.val, status: 'reported', unit, ...(currency ? { currency } : {}), scale: 1,
          period: { ...(d.start ? { start: d.start } : {}), end: d.end, instant: !d.start, basis: 'calendar', frame: body.ccp },
          entity: { cik: cik10(d.cik), name: d.entityName },
          attributes: { accn: d.accn, loc: d.loc ?? null },
          raw: pointer(raw),
        }));
        const notes = [`frames return one value per filer for calendar period ${body.ccp} (SEC aligns fiscal periods within about 30 days of it); ${body.pts} filers`];
        return result(decl.id, records, [raw], notes);
      },
    },

    submissions: {
      params: [
        { name: 'cik', description: 'the filer CIK', required: true, example: '320193' },
        { name: 'form', description: 'keep only this form type', required: false },
      ],
      async run(args, ctx, decl) {
        requireArgs(args, ['cik'], 'submissions');
        const raw = await get(decl, args, ctx);
        const body = raw.json as Submissions;
        if (!body?.filings?.recent) throw shapeError(raw, '"filings.recent"');
        const entity = { cik: cik10(body.cik), name: body.name };
        const records: EntityRecord[] = [identity(body, raw, decl.id), ...filings(body.filings.recent, entity, raw, decl.id, args.form)];
        const responses = [raw];
        const notes: string[] = [];
        const unread: UnreadPage[] = [];
        let complete = true;
        for (const file of body.filings.files ?? []) {
          // Overflow pages live beside the main document, same host and path.
          const url = new URL(file.name, raw.url.replace(/\?.*$/, '')).href;
          try {
            const page = await ctx.http.request({ method: 'GET', url }, policyFor(decl, 'json'), ctx);
            responses.push(page);
            records.push(...filings(page.json as Columns, entity, page, decl.id, args.form));
          } catch (e) {
            if (!(e instanceof PublisherError) || e.kind === 'cancelled') throw e;
            complete = false;
            notes.push(`overflow page ${file.name} (${file.filingCount} filings, ${file.filingFrom}…${file.filingTo}) not read: ${e.message}`);
            unread.push({ name: file.name, records: file.filingCount, from: file.filingFrom, to: file.filingTo });
          }
        }
        return result(decl.id, records, responses, notes, complete, unread);
      },
    },

    'submissions-identity': {
      params: [{ name: 'cik', description: 'the filer CIK', required: true, example: '320193' }],
      async run(args, ctx, decl) {
        requireArgs(args, ['cik'], 'submissions-identity');
        const raw = await get(decl, args, ctx);
        const body = raw.json as Submissions;
        if (!body?.cik) throw shapeError(raw, '"cik"');
        return result(decl.id, [identity(body, raw, decl.id)], [raw]);
      },
    },
  },
};

type Columns = Record<string, Array<string | number>>;
interface Submissions {
  cik: string; name: string; entityType: string; sic: string; sicDescription: string; ein: string | null; lei: string | null;
  tickers: string[]; exchanges: string[]; fiscalYearEnd: string; stateOfIncorporation: string; category: string;
  formerNames?: Array<{ name: string; from: string; to: string }>;
  filings: { recent: Columns; files?: Array<{ name: string; filingCount: number; filingFrom: string; filingTo: string }> };
}

function identity(b: Submissions, raw: RawResponse, operation: string): EntityRecord {
  const keys: EntityRecord['keys'] = { cik: cik10(b.cik), name: b.name };
  if (b.ein && /^\d{9}$/.test(b.ein)) keys.ein = b.ein;
  if (b.lei) keys.lei = b.lei;
  if (b.tickers?.[0]) keys.ticker = b.tickers[0];
  return {
    type: 'entity', source: SOURCE, operation, kind: b.entityType === 'operating' ? 'company' : `filer:${b.entityType}`, label: b.name, keys,
    attributes: {
      tickers: b.tickers ?? [], exchanges: b.exchanges ?? [], sic: b.sic || null, sicDescription: b.sicDescription || null,
      fiscalYearEnd: b.fiscalYearEnd || null, stateOfIncorporation: b.stateOfIncorporation || null, category: b.category || null,
      formerNames: (b.formerNames ?? []).map((f) => f.name),
    },
    raw: pointer(raw),
  };
}

/** The columnar `filings.recent` (parallel arrays; "" = missing) → one record per filing. */
function filings(cols: Columns, entity: { cik: string; name: string }, raw: RawResponse, operation: string, form?: string): EntityRecord[] {
  const acc = cols.accessionNumber ?? [];
  const out: EntityRecord[] = [];
  for (let i = 0; i < acc.length; i++) {
    const at = (k: string): Scalar => { const v = cols[k]?.[i]; return v === undefined || v === '' ? null : v; };
    if (form && at('form') !== form) continue;
    out.push({
      type: 'entity', source: SOURCE, operation, kind: 'filing', label: `${at('form')} filed ${at('filingDate')}`,
      keys: { accession_number: String(acc[i]), cik: entity.cik, name: entity.name },
      attributes: { form: at('form'), filingDate: at('filingDate'), reportDate: at('reportDate'), primaryDocument: at('primaryDocument'), isXBRL: at('isXBRL') === 1, items: at('items') },
      raw: pointer(raw),
    });
  }
  return out;
}
