/**
 * `assay fetch --list` and `assay fetch <source> <operation> [--key value …] [--json] [--live|--record]`:
 * the debugging door into one connector operation. Replays cassettes by default (the offline
 * snapshot); `--live` calls the publisher; `--record` calls it and writes a cassette. Prints the
 * typed records, or the typed failure (its kind says which layer failed) with a non-zero exit code.
 */
import type { Command } from 'commander';
import { callContext } from '../../http/context.ts';
import { PublisherError } from '../../http/errors.ts';
import { connectorRuntime } from '../../connectors/runtime.ts';
import { runOperation } from '../../connectors/registry.ts';
import { ConnectorInputError } from '../../connectors/types.ts';
import type { OperationResult, TypedRecord } from '../../connectors/records.ts';
import { UserError } from '../errors.ts';

interface FetchOptions { list?: boolean; json?: boolean; live?: boolean; record?: boolean; timeout?: string; limit?: string }

export function registerFetch(cli: Command): void {
  cli.command('fetch')
    .description('run one publisher operation through its connector (offline cassettes by default) and print typed records')
    .argument('[source]', 'source id, e.g. sec-edgar (see --list)')
    .argument('[operation]', 'operation id, e.g. companyfacts')
    .option('--list', 'list every source and operation, and whether a connector implements it')
    .option('--json', 'print JSON instead of a table')
    .option('--live', 'call the publisher over the network instead of replaying cassettes')
    .option('--record', 'call the publisher and record a cassette under fixtures/publishers/<source>/recorded/')
    .option('--timeout <ms>', 'deadline for the whole operation, milliseconds (default 60000)')
    .option('--limit <n>', 'print at most n records in table form (default 50; --json prints all)')
    .allowUnknownOption()
    .allowExcessArguments()
    .addHelpText('after', '\nOperation arguments are given as --name value, e.g.\n  assay fetch sec-edgar companyfacts --cik 320193 --concept Assets')
    .action(async (source: string | undefined, operation: string | undefined, opts: FetchOptions, cmd: Command) => fetchCommand(source, operation, opts, cmd.args));
}

/** `--key value` pairs among the arguments commander did not recognise. */
export function operationArgs(rest: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (!a.startsWith('--')) continue;
    const eq = a.indexOf('=');
    if (eq > 0) { out[a.slice(2, eq)] = a.slice(eq + 1); continue; }
    const v = rest[i + 1];
    if (v === undefined || v.startsWith('--')) throw new UserError(`${a} needs a value (e.g. ${a} 320193)`);
    out[a.slice(2)] = v;
    i++;
  }
  return out;
}

async function fetchCommand(source: string | undefined, operation: string | undefined, opts: FetchOptions, rest: readonly string[]): Promise<void> {
  if (opts.live && opts.record) throw new UserError('use either --live or --record, not both');
  const rt = await connectorRuntime({ mode: opts.record ? 'record' : opts.live ? 'live' : 'replay' });
  if (opts.list || !source) {
    const rows = rt.declarations.all().map((d) => {
      const impl = rt.registry.get(d.publisherId)?.operations[d.id];
      const params = impl?.params.map((p) => (p.required ? `--${p.name}` : `[--${p.name}]`)).join(' ') ?? '';
      return { source: d.publisherId, operation: d.id, kind: d.data.kind, implemented: !!impl, params, accepts: d.data.accepts };
    });
    if (opts.json) { process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`); return; }
    for (const r of rows) process.stdout.write(`${r.source.padEnd(22)} ${r.operation.padEnd(26)} ${r.kind.padEnd(17)} ${r.implemented ? r.params : '(not implemented yet)'}\n`);
    return;
  }
  if (!operation) throw new UserError(`name an operation of ${source}; see assay fetch --list`);
  const timeoutMs = opts.timeout ? Number(opts.timeout) : 60_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new UserError(`--timeout must be a positive number of milliseconds, not "${opts.timeout}"`);
  const ctl = new AbortController();
  const onSigint = () => ctl.abort(new Error('interrupted'));
  process.once('SIGINT', onSigint);
  let result: OperationResult;
  try {
    result = await runOperation(rt.registry, source, operation, operationArgs(rest), { ...callContext({ signal: ctl.signal, timeoutMs }), http: rt.http, declarations: rt.declarations });
  } catch (e) {
    if (e instanceof ConnectorInputError) throw new UserError(e.message);
    if (e instanceof PublisherError) {
      if (opts.json) process.stdout.write(`${JSON.stringify(e.toJSON(), null, 2)}\n`);
      throw new UserError(`${e.kind}${e.kind === 'blocked' ? ` (${e.code})` : ''}: ${e.message}`, e.kind === 'blocked' ? 3 : 1);
    }
    throw e;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
  if (opts.json) { process.stdout.write(`${JSON.stringify(result, null, 2)}\n`); return; }
  const limit = opts.limit ? Number(opts.limit) : 50;
  process.stdout.write(`${result.source} ${result.operation}: ${result.records.length} records${result.complete ? '' : ' (INCOMPLETE)'}\n`);
  for (const n of result.notes) process.stdout.write(`note: ${n}\n`);
  for (const r of result.responses) process.stdout.write(`from: ${r.method} ${r.url} → ${r.status}${r.cassette ? ` [cassette ${r.cassette}${r.origin?.derived ? ', DERIVED' : ''}${r.origin?.trimmed ? ', TRIMMED' : ''}]` : ''} sha256:${r.sha256.slice(0, 12)}\n`);
  for (const rec of result.records.slice(0, limit)) process.stdout.write(`${line(rec)}\n`);
  if (result.records.length > limit) process.stdout.write(`… ${result.records.length - limit} more (--limit, or --json for all)\n`);
}

function line(r: TypedRecord): string {
  if (r.type === 'entity') {
    const keys = Object.entries(r.keys).filter(([k]) => k !== 'name').map(([k, v]) => `${k}=${v}`).join(' ');
    return `${r.kind.padEnd(10)} ${r.label}  ${keys}`;
  }
  const value = r.value === null ? `(${r.status})` : `${r.value.toLocaleString('en-US', { maximumFractionDigits: 6 })} ${r.unit}`;
  const p = r.period;
  const period = `${p.start ? `${p.start}..` : ''}${p.end ?? ''}${p.fiscalYear ? ` FY${p.fiscalYear}${p.fiscalPeriod && p.fiscalPeriod !== 'FY' ? p.fiscalPeriod : ''}` : ''}${p.frame ? ` ${p.frame}` : ''}${p.label ? ` ${p.label}` : ''}`;
  const series = typeof r.attributes.series === 'string' ? `${r.attributes.series} ` : '';
  const who = series + (r.geography ? `${r.geography.name ?? ''} (${r.geography.level} ${r.geography.fips ?? ''})` : r.entity ? `${r.entity.name ?? ''} ${r.entity.cik ?? r.entity.ein ?? ''}` : '');
  const extra = r.marginOfError != null ? ` ±${r.marginOfError}` : '';
  const flags = r.type === 'observation' && r.attributes.current === false ? ' (superseded)' : '';
  const to = r.counterparty ? ` → ${r.counterparty.name ?? ''}${r.counterparty.ein ? ` ${r.counterparty.ein}` : ''}` : '';
  return `${r.measure}  ${value}${extra}  ${period}  ${who}${to}${flags}`;
}
