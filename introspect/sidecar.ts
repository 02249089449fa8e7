/**
 * JSON form and sidecar files: mine once, summarise many times.
 *
 * The sidecar is exactly `toJson`'s output, written beside the dataset as
 * `<dataset>.introspect.json`. Loading checks the format tag and the shape of every field the
 * renderers read, so a truncated or foreign file is a clear `bad-sidecar` error, never a crash
 * deep inside a renderer.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { IntrospectError } from './errors.ts';
import { FORMAT, type Introspection } from './model.ts';

export const SIDECAR_SUFFIX = '.introspect.json';

export const sidecarPathFor = (dataset: string): string => `${dataset}${SIDECAR_SUFFIX}`;

export function toJson(ix: Introspection): string {
  return `${JSON.stringify(ix, null, 2)}\n`;
}

export function fromJson(text: string, label = 'the JSON'): Introspection {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new IntrospectError('bad-sidecar', `${label} is not a mined introspection result: it is not valid JSON (${(e as Error).message})`);
  }
  const problem = check(value);
  if (problem) throw new IntrospectError('bad-sidecar', `${label} is not a mined introspection result: ${problem}`);
  return value as Introspection;
}

export async function saveSidecar(ix: Introspection, path: string): Promise<void> {
  // Write then rename, so a crash never leaves a half-written sidecar behind.
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, toJson(ix), 'utf8');
  await rename(tmp, path);
}

export async function loadSidecar(path: string): Promise<Introspection> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new IntrospectError('bad-sidecar', `cannot read sidecar ${path}: ${(e as Error).message}`);
  }
  return fromJson(text, `sidecar ${path}`);
}

function check(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'expected a JSON object';
  const o = v as Record<string, unknown>;
  if (o.format !== FORMAT) return `its format is ${JSON.stringify(o.format)}, expected "${FORMAT}"`;
  for (const k of ['triples', 'subjects', 'entities', 'typedSubjects', 'classCount', 'predicateCount', 'subClassEdges']) {
    if (typeof o[k] !== 'number') return `field "${k}" must be a number`;
  }
  for (const k of ['classes', 'predicates', 'focus']) if (!Array.isArray(o[k])) return `field "${k}" must be an array`;
  const arrays: [string, unknown][] = [
    ['characteristicSets.sets', (o.characteristicSets as Record<string, unknown> | undefined)?.sets],
    ['joinHints.hints', (o.joinHints as Record<string, unknown> | undefined)?.hints],
    ['namespaces.namespaces', (o.namespaces as Record<string, unknown> | undefined)?.namespaces],
  ];
  for (const [k, a] of arrays) if (!Array.isArray(a)) return `field "${k}" must be an array`;
  for (const [i, c] of (o.classes as unknown[]).entries()) {
    const r = c as Record<string, unknown>;
    if (typeof r?.iri !== 'string' || typeof r.instances !== 'number' || !Array.isArray(r.predicates)) return `classes[${i}] must have iri, instances and predicates`;
  }
  for (const [i, p] of (o.predicates as unknown[]).entries()) {
    const r = p as Record<string, unknown>;
    if (typeof r?.iri !== 'string' || typeof r.triples !== 'number' || !Array.isArray(r.domain)) return `predicates[${i}] must have iri, triples and domain`;
  }
  return undefined;
}
