/**
 * JSON for the on-disk caches (the discovery index, the registry index): written with every
 * character outside ASCII escaped (`\u00e9`), so the file is pure ASCII. Read back, such a file
 * becomes a one-byte string without UTF-8 decoding, and the strings JSON.parse cuts from it stay
 * one-byte: half the memory of a decoded text, which a single non-ASCII character anywhere in tens
 * of MB would otherwise make two-byte throughout. The parsed value is the same as `JSON.stringify`'s.
 */
import { isAscii } from 'node:buffer';

export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A JSON file's text: a pure-ASCII file (asciiJson) read as Latin-1, which is the same text and needs no decoding; anything else as UTF-8. */
export function jsonText(bytes: Buffer): string {
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}
