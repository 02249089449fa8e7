// Child process for the crash test: writes numbered triples forever and prints
// "ack N" on stdout (synchronously) only after apply() has resolved for N.
import { writeSync } from 'node:fs';
import { DurableStore } from '../../../src/rdf/durable.ts';

const [dir, startArg, compactArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: durable-writer <dir> [start] [compactAfterBytes]');
const store = await DurableStore.open(dir, { compactAfterBytes: compactArg ? Number(compactArg) : undefined });
writeSync(1, `ready ${store.rdf.size}\n`);
for (let i = Number(startArg ?? 0); ; i++) {
  const big = 'x'.repeat(i % 7 === 0 ? 20_000 : 10); // vary record sizes so kills land mid-record
  await store.apply({
    kind: 'load',
    format: 'application/n-triples',
    graph: 'http://example.org/g',
    data: `<http://example.org/s${i}> <http://example.org/p> "${big}${i}" .\n`,
  });
  writeSync(1, `ack ${i}\n`);
}
