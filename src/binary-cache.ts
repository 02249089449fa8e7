/**
 * A binary file for the on-disk caches every `assay` process reads at start (the discovery index,
 * the registry index): a small ASCII JSON header, named typed arrays, and one text of strings.
 *
 *   "ADIX" or another 4-byte magic · u32 header length · header (ASCII JSON) · the arrays, each at a
 *   multiple of 8 bytes · the text (Latin-1) · the wide text (UTF-16LE)
 *
 * Why not JSON: parsing tens of MB of JSON builds every string and array as a heap object, which
 * the collector then copies; typed arrays in base64 had to be decoded too. Here the arrays are read
 * into one buffer and viewed in place, and the text is decoded once into one string; a string stored
 * in it is a `slice` of that string, which V8 keeps as a reference into it (for 13 characters or
 * more) rather than a copy. A string with a character above U+00FF (an en dash is enough: most of
 * the catalog's descriptions have one) cannot be Latin-1: it goes to the wide text, decoded once
 * into one two-byte string, and its span's offsets have the top bit set. Any damage (short file,
 * wrong magic, an array outside the file) reads as no cache.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { asciiJson, jsonText } from './json-cache.ts';

/** The top bit of a span's offsets: the string is in the wide text. */
const WIDE = 0x80000000;
const KINDS = { u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, i32: Int32Array } as const;
type ArrayKind = keyof typeof KINDS;
export type TableArray = Uint8Array | Uint16Array | Uint32Array | Int32Array;

const kindOf = (a: TableArray): ArrayKind => a instanceof Uint8Array ? 'u8' : a instanceof Uint16Array ? 'u16' : a instanceof Uint32Array ? 'u32' : 'i32';
const align8 = (x: number) => Math.ceil(x / 8) * 8;

/** Collects strings into the two texts; `put` writes a string's span into a Uint32Array (2 slots). */
export class TextWriter {
  private readonly parts: string[] = [];
  private length = 0;
  private readonly wideParts: string[] = [];
  private wideLength = 0;

  put(out: Uint32Array, at: number, v: string): void {
    if (/^[\u0000-\u00ff]*$/.test(v)) {
      out[at] = this.length; this.parts.push(v); this.length += v.length; out[at + 1] = this.length;
    } else {
      out[at] = (WIDE | this.wideLength) >>> 0; this.wideParts.push(v); this.wideLength += v.length; out[at + 1] = (WIDE | this.wideLength) >>> 0;
    }
    if (this.length >= WIDE || this.wideLength >= WIDE) throw new Error('a binary cache text is limited to 2^31 characters');
  }

  spans(values: readonly string[]): Uint32Array {
    const out = new Uint32Array(values.length * 2);
    values.forEach((v, i) => this.put(out, i * 2, v));
    return out;
  }

  text(): string { return this.parts.join(''); }
  wideText(): string { return this.wideParts.join(''); }
}

/** Reads spans back: the string at `spans[at]`, `spans[at + 1]` (a slice of the text, or a wide string). */
export class TextReader {
  constructor(readonly text: string, readonly wide: string) {}
  get(spans: Uint32Array, at: number): string {
    const a = spans[at]!;
    return a >= WIDE ? this.wide.slice(a - WIDE, spans[at + 1]! - WIDE) : this.text.slice(a, spans[at + 1]!);
  }
}

interface Layout { arrays: Record<string, [ArrayKind, number, number]>; arraysAt: number; textAt: number; textBytes: number; wideBytes: number }

