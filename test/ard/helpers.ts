// Helpers for catalog tests: a small valid catalog built from the real SEC descriptor, and a way to
// write a mutated copy to a temp dir so each broken case is one edit.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ARD_DIR = new URL('../../ard-okf/', import.meta.url).pathname;

export async function readDescriptor(name: string): Promise<any> {
  return JSON.parse(await readFile(join(ARD_DIR, name), 'utf8'));
}

/** Writes `doc` (after `edit`) to a fresh temp dir as <name> and returns its path. */
export async function writeMutated(name: string, doc: any, edit: (d: any) => void): Promise<string> {
  const copy = structuredClone(doc);
  edit(copy);
  const dir = await mkdtemp(join(tmpdir(), 'assay-ard-'));
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(copy, null, 2));
  return path;
}

export function entryIndex(doc: any, identifier: string): number {
  const i = doc.entries.findIndex((e: any) => e.identifier === identifier);
  if (i < 0) throw new Error(`no entry ${identifier}`);
  return i;
}
