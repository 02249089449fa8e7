/**
 * The `assay` command line. Each command lives in its own file under src/cli/commands/;
 * this module only wires them into commander and turns errors into a message and an exit
 * code (never a stack trace for bad input).
 */
import { Command, CommanderError, Option } from 'commander';
import { serveCommand } from './commands/serve.ts';
import { sparqlCommand } from './commands/sparql.ts';
import { loadCommand } from './commands/load.ts';
import { registerUnderstand } from './commands/understand.ts';
import { registerDiscover } from './commands/discover.ts';
import { registerPlan } from './commands/plan.ts';
import { registerEval } from './commands/eval.ts';
import { registerDescribe } from './commands/describe.ts';
import { registerIntrospect } from './commands/introspect.ts';
import { registerFetch } from './commands/fetch.ts';
import { registerResolve } from './commands/resolve.ts';
import { registerAsk } from './commands/ask.ts';
import { registerMcp } from './commands/mcp.ts';
import { registerChat } from './commands/chat.ts';
import { registerNlq } from './commands/nlq.ts';
import { registerGrants } from './commands/grants.ts';
import { UserError } from './errors.ts';

export function program(): Command {
  const cli = new Command('assay')
    .description('Assay: a knowledge-graph gateway over public data publishers, served as RDF over SPARQL.')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  const dataOption = () => new Option('--data <dir>', 'data directory holding the store (env ASSAY_DATA_DIR; default ./.assay-data)');
  const storeOption = () => new Option('--store <url>', 'keep every graph in this SPARQL 1.1 query endpoint instead of the embedded store (env ASSAY_STORE_URL; also ASSAY_STORE_UPDATE_URL, ASSAY_STORE_GSP_URL, ASSAY_STORE_USER, ASSAY_STORE_PASSWORD)');

  cli.command('serve')
    .description('start the gateway (SPARQL endpoint, VoID, DCAT catalog, shapes) on the offline default')
    .option('--port <n>', 'TCP port (env PORT; default 8080)', parsePort)
    .option('--host <h>', 'interface to listen on (env ASSAY_HOST; default 127.0.0.1, loopback only)')
    .addOption(dataOption())
    .option('--base <iri>', 'base IRI for the IRIs Assay mints (env ASSAY_BASE_IRI; default http://HOST:PORT/)')
    .option('--catalog <dir>', 'directory of publisher descriptors', 'ard-okf')
    .addOption(storeOption())
    .action(async (opts) => serveCommand(opts));

  cli.command('sparql')
    .description('run a SPARQL query against the local store, or against any endpoint with --endpoint')
    .argument('<query>', 'the query text, or @file to read it from a file')
    .option('--endpoint <url>', 'a SPARQL 1.1 endpoint to query instead of the local store')
    .addOption(new Option('--format <f>', 'output format').choices(['table', 'json', 'xml', 'csv', 'tsv', 'turtle', 'ntriples', 'nquads']).default('table'))
    .addOption(dataOption())
    .addOption(storeOption())
    .action(async (query: string, opts) => sparqlCommand(query, opts));

  cli.command('load')
    .description('load an RDF file into the store (N-Quads and TriG keep their graph names)')
    .argument('<file>', 'RDF file (.ttl, .nt, .nq, .trig, .rdf, .n3)')
    .option('--graph <iri>', 'target graph for triple formats (default: <base>graph/default-load)')
    .option('--format <mediaType>', 'media type, when the file extension does not say')
    .addOption(dataOption())
    .addOption(storeOption())
    .action(async (file: string, opts) => loadCommand(file, opts));

  registerIntrospect(cli);
  registerDescribe(cli);
  registerFetch(cli);
  registerResolve(cli);
  registerUnderstand(cli);
  registerDiscover(cli);
  registerPlan(cli);
  registerEval(cli);
  registerAsk(cli);
  registerMcp(cli);
  registerChat(cli);
  registerNlq(cli);
  registerGrants(cli);
  return cli;
}

function parsePort(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UserError(`--port must be an integer from 0 to 65535, not "${v}"`);
  return n;
}

/** Run the CLI; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const cli = program();
  try {
    await cli.parseAsync(argv, { from: 'user' });
    // Commands that end in a non-error outcome with its own code (e.g. `ask` refused = 3) set
    // process.exitCode; keep it rather than flattening every success to 0.
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      // commander has already printed help or the usage error.
      return e.exitCode;
    }
    if (e instanceof UserError) {
      process.stderr.write(`assay: ${e.message}\n`);
      return e.exitCode;
    }
    const err = e as Error;
    // Known operational failures (store locked, corrupt, capacity, unreachable, invalid config) carry
    // messages written for people; anything else is a bug and keeps its stack.
    if (['StoreLockedError', 'StoreCorruptError', 'StoreCapacityError', 'CatalogValidationError', 'RemoteStoreError', 'StoreConfigError'].includes(err.name) || err.message.startsWith('invalid configuration')) {
      process.stderr.write(`assay: ${err.message}\n`);
      return 1;
    }
    process.stderr.write(`assay: internal error (please report): ${err.stack ?? err.message}\n`);
    return 70;
  }
}
