import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile, readdir, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DurableStore, StoreCorruptError, StoreLockedError, StoreCapacityError } from '../../src/rdf/durable.ts';

const G = 'http://example.org/g';
const nt = (i: number) => `<http://example.org/s${i}> <http://example.org/p> "v${i}" .\n`;

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'assay-durable-'));
}

function acknowledged(store: DurableStore): Set<number> {
  const out = new Set<number>();
  for (const r of store.rdf.select(`SELECT ?s WHERE { GRAPH <${G}> { ?s ?p ?o } }`)) {
    out.add(Number(r.get('s')!.value.replace('http://example.org/s', '')));
  }
  return out;
}

/** Run the writer child until it has acknowledged `acks` writes after `start`, then SIGKILL it. */
function runAndKill(dir: string, start: number, acks: number, compactAfter?: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/rdf/helpers/durable-writer.ts', dir, String(start), String(compactAfter ?? '')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acked: number[] = [];
    let buf = '';
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) !== -1) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith('ack ')) acked.push(Number(line.slice(4)));
        if (acked.length >= acks) child.kill('SIGKILL');
      }
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acked);
      else reject(new Error(`writer exited with ${code}: ${err}`));
    });
  });
}

async function journalOf(dir: string): Promise<string> {
  return join(dir, (await readdir(dir)).find((f) => f.startsWith('journal-'))!);
}

