/**
 * `assay grants ingest <files…>`: reads Form 990 e-file XML returns, grants extracts and Business
 * Master File extracts (CSV) into the grant graph of the local store, rebuilds its rollups, and
 * prints per file what was added, left unchanged, replaced or skipped and why.
 * `assay grants coverage`: which filings the graph holds.
 * `assay grants ask '<json>'`: a typed grant question (direction + names), for checking the graph
 * without the question pipeline.
 */
import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { openStore } from '../../rdf/open.ts';
import { openOfflineRegistry } from '../../resolve/registry.ts';
import { declareCoverage, ingest, IngestInputError, readIngestFile, type IngestReport } from '../../grants/ingest.ts';
import { embeddedGrantStore } from '../../grants/store.ts';
import { readCoverage, traverse, type GrantQuestion } from '../../grants/traverse.ts';
import { coverageLine, renderFailure, renderResult } from '../../grants/render.ts';
import { grantIris } from '../../grants/vocab.ts';
import { UserError } from '../errors.ts';

interface IngestOpts { data?: string; store?: string; replace?: boolean; declareComplete?: string; json?: boolean; noRegistry?: boolean }

export function registerGrants(cli: Command): void {
  const g = cli.command('grants').description('the grant graph: funder → recipient edges from Form 990 filings, with rollups and coverage');
  g.command('ingest')
    .description('read e-file XML returns and CSV extracts (grants, or BMF for NTEE codes) into the grant graph; re-ingesting a file changes nothing')
    .argument('[files...]', 'e-file XML returns (*_public.xml), grants extract CSVs, BMF extract CSVs; a <file>.provenance.json beside a file says where it came from. None: the graph is brought to this build\'s layout from what it holds, and its rollups rebuilt')
    .option('--data <dir>', 'data directory holding the store (env ASSAY_DATA_DIR; default ./.assay-data)')
    .option('--store <url>', 'the SPARQL 1.1 store holding the graphs instead of the embedded one (env ASSAY_STORE_URL, with ASSAY_STORE_UPDATE_URL, ASSAY_STORE_GSP_URL, ASSAY_STORE_USER, ASSAY_STORE_PASSWORD)')
    .option('--replace', 'let these files\' filings replace the same filings already held from other documents')
    .option('--declare-complete <release>', 'declare that the graph now holds a complete bulk release (named here), making its coverage complete')
    .option('--no-registry', 'do not link EINs to the identity registry')
    .option('--json', 'print the ingest report as JSON')
    .action(async (files: string[], opts: IngestOpts) => ingestCommand(files, opts));
  g.command('coverage')
    .description('the filings the grant graph holds')
    .option('--data <dir>', 'data directory holding the store')
    .option('--store <url>', 'the SPARQL 1.1 store holding the graphs instead of the embedded one (env ASSAY_STORE_URL, with ASSAY_STORE_UPDATE_URL, ASSAY_STORE_GSP_URL, ASSAY_STORE_USER, ASSAY_STORE_PASSWORD)')
    .action(async (opts: { data?: string; store?: string }) => {
      const { store, iris, close } = await open(opts, true);
      try { process.stdout.write(`${coverageLine(await readCoverage({ store, iris }))}\n`); } finally { await close(); }
    });
  g.command('ask')
    .description('answer a typed grant question, e.g. \'{"direction":"reverse","recipient":"Freshwater Future"}\'')
    .argument('<question>', 'JSON: direction forward|reverse|intersection|top_recipients_of|ranking|geographic|cause and its names')
    .option('--data <dir>', 'data directory holding the store')
    .option('--store <url>', 'the SPARQL 1.1 store holding the graphs instead of the embedded one (env ASSAY_STORE_URL, with ASSAY_STORE_UPDATE_URL, ASSAY_STORE_GSP_URL, ASSAY_STORE_USER, ASSAY_STORE_PASSWORD)')
    .option('--json', 'print the typed result')
    .action(async (question: string, opts: { data?: string; store?: string; json?: boolean }) => {
      let q: GrantQuestion;
      try { q = JSON.parse(question) as GrantQuestion; } catch (e) { throw new UserError(`the question must be JSON (${(e as Error).message})`); }
      const { store, iris, close } = await open(opts, true);
      try {
        const r = await traverse({ store, iris, registry: await openOfflineRegistry() }, q);
        if (opts.json) process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
        else process.stdout.write(`${r.ok ? renderResult(r.result) : `Not answered: ${renderFailure(r.failure)}`}\n`);
        if (!r.ok) process.exitCode = 3;
      } finally { await close(); }
    });
}

