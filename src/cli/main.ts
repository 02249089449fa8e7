/**
 * The `assay` command line. Each command lives in its own file under src/cli/commands/;
 * this module only wires them into commander and turns errors into a message and an exit
 * code (never a stack trace for bad input).
 */
import { Command, CommanderError, Option } from 'commander';
import { UserError } from './errors.ts';

type Register = (cli: Command) => void;

/**
 * Every command, by name, with the one line `assay --help` lists and how to load it. A command's
 * module (and everything it imports: the store, the catalog, the engines) is imported only when
 * that command runs or its own help is asked for, so `assay --help` or `assay understand` never
 * pays for what `assay serve` needs. `summary` must equal the command's own description (a test
 * checks it).
 */
const COMMANDS: ReadonlyArray<{ name: string; summary: string; load: () => Promise<Register> }> = [
  { name: 'serve', summary: 'start the gateway (SPARQL endpoint, VoID, DCAT catalog, shapes) on the offline default', load: async () => registerServe },
  { name: 'sparql', summary: 'run a SPARQL query against the local store, or against any endpoint with --endpoint', load: async () => registerSparql },
  { name: 'load', summary: 'load an RDF file into the store (N-Quads and TriG keep their graph names)', load: async () => registerLoad },
  { name: 'introspect', summary: 'describe a graph: schema card, VoID, SHACL shapes, JSON, schema diff or facets', load: async () => (await import('./commands/introspect.ts')).registerIntrospect },
  { name: 'catalog', summary: 'validate and summarise the publisher catalog; --format prints its DCAT view as RDF', load: async () => (await import('./commands/describe.ts')).registerDescribe },
  { name: 'void', summary: 'print the VoID description of the local store (figures computed from its contents)', load: async () => (await import('./commands/describe.ts')).registerDescribe },
  { name: 'validate', summary: 'validate descriptor files (ARD schema, Assay extension fields, SHACL); lists every problem', load: async () => (await import('./commands/describe.ts')).registerDescribe },
  { name: 'fetch', summary: 'run one publisher operation through its connector (offline cassettes by default) and print typed records', load: async () => (await import('./commands/fetch.ts')).registerFetch },
  { name: 'resolve', summary: "list the identity registry's candidates for an entity name, with every identifier known for each", load: async () => (await import('./commands/resolve.ts')).registerResolve },
  { name: 'understand', summary: 'interpret a question into an intent (shape, entity, measure, period, ...) without reading the catalog', load: async () => (await import('./commands/understand.ts')).registerUnderstand },
  { name: 'discover', summary: 'rank the catalog measures and operations that could serve a question (lexical BM25+ prefilter)', load: async () => (await import('./commands/discover.ts')).registerDiscover },
  { name: 'plan', summary: 'decide whether any declared operation can answer a question: exact, composed or infeasible, with reasons', load: async () => (await import('./commands/plan.ts')).registerPlan },
  { name: 'eval', summary: 'measure understanding, discovery, planning or end-to-end asking over the labelled question corpus', load: async () => (await import('./commands/eval.ts')).registerEval },
  { name: 'ask', summary: 'answer a question from publisher data: graded figures, citations from the PROV-O graph, or a clarification or typed refusal', load: async () => (await import('./commands/ask.ts')).registerAsk },
  { name: 'mcp', summary: "serve Assay's MCP tools (ask, resume, sparql, schema_card, list_sources, describe_source, resolve_entity) over stdio", load: async () => (await import('./commands/mcp.ts')).registerMcp },
  { name: 'chat', summary: 'an interactive session: each line is a question, and follow-ups ("and in 2022?") are read against the previous turn', load: async () => (await import('./commands/chat.ts')).registerChat },
  { name: 'nlq', summary: "answer a question over a graph with generated SPARQL (the NL→SPARQL loop; rows are unverified, cited from the graph's provenance)", load: async () => (await import('./commands/nlq.ts')).registerNlq },
  { name: 'grants', summary: 'the grant graph: funder → recipient edges from Form 990 filings, with rollups and coverage', load: async () => (await import('./commands/grants.ts')).registerGrants },
];
export const COMMAND_NAMES: readonly string[] = COMMANDS.map((c) => c.name);

