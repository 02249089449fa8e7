/**
 * Layer 2 of catalog validation: Assay's extension fields, as zod schemas.
 *
 * An ARD entry's `data` object is an OKF v0.2 concept (type, title, description, resource, tags,
 * sources, generated, verified, status, stale_after) plus the fields Assay adds, documented in
 * ard-okf/README.md. Which schema applies is chosen by the entry's ARD `type` (a media type):
 * a source, an access path, or a measure. The ai-catalog JSON Schema (layer 1) says nothing about
 * `data`, so everything Assay relies on is checked here; graph-level rules live in shapes/ (layer 3).
 *
 * The inferred TypeScript types are the in-memory shape of a loaded catalog.
 */
import { z } from 'zod';

export const ENTRY_TYPES = {
  source: 'application/vnd.assay.source+json',
  accessPath: 'application/vnd.assay.access-path+json',
  measure: 'application/vnd.assay.measure+json',
} as const;

export const ACCESS_PATH_KINDS = [
  'keyed_read', 'search', 'records_by_entity', 'ordered_top_n', 'population_scan',
  'server_aggregate', 'period_read', 'join_key', 'edges_forward', 'edges_reverse',
] as const;
export type AccessPathKind = (typeof ACCESS_PATH_KINDS)[number];

/** Local ids (publisher, dataset, service, operation): lower-case, URL- and URN-safe. */
const localId = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'use lower-case letters, digits and hyphens (e.g. "company-facts")');
/** OKF actor convention (§7): `<producer>/<version>`, `human:<id>` or `process:<id>`. */
const actor = z.string().regex(/^(human:[^\s]+|process:[^\s]+|[^\s:/]+\/[^\s]+)$/, 'use the OKF actor convention: "<producer>/<version>", "human:<id>" or "process:<id>"');
const isoDateTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/, 'use an ISO 8601 date-time such as 2026-06-01T00:00:00Z');
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'use a date YYYY-MM-DD');
const httpUrl = z.string().refine((s) => {
  try { const u = new URL(s); return u.protocol === 'https:' || u.protocol === 'http:'; } catch { return false; }
}, 'use an absolute http(s) URL');

const okfSource = z.object({
  id: z.string().optional(),
  resource: z.string().min(1),
  title: z.string().optional(),
  author: z.string().optional(),
  usage_count: z.number().int().nonnegative().optional(),
  last_modified: isoDate.optional(),
}).passthrough();

/** OKF v0.2 frontmatter, shared by every concept. Unknown keys are kept (OKF §4.1). */
const okfConcept = {
  type: z.string().min(1),
  title: z.string().min(1),
  description: z.string().min(1),
  resource: z.string().optional(),
  tags: z.array(z.string()).optional(),
  sources: z.array(okfSource).optional(),
  generated: z.object({ by: actor, at: isoDateTime.optional() }).optional(),
  // OKF §5.2: a bare mapping is a one-element list.
  verified: z.union([
    z.object({ by: actor, at: isoDateTime }),
    z.array(z.object({ by: actor, at: isoDateTime })),
  ]).optional(),
  status: z.enum(['draft', 'stable', 'deprecated']).optional(),
  stale_after: isoDate.optional(),
};

export const rateLimitSchema = z.object({
  requestsPerSecond: z.number().positive().optional(),
  requestsPerDay: z.number().int().positive().optional(),
  note: z.string().optional(),
}).strict();

export const credentialsSchema = z.object({
  /** `required`: no call without it; `optional`: works without it at a lower limit; `none`. */
  mode: z.enum(['required', 'optional', 'none']),
  env: z.string().regex(/^[A-Z][A-Z0-9_]*$/, 'name an environment variable, e.g. CENSUS_API_KEY').optional(),
  note: z.string().optional(),
}).strict().refine((c) => c.mode === 'none' || c.env !== undefined, { message: 'a required or optional credential must name the environment variable that holds it (env)', path: ['env'] });

export const paginationSchema = z.object({
  style: z.enum(['none', 'page', 'offset', 'cursor', 'overflow-files']),
  pageParam: z.string().optional(),
  pageSizeParam: z.string().optional(),
  maxPageSize: z.number().int().positive().optional(),
  /** Hard cap on rows reachable through this operation, if the publisher imposes one. */
  maxRows: z.number().int().positive().optional(),
  note: z.string().optional(),
}).strict();

const linkSchema = z.object({ url: httpUrl, title: z.string().min(1) }).strict();

export const datasetSchema = z.object({
  id: localId,
  title: z.string().min(1),
  description: z.string().min(1),
  keywords: z.array(z.string().min(1)).min(1),
  /** EU data-theme codes (publications.europa.eu authority table), e.g. ECON, GOVE, HEAL. */
  themes: z.array(z.enum(['AGRI', 'ECON', 'EDUC', 'ENER', 'ENVI', 'GOVE', 'HEAL', 'INTR', 'JUST', 'REGI', 'SOCI', 'TECH', 'TRAN'])).min(1),
  landingPage: httpUrl,
  temporal: z.object({ start: isoDate, end: isoDate }).strict(),
  /** Which format the publisher serves (EU file-type code): JSON, CSV, XML. */
  format: z.enum(['JSON', 'CSV', 'XML']),
}).strict();

