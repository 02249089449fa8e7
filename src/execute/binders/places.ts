/**
 * The newest period the bundled catalog declares, for callers without validated descriptors. Every
 * keyed read — the ACS's vintages, surveys, request forms and documented equalities between tables
 * included — is bound by its connector (src/connectors/<source>.ts).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
export { acsSurveyLabel } from '../../connectors/census-acs.ts';

/**
 * The newest ACS vintage the catalog declares: the latest year any census-acs dataset's `temporal.end`
 * reaches in ard-okf/census-acs.json (the bundled catalog; read once, so the descriptor is the one
 * place that says it). "latest" reads this vintage.
 */
export const ACS_NEWEST_VINTAGE = newestDeclaredYear(new URL('../../../ard-okf/census-acs.json', import.meta.url));

export function newestDeclaredYear(descriptor: URL): number {
  const years: number[] = [];
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) { x.forEach(walk); return; }
    if (!x || typeof x !== 'object') return;
    const t = (x as { temporal?: { end?: unknown } }).temporal;
    if (t && typeof t.end === 'string' && /^\d{4}-/.test(t.end)) years.push(Number(t.end.slice(0, 4)));
    Object.values(x).forEach(walk);
  };
  walk(JSON.parse(readFileSync(descriptor, 'utf8')));
  if (years.length === 0) throw new Error(`${fileURLToPath(descriptor)} declares no dataset temporal end, so the newest ACS vintage ("latest") is unknown: add temporal.end to the census-acs dataset`);
  return Math.max(...years);
}

/** Census's documented equalities between tables live with the connector; re-exported for the population reads. */
export { SAME_ESTIMATE } from '../../connectors/census-acs.ts';
