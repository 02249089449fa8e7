/**
 * `assay catalog`, `assay void`, `assay validate`: the catalog and store descriptions the
 * gateway serves, printed from the command line.
 */
import { Option, type Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { openStore } from '../../rdf/open.ts';
import { RemoteStore } from '../../rdf/remote.ts';
import { remoteFigures } from '../../rdf/remote-figures.ts';
import { RDF_OUTPUT, serializeRdf, type RdfOutputType } from '../../rdf/serialize.ts';
import { computeVoid, renderVoid } from '../../void/compute.ts';
import { catalogDcatQuads, catalogToQuads, formatReport, loadCatalog, validateDescriptorFiles } from '../../ard/index.ts';
import { ACCESS_PATH_KINDS } from '../../ard/index.ts';
import { UserError } from '../errors.ts';

const FORMATS: Record<string, RdfOutputType> = {
  turtle: RDF_OUTPUT.turtle,
  ntriples: RDF_OUTPUT.ntriples,
  nquads: RDF_OUTPUT.nquads,
  jsonld: RDF_OUTPUT.jsonld,
};
export const RDF_FORMAT_NAMES = Object.keys(FORMATS);

export async function catalogCommand(opts: { dir: string; format?: string; full?: boolean; base?: string }): Promise<void> {
  const config = loadConfig({ baseIri: opts.base });
  const catalog = await loadCatalog(opts.dir, { baseIri: config.baseIri });
  if (opts.format) {
    const quads = opts.full ? catalogToQuads(catalog, config.baseIri) : catalogDcatQuads(catalog, config.baseIri);
    process.stdout.write(await serializeRdf(quads, FORMATS[opts.format]!, { dropGraphs: true }));
    return;
  }
  const rows = catalog.publishers.map((p) => {
    const paths = catalog.accessPaths.filter((a) => a.publisherId === p.id);
    const measures = catalog.measures.filter((m) => m.publisherId === p.id).length;
    const kinds = [...new Set(paths.map((a) => a.data.kind))];
    return [p.id, String(paths.length), String(measures), kinds.join(', ')];
  });
  const head = ['source', 'operations', 'measures', 'access-path kinds'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 1 || i === 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd() + '\n';
  process.stdout.write(line(head) + rows.map(line).join(''));
  process.stdout.write(`${catalog.publishers.length} sources, ${catalog.accessPaths.length} operations, ${catalog.measures.length} measures (kinds in the algebra: ${ACCESS_PATH_KINDS.join(', ')})\n`);
}

export async function voidCommand(opts: { data?: string; format: string; base?: string }): Promise<void> {
  const config = loadConfig({ dataDir: opts.data, baseIri: opts.base });
  const store = await openStore(config, { readOnly: true });
  try {
    // A remote store (ASSAY_STORE_URL) computes its figures itself; the embedded one is mined.
    const quads = store instanceof RemoteStore
      ? renderVoid(await remoteFigures(store.http, store.scope), { baseIri: config.baseIri })
      : computeVoid(store.rdf, { baseIri: config.baseIri });
    process.stdout.write(await serializeRdf(quads, FORMATS[opts.format]!, { dropGraphs: true }));
  } finally {
    await store.close();
  }
}

/** Exit code 1 when any file has a problem; every problem is printed. */
export async function validateCommand(files: string[]): Promise<number> {
  if (files.length === 0) throw new UserError('name at least one descriptor file, e.g. `assay validate ard-okf/*.json`');
  const report = await validateDescriptorFiles(files);
  const text = formatReport(report);
  (report.ok ? process.stdout : process.stderr).write(text.endsWith('\n') ? text : text + '\n');
  return report.ok ? 0 : 1;
}

export function registerDescribe(cli: Command): void {
  cli.command('catalog')
    .description('validate and summarise the publisher catalog; --format prints its DCAT view as RDF')
    .option('--dir <dir>', 'catalog directory', 'ard-okf')
    .addOption(new Option('--format <f>', 'print RDF instead of the summary').choices(RDF_FORMAT_NAMES))
    .option('--full', 'with --format: the whole catalog graph (access paths and measures), not only DCAT')
    .option('--base <iri>', 'base IRI for minted IRIs (env ASSAY_BASE_IRI)')
    .action(async (opts) => catalogCommand(opts));

  cli.command('void')
    .description('print the VoID description of the local store (figures computed from its contents)')
    .addOption(new Option('--format <f>', 'RDF syntax').choices(RDF_FORMAT_NAMES).default('turtle'))
    .option('--data <dir>', 'data directory holding the store (env ASSAY_DATA_DIR; default ./.assay-data)')
    .option('--base <iri>', 'base IRI for minted IRIs (env ASSAY_BASE_IRI)')
    .action(async (opts) => voidCommand(opts));

  cli.command('validate')
    .description('validate descriptor files (ARD schema, Assay extension fields, SHACL); lists every problem')
    .argument('<files...>', 'descriptor files, e.g. ard-okf/*.json')
    .action(async (files: string[]) => {
      const code = await validateCommand(files);
      if (code !== 0) throw new UserError('validation failed: the problems are listed above', code);
    });
}