function root(): Command {
  return new Command('assay')
    .description('Assay: a knowledge-graph gateway over public data publishers, served as RDF over SPARQL.')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
}

/**
 * The command line for these arguments: the command they name registered in full (its module
 * imported), every other command as its name and summary only, so the overall help and commander's
 * "did you mean" still know them all.
 */
export async function program(argv: readonly string[] = []): Promise<Command> {
  const cli = root();
  const named = argv[0] === 'help' ? argv[1] : argv.find((a) => !a.startsWith('-'));
  const wanted = COMMANDS.find((c) => c.name === named);
  const registered = new Set<string>();
  if (wanted) {
    (await wanted.load())(cli);
    for (const c of cli.commands) registered.add(c.name());
  }
  for (const c of COMMANDS) if (!registered.has(c.name)) cli.command(c.name).description(c.summary);
  return cli;
}

/** Every command registered in full (for tests and documentation; imports every command module). */
export async function fullProgram(): Promise<Command> {
  const cli = root();
  const loaded = new Set<Register>();
  for (const c of COMMANDS) {
    const register = await c.load();
    if (!loaded.has(register)) { register(cli); loaded.add(register); }
  }
  return cli;
}

const dataOption = () => new Option('--data <dir>', 'data directory holding the store (env ASSAY_DATA_DIR; default ./.assay-data)');
const storeOption = () => new Option('--store <url>', 'keep every graph in this SPARQL 1.1 query endpoint instead of the embedded store (env ASSAY_STORE_URL; also ASSAY_STORE_UPDATE_URL, ASSAY_STORE_GSP_URL, ASSAY_STORE_USER, ASSAY_STORE_PASSWORD)');

function registerServe(cli: Command): void {
  cli.command('serve')
    .description('start the gateway (SPARQL endpoint, VoID, DCAT catalog, shapes) on the offline default')
    .option('--port <n>', 'TCP port (env PORT; default 8080)', parsePort)
    .option('--host <h>', 'interface to listen on (env ASSAY_HOST; default 127.0.0.1, loopback only)')
    .addOption(dataOption())
    .option('--base <iri>', 'base IRI for the IRIs Assay mints (env ASSAY_BASE_IRI; default http://HOST:PORT/)')
    .option('--catalog <dir>', 'directory of publisher descriptors', 'ard-okf')
    .addOption(storeOption())
    .action(async (opts) => (await import('./commands/serve.ts')).serveCommand(opts));
}

function registerSparql(cli: Command): void {
  cli.command('sparql')
    .description('run a SPARQL query against the local store, or against any endpoint with --endpoint')
    .argument('<query>', 'the query text, or @file to read it from a file')
    .option('--endpoint <url>', 'a SPARQL 1.1 endpoint to query instead of the local store')
    .addOption(new Option('--format <f>', 'output format').choices(['table', 'json', 'xml', 'csv', 'tsv', 'turtle', 'ntriples', 'nquads']).default('table'))
    .addOption(dataOption())
    .addOption(storeOption())
    .action(async (query: string, opts) => (await import('./commands/sparql.ts')).sparqlCommand(query, opts));
}

function registerLoad(cli: Command): void {
  cli.command('load')
    .description('load an RDF file into the store (N-Quads and TriG keep their graph names)')
    .argument('<file>', 'RDF file (.ttl, .nt, .nq, .trig, .rdf, .n3)')
    .option('--graph <iri>', 'target graph for triple formats (default: <base>graph/default-load)')
    .option('--format <mediaType>', 'media type, when the file extension does not say')
    .addOption(dataOption())
    .addOption(storeOption())
    .action(async (file: string, opts) => (await import('./commands/load.ts')).loadCommand(file, opts));
}

function parsePort(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UserError(`--port must be an integer from 0 to 65535, not "${v}"`);
  return n;
}

/** Run the CLI; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    const cli = await program(argv);
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
    if (['StoreLockedError', 'StoreCorruptError', 'StoreCapacityError', 'StoreWriteError', 'CatalogValidationError', 'RemoteStoreError', 'StoreConfigError'].includes(err.name) || err.message.startsWith('invalid configuration')) {
      process.stderr.write(`assay: ${err.message}\n`);
      return 1;
    }
    process.stderr.write(`assay: internal error (please report): ${err.stack ?? err.message}\n`);
    return 70;
  }
}
