/**
 * `assay resolve "<name>" [--type T] [--json] [--live]`: the identity registry's candidates for a
 * name, each with every identifier known for it. Offline (the bundled snapshot) by default; --live
 * asks Wikidata through Comunica (needs ASSAY_USER_AGENT with a contact address). The registry
 * never picks among candidates: all of them are printed, ranked by how the name matched.
 */
import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { HttpClient } from '../../http/client.ts';
import { callContext } from '../../http/context.ts';
import { PublisherError } from '../../http/errors.ts';
import type { EntityType } from '../../resolve/bundle.ts';
import { openOfflineRegistry, resolveContext, resolveName } from '../../resolve/registry.ts';
import { wikidataRegistry } from '../../resolve/wikidata.ts';
import { UserError } from '../errors.ts';

const TYPES: readonly EntityType[] = ['company', 'organization', 'person', 'state', 'county', 'place', 'school'];

export function registerResolve(cli: Command): void {
  cli.command('resolve')
    .description('list the identity registry\'s candidates for an entity name, with every identifier known for each')
    .argument('<name>', 'entity name, e.g. "Apple" or "Cook County"')
    .option('--type <t>', `entity type: ${TYPES.join(', ')}`)
    .option('--json', 'print JSON')
    .option('--live', 'ask Wikidata (network) instead of the offline snapshot')
    .option('--limit <n>', 'print at most n candidates (default 20; --json prints all)')
    .action(async (name: string, opts: { type?: string; json?: boolean; live?: boolean; limit?: string }) => resolveCommand(name, opts));
}

async function resolveCommand(name: string, opts: { type?: string; json?: boolean; live?: boolean; limit?: string }): Promise<void> {
  if (opts.type && !TYPES.includes(opts.type as EntityType)) throw new UserError(`--type must be one of ${TYPES.join(', ')}, not "${opts.type}"`);
  const type = opts.type as EntityType | undefined;
  const ctx = callContext({ timeoutMs: 30_000 });
  const registry = opts.live
    ? wikidataRegistry(new HttpClient({ mode: 'live', fetch: globalThis.fetch, userAgent: loadConfig().publishers.userAgent }), ctx)
    : await openOfflineRegistry();
  let candidates;
  try {
    candidates = await resolveName(registry, name, { type }, resolveContext(ctx.signal));
  } catch (e) {
    const pe = e instanceof PublisherError ? e : (e as Error).cause instanceof PublisherError ? (e as Error).cause as PublisherError : undefined;
    if (pe) throw new UserError(`${pe.kind}${pe.kind === 'blocked' ? ` (${pe.code})` : ''}: ${pe.message}`, pe.kind === 'blocked' ? 3 : 1);
    throw e;
  }
  if (opts.json) { process.stdout.write(`${JSON.stringify({ name, type: type ?? null, registry: registry.kind, candidates }, null, 2)}\n`); return; }
  if (candidates.length === 0) {
    process.stdout.write(`no candidates for "${name}"${type ? ` of type ${type}` : ''} in the ${registry.kind === 'wikidata' ? 'Wikidata' : 'offline snapshot'} registry\n`);
    return;
  }
  const limit = opts.limit ? Number(opts.limit) : 20;
  process.stdout.write(`${candidates.length} candidate${candidates.length === 1 ? '' : 's'} for "${name}" (${registry.kind}); the registry does not choose:\n`);
  for (const c of candidates.slice(0, limit)) {
    const ids = Object.entries(c.identifiers).map(([k, v]) => `${k}=${v!.join('|')}`).join(' ');
    process.stdout.write(`  ${c.label}  [${c.types.join(', ')}; ${c.match} match]  ${ids}\n`);
  }
  if (candidates.length > limit) process.stdout.write(`  … ${candidates.length - limit} more (--limit, or --json for all)\n`);
}
