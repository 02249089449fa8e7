/**
 * NIH RePORTER v2 project search: projects by organization name, or by text, with offset paging up
 * to the publisher's declared boundary (offset + limit ≤ 15,000 rows; a larger search must be split).
 *
 * award_amount is US dollars for the project's fiscal_year (the federal fiscal year, Oct–Sep). Names
 * carry stray spaces: trimmed and collapsed. UEIs are the organization keys.
 */
import { PublisherError } from '../http/errors.ts';
import type { RawResponse } from '../http/client.ts';
import type { OperationDecl } from './declarations.ts';
import { readPages } from './paging.ts';
import { pointer, type EntityRecord, type Observation, type OperationResult } from './records.ts';
import { policyFor, requestFor, requireArgs } from './request.ts';
import { ConnectorInputError, type Connector, type ConnectorContext, type RequestBuilder } from './types.ts';
import { needsKey, type RecordBinder } from './binding.ts';

const SOURCE = 'nih-reporter';
const PAGE = 500;

const tidy = (s: unknown) => (typeof s === 'string' ? s.replace(/\s+/g, ' ').trim() : '');

export const buildNihRequest: RequestBuilder = (decl, args) => {
  const offset = Number(args.offset ?? '0');
  if (!Number.isInteger(offset) || offset < 0 || offset > 14_999) throw new ConnectorInputError('--offset must be an integer from 0 to 14999 (RePORTER caps a search at 15,000 rows)');
  if (decl.id === 'projects-by-organization' && args.fiscal_year !== undefined && !/^\d{4}$/.test(args.fiscal_year)) throw new ConnectorInputError(`--fiscal_year is a four-digit federal fiscal year, not "${args.fiscal_year}"`);
  const body = decl.id === 'projects-by-organization'
    ? { org: args.org, fiscal_year: Number(args.fiscal_year ?? 0), offset }
    : { text: args.text, offset };
  const request = requestFor(decl, {}, body);
  // no fiscal year asked: every year RePORTER holds (the criterion is left out, not guessed)
  if (decl.id === 'projects-by-organization' && args.fiscal_year === undefined && request.body) {
    const b = JSON.parse(request.body) as { criteria?: Record<string, unknown> };
    if (b.criteria) delete b.criteria.fiscal_years;
    request.body = JSON.stringify(b);
  }
  return { request, policy: policyFor(decl, 'json') };
};

/** The `results` array of a projects/search response → one project record each (keyed by appl_id). */
export function nihProjectRecords(results: Array<Record<string, unknown>>, raw: RawResponse, operation: string): EntityRecord[] {
  return results.map((p) => {
    const org = (p.organization ?? {}) as Record<string, unknown>;
    const uei = org.primary_uei ? String(org.primary_uei) : ((org.org_ueis as string[] | undefined) ?? [])[0];
    return {
      type: 'entity', source: SOURCE, operation, kind: 'project', label: tidy(p.project_title) || String(p.project_num ?? p.appl_id),
      keys: { name: tidy(org.org_name), ...(uei ? { uei } : {}), ...(p.appl_id != null ? { appl_id: String(p.appl_id) } : {}) },
      attributes: {
        projectNum: (p.project_num as string) ?? null, fiscalYear: typeof p.fiscal_year === 'number' ? p.fiscal_year : null,
        date: p.budget_start ? String(p.budget_start).slice(0, 10) : null, budgetEnd: p.budget_end ? String(p.budget_end).slice(0, 10) : null,
        amount: typeof p.award_amount === 'number' ? p.award_amount : null, contactPi: tidy(p.contact_pi_name) || null,
      },
      raw: pointer(raw),
    } satisfies EntityRecord;
  });
}

/** The `results` array of a projects/search response → award observations. */
export function nihProjects(results: Array<Record<string, unknown>>, raw: RawResponse, operation: string): Observation[] {
  return results.map((p) => {
    const org = (p.organization ?? {}) as Record<string, unknown>;
    const ueis = (org.org_ueis as string[] | undefined) ?? [];
    const amount = typeof p.award_amount === 'number' ? p.award_amount : null;
    return {
      type: 'observation', source: SOURCE, operation, measure: 'project/award_amount', label: tidy(p.project_title),
      value: amount, status: amount === null ? 'missing' : 'reported', unit: 'USD', currency: 'USD', scale: 1,
      period: { ...(p.budget_start ? { start: String(p.budget_start).slice(0, 10) } : {}), ...(p.budget_end ? { end: String(p.budget_end).slice(0, 10) } : {}), instant: false, basis: 'fiscal', ...(typeof p.fiscal_year === 'number' ? { fiscalYear: p.fiscal_year } : {}) },
      entity: { name: tidy(org.org_name), ...(org.primary_uei ? { uei: String(org.primary_uei) } : ueis[0] ? { uei: ueis[0] } : {}) },
      attributes: { projectNum: (p.project_num as string) ?? null, applId: (p.appl_id as number) ?? null, ic: ((p.agency_ic_admin as Record<string, string> | undefined)?.abbreviation) ?? null, state: (org.org_state as string) ?? null, contactPi: tidy(p.contact_pi_name) || null },
      raw: pointer(raw),
    } satisfies Observation;
  });
}

function op(required: string[]) {
  return {
    params: [
      ...required.map((n) => ({ name: n, description: n === 'org' ? 'organization name as RePORTER spells it' : 'search text', required: true })),
      ...(required.includes('org') ? [{ name: 'fiscal_year', description: 'federal fiscal year (default: every year)', required: false }] : []),
      { name: 'pages', description: `maximum pages of ${PAGE} to read (default 1)`, required: false },
    ],
    async run(args: Readonly<Record<string, string>>, ctx: ConnectorContext, decl: OperationDecl): Promise<OperationResult> {
      requireArgs(args, required, decl.id);
      const out = await readPages((n) => { const { request, policy } = buildNihRequest(decl, { ...args, offset: String(n * PAGE) }); return ctx.http.request(request, policy, ctx); }, (raw, n) => {
        const body = raw.json as { meta?: { total?: number }; results?: Array<Record<string, unknown>> };
        if (!Array.isArray(body?.results)) throw new PublisherError('unexpected_shape', 'RePORTER response lacks "results"', { method: raw.method, url: raw.url, source: SOURCE });
        const total = body.meta?.total ?? 0;
        return { records: [...nihProjectRecords(body.results, raw, decl.id), ...nihProjects(body.results, raw, decl.id)], more: (n + 1) * PAGE < total };
      }, { first: 0, maxPages: args.pages ? Number(args.pages) : 1, maxRows: decl.data.pagination.maxRows });
      return { source: SOURCE, operation: decl.id, records: out.records, responses: out.responses.map(pointer), complete: out.complete, notes: out.notes };
    },
  };
}

/** Pages a project list may take (the connector states when more were left). */
export const LIST_PAGES = 10;

const RECORDS: Readonly<Record<string, RecordBinder>> = {
  'projects-by-organization': { takes: ['name'], bind: (k, h) => k.keyType === 'name'
    ? { fetchArgs: { org: k.value, ...(h.year !== undefined ? { fiscal_year: String(h.year) } : {}), pages: String(LIST_PAGES) } }
    : needsKey('projects-by-organization', 'name', k.keyType) },
};

export const nihReporter: Connector = {
  source: SOURCE,
  readerName: 'NIH RePORTER',
  buildRequest: buildNihRequest,
  recordBinders: RECORDS,
  listKinds: { 'projects-by-organization': 'project' },
  operations: { 'projects-by-organization': op(['org']), 'projects-search': op(['text']) },
};
