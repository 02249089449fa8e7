/**
 * A SYNTHETIC grant graph for benchmarks only: no edge in it is a real grant.
 *
 * Marked three ways: every IRI is under `<base>synthetic-grants/`, the graphs are
 * `<base>graph/synthetic-grants` and `…-rollups`, and the graph node carries grants:synthetic true
 * (answers over it disclose `synthetic_graph`). Written in the same model and layout as real
 * ingests (edges with their source records, one filing and its grant lists per funder, funder /
 * recipient / state rollups), so the same queries run on it; every pair is one grant, so there are
 * no pair rollups (an ingest writes none for such pairs either), and the funder–state rollups are
 * not generated (no benchmarked question reads them). Each edge carries its recipient address as
 * an ingest writes it (layout 3: one shared place node per country, state and city); a recipient
 * is filed at one place (its state as before, and a SYNTHETIC city drawn from a pool of one place
 * per four recipients, at most 30,000 — about as many as the US has incorporated places), and its
 * node carries a name, name key and state only, as before layout 3.
 *
 * Degrees are heavy-tailed: recipient k (by rank) has max(1, round(D₁·k^−s)) funders, D₁ the
 * hottest recipient's (71,841 at the reference 7.8 M edges, scaled linearly below it) and s solved
 * so the degrees sum to the edge count; each recipient's funders are drawn without repetition from
 * a Zipf(1) popularity over the funders. Seeded: the same options give the same graph.
 */
import { DCT, PROV, RDF, XSD } from '../rdf/vocab.ts';
import { amountNt, intNt, iriNt, litNt } from './model.ts';
import { G, GRANT_LAYOUT, SDO, grantIris, type GrantIris } from './vocab.ts';
import { mulberry32 as prng } from '../prng.ts';

export const REFERENCE_EDGES = 7_800_000;
export const REFERENCE_HOTTEST = 71_841;

export interface SyntheticOptions {
  edges: number;
  base: string;
  /** Distinct funders (default edges / 31, at least the hottest degree × 1.5). */
  funders?: number;
  /** Distinct recipients (default edges / 5). */
  recipients?: number;
  /** The hottest recipient's funders (default 71,841 scaled to the edge count). */
  hottest?: number;
  seed?: number;
  /** Share of edges approved for future payment instead of paid (default 0.08). */
  futureShare?: number;
}

export interface SyntheticShape {
  edges: number; funders: number; recipients: number; hottest: number; exponent: number;
  /** Rank of a recipient with the median degree, and its degree. */
  typical: { rank: number; degree: number };
  iris: GrantIris;
}

const degree = (d1: number, k: number, s: number) => Math.max(1, Math.round(d1 * Math.pow(k, -s)));

function degreeSum(d1: number, r: number, s: number): number {
  let sum = 0;
  for (let k = 1; k <= r; k++) {
    const d = degree(d1, k, s);
    if (d === 1) return sum + (r - k + 1);
    sum += d;
  }
  return sum;
}

export function syntheticShape(o: SyntheticOptions): SyntheticShape {
  const edges = Math.max(10, Math.trunc(o.edges));
  const hottest = Math.max(2, Math.trunc(o.hottest ?? Math.round(REFERENCE_HOTTEST * Math.min(1, edges / REFERENCE_EDGES))));
  const recipients = Math.trunc(o.recipients ?? Math.max(2, Math.round(edges / 5)));
  const funders = Math.trunc(o.funders ?? Math.max(Math.ceil(hottest * 1.5), Math.round(edges / 31)));
  if (recipients > edges) throw new Error(`${recipients} recipients cannot share ${edges} edges (each has at least one)`);
  // bisection on the exponent: a larger s gives a thinner head and a smaller sum
  let lo = 0.05, hi = 4;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (degreeSum(hottest, recipients, mid) > edges) lo = mid; else hi = mid;
  }
  const exponent = hi;
  // the median recipient: the rank where half the recipients have at least its degree
  const rank = Math.max(1, Math.round(recipients / 2));
  return { edges: degreeSum(hottest, recipients, exponent), funders, recipients, hottest, exponent, typical: { rank, degree: degree(hottest, rank, exponent) }, iris: grantIris(o.base, { synthetic: true }) };
}

export const syntheticFunder = (iris: GrantIris, i: number) => iris.org(`f${i}`);
export const syntheticRecipient = (iris: GrantIris, k: number) => iris.org(`r${k}`);

