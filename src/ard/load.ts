/**
 * loadCatalog: the catalog directory (ard-okf/ by default) → a validated, whole Catalog, or a
 * CatalogValidationError listing every problem. Reads `<dir>/*.json` (one descriptor per publisher)
 * and `<dir>/generated/*.measures.json` (generated measure lists merged into their publisher).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CatalogValidationError } from './problems.ts';
import type { Catalog } from './catalog.ts';
import { validateAndBuild, type ValidateOptions } from './validate.ts';

export async function catalogFiles(dir: string): Promise<string[]> {
  const top = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f));
  let generated: string[] = [];
  try {
    generated = (await readdir(join(dir, 'generated'))).filter((f) => f.endsWith('.measures.json')).sort().map((f) => join(dir, 'generated', f));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  return [...top, ...generated];
}

export async function loadCatalog(dir = 'ard-okf', options: ValidateOptions = {}): Promise<Catalog> {
  let files: string[];
  try {
    files = await catalogFiles(dir);
  } catch (e) {
    throw new CatalogValidationError([{ file: dir, layer: 'json', rule: 'readable', message: `cannot list the catalog directory: ${(e as Error).message}`, fix: 'run from the project root or pass the ard-okf directory' }]);
  }
  if (files.length === 0) {
    throw new CatalogValidationError([{ file: dir, layer: 'json', rule: 'non-empty', message: 'the catalog directory holds no descriptor (*.json)', fix: 'add one descriptor per publisher, e.g. ard-okf/sec-edgar.json' }]);
  }
  const { report, catalog } = await validateAndBuild(files, options);
  if (!catalog) throw new CatalogValidationError(report.problems);
  return catalog;
}
