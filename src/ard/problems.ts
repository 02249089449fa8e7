/**
 * What a failed catalog validation reports: one `Problem` per broken rule, collected across all
 * three layers and all files, never thrown one at a time. `formatReport` is what
 * `assay validate` prints; `CatalogValidationError` is what `loadCatalog` throws.
 */

export type ValidationLayer = 'json' | 'ard-schema' | 'extension' | 'reference' | 'shacl';

export interface Problem {
  /** The descriptor file the problem is in (as given, or relative to the catalog directory). */
  file: string;
  layer: ValidationLayer;
  /** JSON pointer into the file (layers json..reference) — e.g. `/entries/3/data/kind`. */
  path?: string;
  /** Focus node IRI (SHACL layer). */
  focusNode?: string;
  /** Which rule failed, e.g. the JSON Schema keyword, zod issue code, or SHACL constraint component. */
  rule: string;
  /** What is wrong. */
  message: string;
  /** What to do about it. */
  fix: string;
}

export interface ValidationReport {
  ok: boolean;
  files: string[];
  problems: Problem[];
  /** Counts of what was validated, for the summary line (triples: the graph SHACL checked). */
  counts: { publishers: number; accessPaths: number; measures: number; triples: number };
}

export class CatalogValidationError extends Error {
  readonly problems: readonly Problem[];
  constructor(problems: readonly Problem[]) {
    super(`the catalog was not loaded: ${problems.length} problem(s) in ${new Set(problems.map((p) => p.file)).size} file(s)\n${formatProblems(problems)}`);
    this.name = 'CatalogValidationError';
    this.problems = problems;
  }
}

export function formatProblems(problems: readonly Problem[]): string {
  return problems.map((p) => {
    const where = p.path !== undefined ? p.path : p.focusNode !== undefined ? `<${p.focusNode}>` : '';
    return `${p.file}${where ? ` ${where}` : ''}\n  [${p.layer}/${p.rule}] ${p.message}\n  fix: ${p.fix}`;
  }).join('\n');
}

/** Human-readable report: every problem, then one summary line. */
export function formatReport(report: ValidationReport): string {
  const c = report.counts;
  const summary = `${report.files.length} file(s), ${c.publishers} publisher(s), ${c.accessPaths} access path(s), ${c.measures} measure(s), ${c.triples} triple(s)`;
  if (report.ok) return `ok: ${summary}`;
  return `${formatProblems(report.problems)}\n\nfailed: ${report.problems.length} problem(s) in ${summary}; nothing was loaded`;
}
