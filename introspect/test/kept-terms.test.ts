/**
 * The spelling rules of introspect/kept.ts against oxigraph itself: every term the keeper takes as
 * written (oddTerm false) must come out of oxigraph's dump exactly as written; a term it sends to
 * the scratch store may or may not. Lexical forms are generated per datatype, canonical-looking
 * and not, including the edges where JavaScript's and Rust's number formatting part.
 */
import { describe, expect, it } from 'vitest';
import * as ox from 'oxigraph';
import { oddTerm } from '../kept.ts';
import { mulberry32 as rng } from '../../src/prng.ts';

const XSD = 'http://www.w3.org/2001/XMLSchema#';

function terms(): string[] {
  const r = rng(5);
  const out: string[] = [];
  const typed = (lex: string, dt: string) => out.push(`"${lex}"^^<${XSD}${dt}>`);
  for (let i = 0; i < 3000; i++) {
    const e = Math.floor(r() * 40) - 12;
    const x = (r() - 0.5) * 10 ** e;
    const digits = 1 + Math.floor(r() * 18);
    for (const v of [String(x), x.toPrecision(digits), x.toFixed(Math.max(0, Math.min(20, -e + 3))), String(Math.round(x))]) {
      typed(v, 'double');
      typed(v, 'decimal');
      typed(v, 'integer');
      typed(v, 'float');
    }
  }
  for (const v of ['0', '-0', '00', '01', '+1', '1.', '.5', '0.5', '-0.5', '-0.0', '5.0', '1e3', '1E3', 'INF', 'NaN', ' 1', '1 ', '123456789012345678901234567890', '0.123456789012345678']) {
    for (const dt of ['integer', 'decimal', 'double', 'boolean', 'int', 'gYear', 'date']) typed(v, dt);
  }
  for (const v of ['true', 'false', 'TRUE', '1', '0', 'yes']) typed(v, 'boolean');
  for (const v of ['2000', '0000', '02000', '-2000', '2000Z', '20']) typed(v, 'gYear');
  for (const v of ['1999-01-01', '1999-02-30', '1999-13-01', '1999-01-01Z', '1999-01-01+00:00', '99-01-01', '1999-1-01']) typed(v, 'date');
  for (const v of ['x', 'é', 'tab\\tx', 'q\\"q', 'a\\\\b', 'nl\\n', 'cr\\r', 'bs\\b', 'ff\\f', '\\u0041', '\\u00e9', '\\U0001F600', '\\u0007', '😀', 'x\u2028y']) {
    out.push(`"${v}"`, `"${v}"@en`, `"${v}"@EN-gb`, `"${v}"^^<http://ex.org/dt>`, `"${v}"^^<${XSD}string>`);
  }
  for (const v of ['http://ex.org/a', 'http://ex.org/caf\u00e9', 'http://ex.org/\\u0041', 'HTTP://EX.ORG/a/./b/../c', 'urn:x:y', 'http://ex.org/a%20b', 'mailto:a@b']) out.push(`<${v}>`);
  return out;
}

describe('the keeper takes a term as written only when oxigraph stores it so', () => {
  it('for every generated term', () => {
    const all = terms();
    const store = new ox.Store();
    const lines = all.map((t, i) => `<urn:t:${i}> <urn:p> ${t} .`).join('\n');
    store.load(lines, { format: 'application/n-triples', lenient: true });
    const out = new Map<number, string>();
    for (const l of store.dump({ format: 'application/n-triples', from_graph_name: ox.defaultGraph() }).split('\n')) {
      const m = /^<urn:t:(\d+)> <urn:p> ([^]*) \.$/.exec(l);
      if (m) out.set(Number(m[1]), m[2]!);
    }
    let trusted = 0;
    const wrong: string[] = [];
    all.forEach((t, i) => {
      if (oddTerm(t, 0, t.length)) return;
      trusted++;
      if (out.get(i) !== t) wrong.push(`${t} is stored as ${out.get(i)}`);
    });
    expect(wrong).toEqual([]);
    // The rules must take most canonical spellings as written, or every load would go to the scratch store.
    expect(trusted).toBeGreaterThan(all.length / 4);
  });
});