const STATES = ['AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'PR'];

/**
 * N-Triples chunks (about `chunkLines` lines each) of the edge graph and of the rollup graph, in
 * that order: `{ graph, text }`. Memory stays bounded by the funder tables (a few numbers per funder).
 */
export function* syntheticChunks(o: SyntheticOptions, chunkLines = 200_000): Generator<{ graph: string; text: string }> {
  const shape = syntheticShape(o);
  const { iris, funders, recipients, hottest, exponent } = shape;
  const rand = prng(o.seed ?? 20261201);
  const future = o.futureShare ?? 0.08;
  // Zipf(1) popularity over funders: cumulative weights, sampled by binary search
  const cum = new Float64Array(funders);
  let acc = 0;
  for (let i = 0; i < funders; i++) { acc += 1 / (i + 1); cum[i] = acc; }
  const pick = (): number => {
    const u = rand() * acc;
    let l = 0, h = funders - 1;
    while (l < h) { const m = (l + h) >>> 1; if (cum[m]! < u) l = m + 1; else h = m; }
    return l;
  };
  const total = [new Float64Array(funders), new Float64Array(funders)];
  const count = [new Uint32Array(funders), new Uint32Array(funders)];
  const stateTotal = STATES.map(() => [0, 0]);
  const stateCount = STATES.map(() => [0, 0]);
  const stateOrgs = STATES.map(() => [0, 0]);
  const status = [G.Paid, G.ApprovedForFuturePayment];
  const statusName = ['Paid', 'ApprovedForFuturePayment'];
  let lines: string[] = [];
  const t = (s: string, p: string, obj: string) => lines.push(`<${s}> <${p}> ${obj} .`);
  const flush = function* (graph: string) { if (lines.length) { yield { graph, text: `${lines.join('\n')}\n` }; lines = []; } };
  // one generated filing per funder (tax year 2023, 990-PF) with a grant list per payment status
  const filing = (f: number) => iris.filing(`synthetic-f${f}`, 2023, '990PF');
  const list = (f: number, si: number) => iris.list(filing(f), status[si]!);
  // the graph says it is synthetic, and which layout it is written in; one document stands for "the generator"
  t(iris.graph, RDF.type, iriNt(G.GrantGraph));
  t(iris.graph, G.synthetic, litNt('true', XSD.boolean));
  t(iris.graph, G.coverageComplete, litNt('false', XSD.boolean));
  t(iris.graph, G.layout, intNt(GRANT_LAYOUT));
  const doc = iris.doc('synthetic-generator');
  t(doc, RDF.type, iriNt(G.SourceDocument));
  t(doc, DCT.title, litNt(`SYNTHETIC grant graph: ${shape.edges} generated edges, seed ${o.seed ?? 20261201} (benchmark only; no real grant)`));
  t(doc, G.sha256, litNt('0'.repeat(64)));
  t(doc, G.sourceKind, litNt('synthetic'));
  for (let i = 0; i < funders; i++) {
    const f = syntheticFunder(iris, i);
    t(f, RDF.type, iriNt(SDO.Organization));
    t(f, SDO.name, litNt(`SYNTHETIC FUNDER ${i}`));
    t(f, G.nameKey, litNt(`synthetic funder ${i}`));
    if (lines.length >= chunkLines) yield* flush(iris.graph);
  }
  // the pool of SYNTHETIC cities, spread over the states; each place node written once
  const citiesPerState = Math.ceil(Math.min(30_000, Math.max(STATES.length, Math.ceil(recipients / 4))) / STATES.length);
  const placesWritten = new Set<number>();
  const pairs: string[] = [];
  let edgeNo = 0;
  const seen = new Set<number>();
  for (let k = 1; k <= recipients; k++) {
    const d = Math.min(funders, Math.max(1, Math.round(hottest * Math.pow(k, -exponent))));
    const r = syntheticRecipient(iris, k);
    const st = (k * 7919) % STATES.length;
    t(r, RDF.type, iriNt(SDO.Organization));
    t(r, SDO.name, litNt(`SYNTHETIC RECIPIENT ${k}`));
    t(r, G.nameKey, litNt(`synthetic recipient ${k}`));
    t(r, SDO.addressRegion, litNt(STATES[st]!));
    const city = (k * 104_729) % citiesPerState;
    const place = iris.place('US', STATES[st]!, `SYNTHETIC CITY ${city}`);
    if (!placesWritten.has(st * citiesPerState + city)) {
      placesWritten.add(st * citiesPerState + city);
      t(place, RDF.type, iriNt(SDO.PostalAddress));
      t(place, SDO.addressCountry, litNt('US'));
      t(place, SDO.addressRegion, litNt(STATES[st]!));
      t(place, SDO.addressLocality, litNt(`SYNTHETIC CITY ${city}`));
    }
    seen.clear();
    const rt = [0, 0], rc = [0, 0];
    while (seen.size < d) {
      const f = pick();
      if (seen.has(f)) continue;
      seen.add(f);
      const si = rand() < future ? 1 : 0;
      const amount = Math.max(100, Math.round(Math.exp(9 + 1.6 * gauss(rand))));
      // the edge as an ingest writes it (model.ts): recipient, amount, its grant list, its record (the generator's Nth), the address filed
      const e = iris.edge(`e${edgeNo}`);
      t(e, G.recipient, iriNt(r));
      t(e, G.amount, amountNt(amount));
      t(e, PROV.wasDerivedFrom, iriNt(list(f, si)));
      t(e, G.sourceRecord, litNt(`row=${edgeNo + 2}`));
      t(e, G.recipientAddress, iriNt(place));
      edgeNo++;
      const ft = total[si]!, fc = count[si]!, sT = stateTotal[st]!, sC = stateCount[st]!;
      ft[f] = ft[f]! + amount; fc[f] = fc[f]! + 1;
      rt[si] = rt[si]! + amount; rc[si] = rc[si]! + 1;
      sT[si] = sT[si]! + amount; sC[si] = sC[si]! + 1;
      // a recipient's funders are drawn without repetition: every pair is one grant, and has no pair rollup (its grant is its total)
    }
    for (const si of [0, 1]) {
      if (rc[si] === 0) continue;
      const so = stateOrgs[st]!;
      so[si] = so[si]! + 1;
      const x = `${r}/as-recipient/${statusName[si]}`;
      pairs.push(`<${x}> <${RDF.type}> <${G.RecipientRollup}> .`, `<${x}> <${G.rollupRecipient}> <${r}> .`, `<${x}> <${G.paymentStatus}> <${status[si]}> .`,
        `<${x}> <${G.totalAmount}> ${amountNt(rt[si]!)} .`, `<${x}> <${G.grantCount}> ${intNt(rc[si]!)} .`, `<${x}> <${G.counterpartCount}> ${intNt(rc[si]!)} .`);
    }
    if (lines.length >= chunkLines) yield* flush(iris.graph);
    if (pairs.length >= chunkLines) { yield { graph: iris.rollups, text: `${pairs.join('\n')}\n` }; pairs.length = 0; }
  }
  // each funder's filing and grant lists, now that its edge counts are known (funders the draw never picked have none)
  let filings = 0;
  for (let f = 0; f < funders; f++) {
    const n = count[0]![f]! + count[1]![f]!;
    if (n === 0) continue;
    filings++;
    const fi = filing(f);
    t(fi, RDF.type, iriNt(G.Filing));
    t(fi, RDF.type, iriNt(PROV.Entity));
    t(fi, G.funder, iriNt(syntheticFunder(iris, f)));
    t(fi, G.taxYear, intNt(2023));
    t(fi, G.form, litNt('990PF'));
    t(fi, G.edgeCount, intNt(n));
    t(fi, PROV.wasDerivedFrom, iriNt(doc));
    for (const si of [0, 1]) {
      if (count[si]![f] === 0) continue;
      const l = list(f, si);
      t(l, RDF.type, iriNt(G.GrantList));
      t(l, DCT.isPartOf, iriNt(fi));
      t(l, G.funder, iriNt(syntheticFunder(iris, f)));
      t(l, G.taxYear, intNt(2023));
      t(l, G.paymentStatus, iriNt(status[si]!));
    }
    if (lines.length >= chunkLines) yield* flush(iris.graph);
  }
  yield* flush(iris.graph);
  if (pairs.length) { yield { graph: iris.rollups, text: `${pairs.join('\n')}\n` }; pairs.length = 0; }
  for (let f = 0; f < funders; f++) {
    for (const si of [0, 1]) {
      if (count[si]![f] === 0) continue;
      const fi = syntheticFunder(iris, f);
      const x = `${fi}/as-funder/${statusName[si]}`;
      // one grant per funder–recipient pair and status here, so distinct recipients = grants
      lines.push(`<${x}> <${RDF.type}> <${G.FunderRollup}> .`, `<${x}> <${G.rollupFunder}> <${fi}> .`, `<${x}> <${G.paymentStatus}> <${status[si]}> .`,
        `<${x}> <${G.totalAmount}> ${amountNt(total[si]![f]!)} .`, `<${x}> <${G.grantCount}> ${intNt(count[si]![f]!)} .`, `<${x}> <${G.counterpartCount}> ${intNt(count[si]![f]!)} .`);
    }
    if (lines.length >= chunkLines) yield* flush(iris.rollups);
  }
  STATES.forEach((st, i) => {
    for (const si of [0, 1]) {
      if (stateCount[i]![si] === 0) continue;
      const x = iris.rollup(`state/${st}/${statusName[si]}`);
      lines.push(`<${x}> <${RDF.type}> <${G.StateRollup}> .`, `<${x}> <${G.rollupState}> ${litNt(st)} .`, `<${x}> <${G.paymentStatus}> <${status[si]}> .`,
        `<${x}> <${G.totalAmount}> ${amountNt(stateTotal[i]![si]!)} .`, `<${x}> <${G.grantCount}> ${intNt(stateCount[i]![si]!)} .`, `<${x}> <${G.counterpartCount}> ${intNt(stateOrgs[i]![si]!)} .`);
    }
  });
  // the coverage rollup, as an ingest writes it: one generated filing per funder, one document, one tax year
  const cov = iris.rollup('coverage');
  lines.push(`<${cov}> <${RDF.type}> <${G.CoverageRollup}> .`, `<${cov}> <${G.filingCount}> ${intNt(filings)} .`, `<${cov}> <${G.funderCount}> ${intNt(filings)} .`,
    `<${cov}> <${G.documentCount}> ${intNt(1)} .`, `<${cov}> <${G.taxYear}> ${intNt(2023)} .`);
  yield* flush(iris.rollups);
}

function gauss(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}
