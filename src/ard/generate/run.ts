/**
 * Regenerates the measure lists in ard-okf/generated/ from the real metadata in the shared
 * publisher samples. Run from the project root:
 *
 *   npx tsx src/ard/generate/run.ts [--samples ../shared/publisher-samples] [--out ard-okf/generated]
 *
 * Output is deterministic for a given input and --at (default: a fixed date, so regenerating without
 * new input changes nothing); pass --at <ISO datetime> to stamp a real regeneration.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeManifest } from './common.ts';
import { generateSecEdgar } from './sec-edgar.ts';
import { generateCensusAcs } from './census-acs.ts';
import { generateIrs990 } from './irs-990.ts';

const GENERATOR = 'process:assay-generate-measures';

export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { samples: { type: 'string' }, out: { type: 'string' }, at: { type: 'string' } } });
  const samples = resolve(values.samples ?? '../shared/publisher-samples');
  const out = resolve(values.out ?? 'ard-okf/generated');
  const at = values.at ?? '2026-11-30T00:00:00Z';
  const jobs = [
    { file: 'sec-edgar.xbrl.measures.json', name: 'SEC EDGAR XBRL concepts (generated)', run: generateSecEdgar },
    { file: 'census-acs.variables.measures.json', name: 'Census ACS variables (generated)', run: generateCensusAcs },
    { file: 'irs-990-efile.fields.measures.json', name: 'IRS Form 990 e-file fields (generated)', run: generateIrs990 },
  ];
  for (const j of jobs) {
    const entries = await j.run(samples, GENERATOR, at);
    await writeManifest(join(out, j.file), j.name, entries);
    console.log(`${j.file}: ${entries.length} measures`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).catch((e: unknown) => { console.error(e); process.exit(1); });
}
