/**
 * Layer 1 of catalog validation: a descriptor file must be an ARD v0.9 ai-catalog manifest, checked
 * against the vendored upstream JSON Schema (src/ard/schemas/ai-catalog.schema.json, draft 2020-12).
 * The schema is compiled once, on first use.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type { Ajv2020 as Ajv2020Type, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { Problem } from './problems.ts';

// ajv and its formats are required on first use, not imported: loading them costs start-up time.
const require = createRequire(import.meta.url);

/** Compiled once, on first use (a process that reads the catalog from its caches never pays for it); immutable afterwards. */
let compiled: ValidateFunction | undefined;
function validateManifest(json: unknown): { ok: boolean; errors: ErrorObject[] } {
  compiled ??= (() => {
    const schema = JSON.parse(readFileSync(new URL('./schemas/ai-catalog.schema.json', import.meta.url), 'utf8')) as object;
    const { Ajv2020 } = require('ajv/dist/2020.js') as { Ajv2020: new (o: object) => Ajv2020Type };
    const formats = require('ajv-formats') as { default?: unknown };
    const addFormats = (formats.default ?? formats) as (ajv: Ajv2020Type) => Ajv2020Type;
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    return ajv.compile(schema);
  })();
  const ok = compiled(json);
  return { ok, errors: ok ? [] : [...(compiled.errors ?? [])] };
}

/**
 * Manifests already found valid, by SHA-256 of the schema and the manifest's text: a descriptor
 * passes or fails on its bytes alone, so a process that meets the same bytes again (every `assay
 * ask` reads the same hand-written descriptors) skips compiling the schema and validating. Kept in
 * node_modules/.cache/assay; only passes are remembered, so a failure is always reported afresh.
 */
const KNOWN_VALID_FILE = fileURLToPath(new URL('../../node_modules/.cache/assay/ard-manifests-valid.json', import.meta.url));
let knownValid: Set<string> | undefined;
let schemaHash: string | undefined;
function validKey(text: string): string {
  schemaHash ??= createHash('sha256').update(readFileSync(new URL('./schemas/ai-catalog.schema.json', import.meta.url))).digest('hex');
  return createHash('sha256').update(schemaHash).update('\u0000').update(text).digest('hex');
}
function known(): Set<string> {
  if (!knownValid) {
    try { knownValid = new Set(JSON.parse(readFileSync(KNOWN_VALID_FILE, 'utf8')) as string[]); } catch { knownValid = new Set(); }
  }
  return knownValid;
}
function remember(key: string): void {
  const set = known();
  if (set.has(key)) return;
  set.add(key);
  try {
    mkdirSync(dirname(KNOWN_VALID_FILE), { recursive: true });
    const tmp = `${KNOWN_VALID_FILE}.${process.pid}.tmp`;
    // the newest few hundred: enough for every descriptor of a few catalogs
    writeFileSync(tmp, JSON.stringify([...set].slice(-500)));
    renameSync(tmp, KNOWN_VALID_FILE);
  } catch { /* a read-only cache only costs the next process a validation */ }
}

/**
 * Problems of a manifest against the ARD schema (none: valid). `text`, the manifest's bytes as
 * read, lets a manifest already found valid skip validation (see KNOWN_VALID_FILE).
 */
export function validateArdManifest(json: unknown, file: string, text?: string): Problem[] {
  const key = text === undefined ? undefined : validKey(text);
  if (key && known().has(key)) return [];
  const { ok, errors } = validateManifest(json);
  if (ok) { if (key) remember(key); return []; }
  return errors.filter(notNoise).map((e) => ({
    file,
    layer: 'ard-schema' as const,
    path: e.instancePath || '/',
    rule: e.keyword,
    message: `${e.instancePath || 'the manifest'} ${e.message ?? 'is invalid'}${e.keyword === 'additionalProperties' ? `: ${String((e.params as { additionalProperty?: string }).additionalProperty)}` : ''}`,
    fix: fixFor(e),
  }));
}

/** ajv reports the failing branches of a oneOf as well as the oneOf itself; keep the summary. */
function notNoise(e: ErrorObject): boolean {
  return !(e.keyword === 'required' && /\/entries\/\d+$/.test(e.instancePath) && ['url', 'data'].includes(String((e.params as { missingProperty?: string }).missingProperty)))
    && e.keyword !== 'not';
}

function fixFor(e: ErrorObject): string {
  switch (e.keyword) {
    case 'required': return `add the required property ${String((e.params as { missingProperty?: string }).missingProperty)}`;
    case 'pattern': return e.instancePath.endsWith('/identifier') ? 'use a URN of the form urn:air:assay:<publisher>:<kind>:<name> (letters, digits, dot, underscore, hyphen)' : `match the pattern ${String((e.params as { pattern?: string }).pattern)}`;
    case 'enum': return `use one of: ${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'additionalProperties': return 'remove the property: the ai-catalog manifest allows none beyond specVersion, host and entries (put Assay fields inside an entry\'s data)';
    case 'oneOf': return 'give the entry exactly one of data (inline) or url';
    case 'minItems': case 'maxItems': return 'representativeQueries holds 2 to 5 questions';
    case 'type': return `use a value of type ${String((e.params as { type?: string }).type)}`;
    case 'format': return `use a valid ${String((e.params as { format?: string }).format)}`;
    default: return 'see src/ard/schemas/ai-catalog.schema.json';
  }
}