export const serviceSchema = z.object({
  id: localId,
  title: z.string().min(1),
  description: z.string().min(1),
  endpointURL: httpUrl,
  endpointDescription: httpUrl,
  servesDatasets: z.array(localId),
  rateLimit: rateLimitSchema.optional(),
  credentials: credentialsSchema,
  userAgentRequired: z.boolean().optional(),
}).strict();

export const sourceDataSchema = z.object({
  ...okfConcept,
  publisher: z.object({
    id: localId,
    name: z.string().min(1),
    homepage: httpUrl,
    /** ADMS publisher type code, e.g. NationalAuthority, NonProfitOrganisation. */
    kind: z.enum(['NationalAuthority', 'NonProfitOrganisation', 'Company', 'Academia-ScientificOrganisation', 'StandardisationBody']),
  }).strict(),
  contactPoint: z.object({ name: z.string().min(1), url: httpUrl.optional(), email: z.string().email().optional() }).strict()
    .refine((c) => c.url !== undefined || c.email !== undefined, { message: 'give the contact point a url or an email' }),
  license: z.object({ url: httpUrl, title: z.string().min(1), kind: z.enum(['PublicDomain', 'Attribution', 'ViralEffect-ShareAlike', 'NonCommercialUseOnly', 'NoDerivativeWork', 'RoyaltiesRequired', 'KnownPatentEncumbrance', 'UnknownIPR']) }).strict(),
  accessRights: z.string().min(1),
  landingPage: linkSchema,
  /** The identifier types this publisher keys records by (cik, ein, fips, ticker, name, ...). */
  identifierTypes: z.array(z.string().regex(/^[a-z][a-z0-9_]*$/)).min(1),
  datasets: z.array(datasetSchema).min(1),
  services: z.array(serviceSchema).min(1),
}).passthrough();

export const accessPathDataSchema = z.object({
  ...okfConcept,
  operationId: localId,
  service: localId,
  dataset: localId,
  kind: z.enum(ACCESS_PATH_KINDS),
  method: z.enum(['GET', 'POST']),
  /** RFC 6570 level-1 template: `{name}` placeholders only; must be an absolute http(s) URL. */
  urlTemplate: z.string().min(1),
  parameters: z.array(z.object({
    name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
    description: z.string().min(1),
    identifierType: z.string().optional(),
    required: z.boolean(),
    example: z.string().optional(),
  }).strict()).optional(),
  /** Identifier types the operation is keyed by; [] for operations that take no entity key. */
  accepts: z.array(z.string().regex(/^[a-z][a-z0-9_]*$/)),
  grain: z.string().min(1),
  coverage: z.object({ complete: z.boolean(), of: z.string().min(1), note: z.string().optional() }).strict(),
  pagination: paginationSchema,
  rateLimit: rateLimitSchema.optional(),
  credentials: credentialsSchema.optional(),
  responseFormat: z.string().min(1),
  bodyTemplate: z.string().optional(),
}).passthrough();

export const measureDataSchema = z.object({
  ...okfConcept,
  /** `<group>/<name>`, e.g. `us-gaap/Revenues`, `acs5-2009/B17001_002E`, `IRS990ScheduleI/CashGrantAmt`. */
  measureId: z.string().regex(/^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/, 'use "<group>/<name>" with letters, digits, dot, underscore or hyphen'),
  dataset: localId,
  unit: z.string().min(1),
  valueType: z.enum(['decimal', 'integer', 'percent', 'string', 'boolean', 'date']),
  /** Operation ids (in this publisher) that can return this measure. */
  servedBy: z.array(localId).min(1),
  taxonomy: z.string().optional(),
  /**
   * Other names the publisher (or plain usage it endorses) gives the measure ("national debt" for
   * Treasury's total public debt outstanding): a question in these words asks for this measure,
   * so the label check accepts them beside the publisher's field label (src/execute/unkeyed.ts).
   */
  altLabels: z.array(z.string().min(2)).optional(),
  generatedFrom: z.object({ file: z.string().min(1), origin: z.string().min(1) }).strict().optional(),
}).passthrough();

export type SourceData = z.infer<typeof sourceDataSchema>;
export type AccessPathData = z.infer<typeof accessPathDataSchema>;
export type MeasureData = z.infer<typeof measureDataSchema>;
export type DatasetDecl = z.infer<typeof datasetSchema>;
export type ServiceDecl = z.infer<typeof serviceSchema>;
export type RateLimit = z.infer<typeof rateLimitSchema>;
export type Credentials = z.infer<typeof credentialsSchema>;
export type Pagination = z.infer<typeof paginationSchema>;

/**
 * Checks a URL template: balanced `{name}` placeholders and an absolute http(s) URL once they are
 * filled. Returns a message for each problem (empty when the template is fine).
 */
export function urlTemplateProblems(template: string, declared?: readonly string[]): string[] {
  const problems: string[] = [];
  const stripped = template.replace(/\{[A-Za-z_][A-Za-z0-9_]*\}/g, 'x');
  if (/[{}]/.test(stripped)) problems.push('has unbalanced braces or a placeholder that is not {name} (letters, digits, underscore)');
  try {
    const u = new URL(stripped);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') problems.push(`must use http or https, not ${u.protocol}`);
  } catch {
    problems.push('is not an absolute URL once its placeholders are filled');
  }
  if (declared) {
    for (const m of template.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
      if (!declared.includes(m[1]!)) problems.push(`uses {${m[1]}} but no parameter of that name is declared`);
    }
  }
  return problems;
}