/** The file's bytes: `header` (any JSON value's fields), the arrays by name, and the text the spans point into. */
export function encodeBinaryCache(magic: string, header: Record<string, unknown>, arrays: Record<string, TableArray>, text: TextWriter): Buffer {
  if (Buffer.byteLength(magic, 'latin1') !== 4) throw new Error(`a binary cache magic is 4 bytes, not ${JSON.stringify(magic)}`);
  const layout: Layout = { arrays: {}, arraysAt: 0, textAt: 0, textBytes: 0, wideBytes: 0 };
  let at = 0;
  for (const [name, a] of Object.entries(arrays)) { layout.arrays[name] = [kindOf(a), at, a.length]; at = align8(at + a.byteLength); }
  const textBuffer = Buffer.from(text.text(), 'latin1');
  const wideBuffer = Buffer.from(text.wideText(), 'utf16le'); // code unit for code unit, lone surrogates included
  layout.textBytes = textBuffer.byteLength;
  layout.wideBytes = wideBuffer.byteLength;
  // the header states offsets that depend on its own length: placeholders of the widest value first
  const json = () => Buffer.from(asciiJson({ ...header, $layout: layout }), 'latin1');
  layout.arraysAt = layout.textAt = 1e12;
  const headerBytes = json().byteLength;
  layout.arraysAt = align8(8 + headerBytes);
  layout.textAt = layout.arraysAt + at;
  const out = Buffer.alloc(layout.textAt + textBuffer.byteLength + wideBuffer.byteLength);
  out.write(magic, 0, 'latin1');
  out.writeUInt32LE(headerBytes, 4);
  out.fill(0x20, 8, 8 + headerBytes); // JSON allows the trailing spaces the shorter offsets leave
  json().copy(out, 8);
  for (const [name, a] of Object.entries(arrays)) Buffer.from(a.buffer, a.byteOffset, a.byteLength).copy(out, layout.arraysAt + layout.arrays[name]![1]);
  textBuffer.copy(out, layout.textAt);
  wideBuffer.copy(out, layout.textAt + textBuffer.byteLength);
  return out;
}

async function readFully(fh: FileHandle, into: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < into.byteLength;) {
    const { bytesRead } = await fh.read(into, done, into.byteLength - done, position + done);
    if (bytesRead === 0) throw new Error('the cache file ends early');
    done += bytesRead;
  }
}

export interface BinaryCache<H> { header: H; array(name: string): TableArray; text: TextReader }

/**
 * Reads a file `encodeBinaryCache` wrote, or undefined when there is none, it is damaged, or
 * `accept` turns its header down (checked before the arrays and text are read).
 */
export async function readBinaryCache<H>(file: string, magic: string, accept: (header: H) => boolean): Promise<BinaryCache<H> | undefined> {
  let fh: FileHandle;
  try { fh = await open(file, 'r'); } catch { return undefined; }
  try {
    const start = Buffer.alloc(8);
    await readFully(fh, start, 0);
    if (start.toString('latin1', 0, 4) !== magic) return undefined;
    const headerBytes = Buffer.alloc(start.readUInt32LE(4));
    await readFully(fh, headerBytes, 8);
    const header = JSON.parse(jsonText(headerBytes)) as H & { $layout: Layout };
    if (!accept(header)) return undefined;
    const layout = header.$layout;
    // the arrays in one buffer of their own (a fresh ArrayBuffer: aligned), viewed in place
    const buffer = new ArrayBuffer(layout.textAt - layout.arraysAt);
    await readFully(fh, new Uint8Array(buffer), layout.arraysAt);
    const arrays = new Map<string, TableArray>();
    for (const [name, [kind, at, length]] of Object.entries(layout.arrays)) {
      const Kind = KINDS[kind];
      if (!Kind || at + length * Kind.BYTES_PER_ELEMENT > buffer.byteLength) return undefined;
      arrays.set(name, new Kind(buffer, at, length));
    }
    const textBuffer = Buffer.allocUnsafe(layout.textBytes); // every byte is read into it
    await readFully(fh, textBuffer, layout.textAt);
    const wideBuffer = Buffer.allocUnsafe(layout.wideBytes);
    await readFully(fh, wideBuffer, layout.textAt + layout.textBytes);
    const text = new TextReader(textBuffer.toString('latin1'), wideBuffer.toString('utf16le'));
    return {
      header,
      array(name) {
        const a = arrays.get(name);
        if (!a) throw new Error(`the cache file ${file} has no array ${name}`);
        return a;
      },
      text,
    };
  } catch {
    return undefined;
  } finally {
    await fh.close().catch(() => undefined);
  }
}
