/**
 * A child process for test/rdf/durable-images.test.ts: memory images need an oxigraph instance
 * nothing has used yet, which a test worker (shared by every test file) never has.
 *   image-store.ts DATA_DIR IMAGE_DIR STEPS_JSON
 * Opens DATA_DIR with images kept in IMAGE_DIR (every store size saved), applies each step
 * ({load: N-Triples, graph} or {replace: N-Triples, graph}), closes (which saves an image), and
 * prints one JSON line: what became of images at open and at the first write, the quads, and a
 * canonical dump of the store.
 */
import { DurableStore, type WriteOp } from '../../../src/rdf/durable.ts';
import { ImageCache } from '../../../src/rdf/image-file.ts';
import { RDF_FORMATS } from '../../../src/rdf/store.ts';

const [dir, imageDir, stepsJson] = process.argv.slice(2);
const steps = JSON.parse(stepsJson ?? '[]') as ({ load: string; graph: string } | { replace: string; graph: string })[];
const store = await DurableStore.open(dir!, { images: new ImageCache(imageDir!, { minQuads: 0 }) });
const opened = store.recovery.image ?? null;
for (const s of steps) {
  const op: WriteOp = 'load' in s
    ? { kind: 'load', format: RDF_FORMATS.ntriples, graph: s.graph, data: s.load }
    : { kind: 'replaceGraph', format: RDF_FORMATS.ntriples, graph: s.graph, data: s.replace };
  await store.apply(op);
}
const dump = store.rdf.dump({ format: RDF_FORMATS.nquads }).split('\n').filter(Boolean).sort().join('\n');
const quads = store.rdf.size;
await store.close();
process.stdout.write(JSON.stringify({ opened, log: store.imageLog, quads, dump }) + '\n');