async function open(opts: { data?: string; store?: string }, readOnly: boolean) {
  const config = loadConfig({ dataDir: opts.data, ...(opts.store ? { store: { url: opts.store } } : {}) });
  const backend = await openStore(config, readOnly ? { readOnly: true } : {});
  return { store: embeddedGrantStore(backend), iris: grantIris(config.baseIri), close: () => backend.close() };
}

async function ingestCommand(files: string[], opts: IngestOpts & { registry?: boolean }): Promise<void> {
  const inputs = [];
  for (const f of files) {
    try { inputs.push(await readIngestFile(f)); } catch (e) {
      if (e instanceof IngestInputError) throw new UserError(e.message);
      throw new UserError(`cannot read ${f}: ${(e as Error).message}. Nothing was ingested.`);
    }
  }
  const { store, iris, close } = await open(opts, false);
  try {
    // With no file, ingest brings a grant graph already held up to this build: with none held there is nothing to do.
    if (inputs.length === 0 && !opts.declareComplete && (await readCoverage({ store, iris })).filings === 0) {
      throw new UserError('no files named, and this store holds no grant graph to bring up to date: name the Form 990 e-file XML returns (*_public.xml) or the grants extract CSVs to ingest. Nothing was written.');
    }
    const registry = opts.registry === false ? undefined : await openOfflineRegistry();
    const report = await ingest(store, inputs, { iris, ...(registry ? { registry } : {}), ...(opts.replace ? { replace: true } : {}) });
    if (opts.declareComplete) await declareCoverage(store, iris, true, opts.declareComplete);
    if (opts.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else process.stdout.write(summary(report));
    process.stdout.write(`coverage: ${coverageLine(await readCoverage({ store, iris }))}\n`);
    if (report.failed.length > 0) process.exitCode = 1;
  } finally {
    await close();
  }
}

function summary(r: IngestReport): string {
  const lines = r.docs.map((d) => {
    const what = d.kind === 'bmf_extract' ? `${d.ntee} NTEE codes` : `${d.edges} grants from ${d.filings} filing${d.filings === 1 ? '' : 's'}`;
    const held = d.heldElsewhere.length ? `; ${d.heldElsewhere.length} filing(s) already held from another document, not written (use --replace to replace them)` : '';
    const issues = d.issues.length ? `; ${d.issues.length} record(s) not usable: ${d.issues.slice(0, 3).map((i) => i.message).join('; ')}${d.issues.length > 3 ? '; …' : ''}` : '';
    return `${d.outcome.padEnd(9)} ${d.file}: ${d.outcome === 'unchanged' ? 'already held with the same SHA-256; nothing written' : d.outcome === 'upgraded' ? `${what}, written again with the recipient address filed for each grant` : what}${held}${issues}`;
  });
  if (r.upgradedFrom !== undefined) lines.push(`layout: the graph was in layout ${r.upgradedFrom}; upgraded in place to this build's`);
  if (r.upgradePending) lines.push(`layout: the graph is in layout ${r.upgradePending.from} until these files are ingested again (grant questions are refused until then): ${r.upgradePending.files.join(' ')}`);
  lines.push(...r.failed.map((f) => `failed    ${f.file}: ${f.message}`));
  lines.push(`registry: ${r.reconciled.linked} organization(s) linked by EIN${r.reconciled.conflicts.length ? `; ${r.reconciled.conflicts.length} registry entr${r.reconciled.conflicts.length === 1 ? 'y has' : 'ies have'} the same name but another EIN (not merged)` : ''}`);
  lines.push(`graph: ${r.graph.edges} grants, ${r.graph.filings} filings from ${r.graph.funders} funders; ${r.graph.triples} triples + ${r.graph.rollupTriples} rollup triples`);
  return `${lines.join('\n')}\n`;
}