describe('DurableStore', () => {
  it('keeps every graph across close and reopen', async () => {
    const dir = await tempDir();
    const a = await DurableStore.open(dir);
    await a.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(1) + nt(2) });
    await a.apply({ kind: 'update', sparql: `INSERT DATA { GRAPH <${G}> { <http://example.org/s3> <http://example.org/p> "v3" } }` });
    await a.apply({ kind: 'replaceGraph', graph: 'http://example.org/h', format: 'text/turtle', data: '<http://x/a> <http://x/b> 1 .' });
    await a.close();
    const b = await DurableStore.open(dir);
    expect([...acknowledged(b)].sort()).toEqual([1, 2, 3]);
    expect(b.rdf.graphs()).toEqual([G, 'http://example.org/h']);
    expect(b.recovery.replayed).toBe(3);
    await b.compact();
    await b.close();
    const c = await DurableStore.open(dir);
    expect(c.recovery.replayed).toBe(0);
    expect(c.recovery.snapshotQuads).toBe(4);
    expect(c.rdf.size).toBe(4);
    await c.close();
  });

  it('rejects an invalid write without journaling it', async () => {
    const dir = await tempDir();
    const a = await DurableStore.open(dir);
    await a.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(1) });
    await expect(a.apply({ kind: 'update', sparql: 'INSERT DATA { oops' })).rejects.toThrow();
    await expect(a.apply({ kind: 'replaceGraph', graph: G, format: 'text/turtle', data: '<a> <b' })).rejects.toThrow();
    expect(acknowledged(a)).toEqual(new Set([1]));
    await a.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(2) });
    await a.close();
    const b = await DurableStore.open(dir);
    expect(b.recovery.tornTail).toBeUndefined();
    expect(acknowledged(b)).toEqual(new Set([1, 2]));
    await b.close();
  });

  it('loses no acknowledged write when the writer is SIGKILLed mid-write, round after round', async () => {
    const dir = await tempDir();
    let next = 0;
    const all = new Set<number>();
    for (let round = 0; round < 4; round++) {
      // A small compaction threshold makes some kills land during compaction too.
      const acked = await runAndKill(dir, next, 40 + round * 15, round % 2 === 0 ? 200_000 : undefined);
      for (const i of acked) all.add(i);
      const store = await DurableStore.open(dir);
      const have = acknowledged(store);
      for (const i of all) expect(have.has(i), `acknowledged write ${i} lost in round ${round}`).toBe(true);
      // At most the one in-flight write beyond the acknowledged ones may have landed.
      expect(have.size - all.size).toBeLessThanOrEqual(1);
      for (const i of have) all.add(i);
      next = Math.max(...have) + 1;
      await store.close();
    }
  }, 120_000);

  it('cuts off and reports a torn tail', async () => {
    const dir = await tempDir();
    const a = await DurableStore.open(dir);
    await a.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(1) });
    await a.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(2) });
    await a.close();
    const journal = join(dir, (await readdir(dir)).find((f) => f.startsWith('journal-'))!);
    const bytes = await readFile(journal);
    await writeFile(journal, bytes.subarray(0, bytes.length - 5)); // the second record is torn
    const b = await DurableStore.open(dir);
    expect(b.recovery.tornTail).toMatchObject({ reason: 'incomplete record' });
    expect(acknowledged(b)).toEqual(new Set([1]));
    await b.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(3) });
    await b.close();
    const c = await DurableStore.open(dir);
    expect(c.recovery.tornTail).toBeUndefined();
    expect(acknowledged(c)).toEqual(new Set([1, 3]));
    await c.close();
  });

  it('refuses to start on damage in the middle of the journal', async () => {
    const dir = await tempDir();
    const a = await DurableStore.open(dir);
    for (const i of [1, 2, 3]) await a.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(i) });
    await a.close();
    const journal = join(dir, (await readdir(dir)).find((f) => f.startsWith('journal-'))!);
    const bytes = Buffer.from(await readFile(journal));
    bytes[20] = bytes[20]! ^ 0xff; // flip a payload byte of the first record
    await writeFile(journal, bytes);
    await expect(DurableStore.open(dir)).rejects.toThrow(StoreCorruptError);
    await expect(DurableStore.open(dir)).rejects.toThrow(/damaged but valid records follow/);
  });

  it('refuses to start when the last record is of complete length but fails its checksum (bit rot, not a torn append)', async () => {
    const dir = await tempDir();
    const a = await DurableStore.open(dir);
    for (const i of [1, 2]) await a.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(i) });
    await a.close();
    const journal = await journalOf(dir);
    const bytes = Buffer.from(await readFile(journal));
    bytes[bytes.length - 8] = bytes[bytes.length - 8]! ^ 0x01; // one bit in the last record's payload
    await writeFile(journal, bytes);
    await expect(DurableStore.open(dir)).rejects.toThrow(StoreCorruptError);
    await expect(DurableStore.open(dir)).rejects.toThrow(/last journal record, at byte \d+, is damaged \(a record of complete length fails its checksum\).*acknowledged.*truncate -s \d+/);
  });

  it('refuses to start when the last record\'s length field is damaged though its payload is whole', async () => {
    const dir = await tempDir();
    const a = await DurableStore.open(dir);
    for (const i of [1, 2]) await a.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(i) });
    await a.close();
    const journal = await journalOf(dir);
    const bytes = Buffer.from(await readFile(journal));
    const second = 12 + bytes.readUInt32BE(4);
    bytes.writeUInt32BE(bytes.readUInt32BE(second + 4) + 1000, second + 4);
    await writeFile(journal, bytes);
    await expect(DurableStore.open(dir)).rejects.toThrow(/record length is damaged/);
  });

  it('cuts a legacy record (journaled before it was applied) at the end that cannot be replayed: it was never acknowledged', async () => {
    const dir = await tempDir();
    const a = await DurableStore.open(dir);
    await a.apply({ kind: 'update', sparql: 'INSERT DATA { GRAPH <urn:x:atom> { <urn:a> <urn:b> "1" } }' });
    await a.close();
    // What the old code left when the process died while applying this update.
    const payload = Buffer.from(JSON.stringify({ kind: 'update', sparql: 'CREATE GRAPH <urn:x:atom>' }));
    const header = Buffer.alloc(12);
    header.writeUInt32BE(0x41534a31, 0);
    header.writeUInt32BE(payload.length, 4);
    header.writeUInt32BE(crc32(payload), 8);
    await appendFile(await journalOf(dir), Buffer.concat([header, payload]));
    const b = await DurableStore.open(dir);
    expect(b.recovery.unreplayable).toMatchObject({ kind: 'update' });
    expect(b.rdf.size).toBe(1);
    await b.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(1) });
    await b.close();
    const c = await DurableStore.open(dir);
    expect(c.recovery.unreplayable).toBeUndefined();
    expect(c.rdf.size).toBe(2);
    await c.close();
  });

  it('detects a damaged or truncated snapshot by its checksums and names the file and offset', async () => {
    const dir = await tempDir();
    const a = await DurableStore.open(dir);
    await a.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: Array.from({ length: 50 }, (_, i) => nt(i)).join('') });
    await a.compact();
    await a.close();
    const snapshot = join(dir, (await readdir(dir)).find((f) => f.startsWith('snapshot-'))!);
    const good = Buffer.from(await readFile(snapshot));
    const ok = await DurableStore.open(dir);
    expect(ok.recovery).toMatchObject({ snapshotChecked: true, snapshotQuads: 50 });
    await ok.close();
    // Six bytes overwritten inside an IRI still parse as an IRI: only the checksum can tell.
    const damaged = Buffer.from(good);
    damaged.write('zzzzzz', good.indexOf('example.org') + 2);
    await writeFile(snapshot, damaged);
    await expect(DurableStore.open(dir)).rejects.toThrow(StoreCorruptError);
    await expect(DurableStore.open(dir)).rejects.toThrow(new RegExp(`${snapshot}: bytes 0–${good.length - 1} of the snapshot \\(block 1 of 1\\) fail their checksum`));
    await expect(DurableStore.readReplica(dir)).rejects.toThrow(/fail their checksum/);
    await writeFile(snapshot, good.subarray(0, good.length - 10));
    await expect(DurableStore.open(dir)).rejects.toThrow(/truncated or overwritten/);
    await writeFile(snapshot, good);
    const again = await DurableStore.open(dir);
    expect(again.rdf.size).toBe(50);
    await again.close();
  });

  it('refuses a directory that is not an Assay data directory', async () => {
    const dir = await tempDir();
    await appendFile(join(dir, 'notes.txt'), 'hello');
    await expect(DurableStore.open(dir)).rejects.toThrow(/no MANIFEST.json/);
  });

  it('lets one owner at a time hold a data directory', async () => {
    const dir = await tempDir();
    const a = await DurableStore.open(dir);
    await expect(DurableStore.open(dir)).rejects.toThrow(StoreLockedError);
    await a.close();
    const b = await DurableStore.open(dir);
    await b.close();
  });

  it('refuses a load that would pass the capacity limit, keeping what it holds', async () => {
    const store = DurableStore.inMemory({ maxQuads: 10 });
    await store.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(1) });
    const many = Array.from({ length: 20 }, (_, i) => nt(i + 10)).join('');
    await expect(store.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: many })).rejects.toThrow(StoreCapacityError);
    expect(store.rdf.size).toBe(1);
  });

  it('tells listeners about each acknowledged write, in order', async () => {
    const store = DurableStore.inMemory();
    const seen: string[] = [];
    store.onWrite((op) => seen.push(op.kind));
    await store.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(1) });
    await expect(store.apply({ kind: 'update', sparql: 'nonsense' })).rejects.toThrow();
    await store.apply({ kind: 'clearGraph', graph: G });
    expect(seen).toEqual(['load', 'clearGraph']);
  });

  it("compacts on the journal's growth past a fresh directory's first write, not on that write itself", async () => {
    const files = async (dir: string) => (await readdir(dir)).filter((f) => f.startsWith('snapshot-'));
    const dir = await tempDir();
    const a = await DurableStore.open(dir, { compactAfterBytes: 2_000 });
    // The first write into a fresh directory is its whole state: a snapshot of it would hold the same.
    await a.apply({ kind: 'replaceGraph', format: 'application/n-triples', graph: G, data: Array.from({ length: 100 }, (_, i) => nt(i)).join('') });
    await a.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(100) });
    await a.close();
    expect(await files(dir)).toEqual([]);
    // Reopened, the journal's first record still counts as its base; growth past it compacts.
    const b = await DurableStore.open(dir, { compactAfterBytes: 2_000 });
    for (let i = 101; i < 160; i++) await b.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(i) });
    await b.close();
    expect(await files(dir)).toHaveLength(1);
    const c = await DurableStore.open(dir);
    expect(c.rdf.size).toBe(160);
    await c.close();
  });
});
