/**
 * The catalog's declarations of each operation, as the connectors need them: URL template, method,
 * body template, accepted key types, pagination, rate limit, credential rule, User-Agent rule.
 *
 * `OperationDecl` is the subset of the catalog's `AccessPath` (src/ard/catalog.ts) the connectors
 * use, so a loaded `Catalog` can be passed straight in. `readDeclarations` reads the hand-written
 * descriptors (ard-okf/<publisher>.json) directly, without the generated measure lists or the SHACL
 * layer: a connector run must not pay for validating 37 MB of measures. Structural validity of those
 * files is src/ard's job (and its tests).
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AccessPathData, Credentials, RateLimit, ServiceDecl } from '../ard/extension-schema.ts';

export interface OperationDecl {
  publisherId: string;
  id: string;
  data: AccessPathData;
  rateLimit: RateLimit | undefined;
  credentials: Credentials;
  userAgentRequired: boolean;
}

export interface Declarations {
  operation(source: string, operationId: string): OperationDecl | undefined;
  all(): OperationDecl[];
}

export function declarationsFrom(ops: readonly OperationDecl[]): Declarations {
  const byKey = new Map(ops.map((o) => [`${o.publisherId}/${o.id}`, o]));
  return { operation: (s, o) => byKey.get(`${s}/${o}`), all: () => [...ops] };
}

interface Manifest { entries: Array<{ type: string; data?: Record<string, unknown> }> }

/** Reads every `<dir>/*.json` descriptor (not generated/). */
export async function readDeclarations(dir = 'ard-okf'): Promise<Declarations> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  const ops: OperationDecl[] = [];
  for (const f of files) {
    const m = JSON.parse(await readFile(join(dir, f), 'utf8')) as Manifest;
    const source = m.entries.find((e) => e.type === 'application/vnd.assay.source+json')?.data as { publisher: { id: string }; services: ServiceDecl[] } | undefined;
    if (!source) continue;
    const services = new Map(source.services.map((s) => [s.id, s]));
    for (const e of m.entries) {
      if (e.type !== 'application/vnd.assay.access-path+json' || !e.data) continue;
      const data = e.data as unknown as AccessPathData;
      const svc = services.get(data.service);
      ops.push({
        publisherId: source.publisher.id,
        id: data.operationId,
        data,
        rateLimit: data.rateLimit ?? svc?.rateLimit,
        credentials: data.credentials ?? svc?.credentials ?? { mode: 'none' },
        userAgentRequired: svc?.userAgentRequired ?? false,
      });
    }
  }
  return declarationsFrom(ops);
}

/** Fills an RFC 6570 level-1 URL template; every placeholder must have a value. */
export function fillUrl(template: string, args: Readonly<Record<string, string>>): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const v = args[name];
    if (v === undefined) throw new Error(`the URL template ${template} needs a value for {${name}}`);
    return encodeURIComponent(v).replace(/%2C/gi, ',').replace(/%3A/gi, ':').replace(/%2A/g, '*');
  });
}

/** Fills a JSON body template: `"{x}"` becomes a JSON string, bare `{x}` a JSON number/array literal. */
export function fillBody(template: string, args: Readonly<Record<string, unknown>>): string {
  const filled = template.replace(/"\{([A-Za-z_][A-Za-z0-9_]*)\}"|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, quoted: string | undefined, bare: string | undefined) => {
    const name = (quoted ?? bare)!;
    if (!(name in args)) throw new Error(`the body template needs a value for {${name}}`);
    return JSON.stringify(args[name]);
  });
  return JSON.stringify(JSON.parse(filled));
}
