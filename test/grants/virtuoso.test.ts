// The same grant questions against Virtuoso (the remote store backend) and against the embedded
// store, over the same ingest: the answers are identical. Virtuoso comes from .ci/run (shared) or
// a private instance started for this file; without Virtuoso the file skips with the reason
// (in CI that is a failure; see test/rdf/helpers/virtuoso.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DurableStore } from '../../src/rdf/durable.ts';
import { RemoteStore } from '../../src/rdf/remote.ts';
import { embeddedGrantStore, type GrantStore } from '../../src/grants/store.ts';
import { ingest, readIngestFile } from '../../src/grants/ingest.ts';
import { grantIris } from '../../src/grants/vocab.ts';
import { traverse, type GrantQuestion } from '../../src/grants/traverse.ts';
import { startVirtuoso, uniqueBase, virtuosoUnavailable, type Virtuoso } from '../rdf/helpers/virtuoso.ts';
import { downgradeTo2, EXTRACT, PF, SCHED_I } from './helpers.ts';

const skip = await virtuosoUnavailable();

const QUESTIONS: GrantQuestion[] = [
  { direction: 'forward', funder: 'Erb Family Foundation' },
  { direction: 'forward', funder: 'Joyce Foundation', taxYear: 2023 },
  { direction: 'reverse', recipient: 'Freshwater Future' },
  { direction: 'reverse', recipient: '841262971' },
  { direction: 'reverse', recipient: 'Freshwater Future', limit: 1 },
  { direction: 'reverse', recipient: '841262971', limit: 2 },
  { direction: 'intersection', funders: ['Toledo Community Foundation', 'Rochester Area Community Foundation'] },
  { direction: 'ranking', subject: 'funder', limit: 10 },
  { direction: 'ranking', subject: 'recipient', limit: 10 },
  { direction: 'ranking', subject: 'state', limit: 5 },
  { direction: 'top_recipients_of', funder: 'National Fish and Wildlife Foundation', limit: 5 },
  { direction: 'geographic', state: 'MI', funder: 'Brookby Foundation' },
  { direction: 'geographic', state: 'NY' },
  // states where recipients were filed under two states: each grant counted in its own filed state
  { direction: 'geographic', state: 'OH' },
  { direction: 'geographic', state: 'OH', funder: 'Toledo Community Foundation' },
  { direction: 'geographic', state: 'IL', funder: 'Joyce Foundation' },
  { direction: 'cause', cause: 'education', funder: 'Mott Foundation' },
  { direction: 'forward', funder: 'Ford Foundation' },
  // the readings beside the directions: averages, single grants, counts, two funders, shared funders, states
  { direction: 'average', funder: 'Joyce Foundation' },
  { direction: 'average', recipient: 'Freshwater Future' },
  { direction: 'average' },
  { direction: 'largest_grants', funder: 'Mott Foundation', limit: 5 },
  { direction: 'largest_grants', recipient: 'Michigan State University', limit: 3 },
  { direction: 'largest_grants', limit: 10 },
  { direction: 'largest_grants', funder: 'Joyce Foundation', limit: 3, order: 'asc' },
  { direction: 'ranking', subject: 'funder', limit: 5, by: 'count' },
  { direction: 'top_recipients_of', funder: 'Joyce Foundation', limit: 5, by: 'count' },
  { direction: 'top_recipients_of', funder: 'Erb Family Foundation', limit: 5, taxYear: 2023 },
  { direction: 'two_funders', funders: ['Joyce Foundation', 'Erb Family Foundation'], recipient: 'Alliance for the Great Lakes', combine: 'difference' },
  { direction: 'common_funders', recipients: ['Freshwater Future', 'Alliance for the Great Lakes'] },
  { direction: 'states_of', funder: 'Joyce Foundation', limit: 10 },
  { direction: 'funders_in_state', state: 'MI', limit: 5 },
  { direction: 'funders_by_count', recipient: 'Community Foundation of Greater Flint', limit: 5 },
  // layout 4: an organization's units counted with it (one in another state left out), placeholders out of rankings, thresholds
  { direction: 'reverse', recipient: 'University of Chicago' },
  { direction: 'reverse', recipient: 'Council of State Governments' },
  { direction: 'pair', funder: 'Joyce Foundation', recipient: 'University of Chicago' },
  { direction: 'top_recipients_of', funder: 'McDougal Family Foundation', limit: 5 },
  { direction: 'reverse', recipient: 'Michigan State University', threshold: { op: '>', value: 1_000_000 } },
  { direction: 'top_recipients_of', funder: 'Joyce Foundation', limit: 10, threshold: { op: '>', value: 500_000 } },
  { direction: 'funders_in_state', state: 'MI', limit: 10, threshold: { op: '>', value: 1_000_000 } },
  { direction: 'geographic', state: 'MI', funder: 'Mott Foundation', threshold: { op: '>', value: 1_000_000 } },
];

describe.skipIf(skip !== undefined)('grant questions on Virtuoso and on the embedded store', () => {
  let v: Virtuoso;
  let remote: RemoteStore;
  let stores: Record<'embedded' | 'virtuoso', GrantStore>;
  const base = uniqueBase('grants');
  const iris = grantIris(base);
  beforeAll(async () => {
    v = await startVirtuoso();
    const files = await Promise.all([EXTRACT, SCHED_I, PF].map(readIngestFile));
    const now = '2026-12-01T12:00:00Z';
    const embedded = embeddedGrantStore(DurableStore.inMemory());
    await ingest(embedded, files, { iris, now });
    // opened after the embedded ingest: a connection left idle that long is closed by Virtuoso
    remote = await RemoteStore.open(v.store(), { baseIri: base });
    stores = { embedded, virtuoso: embeddedGrantStore(remote) };
    await ingest(stores.virtuoso, files, { iris, now });
  }, 600_000);
  afterAll(async () => { await remote?.close(); await v?.stop(); }, 120_000);

  it('ingests the same graph (edges, filings, rollups) and is idempotent there too', async () => {
    const size = async (s: GrantStore) => [await s.graphSize(iris.graph), await s.graphSize(iris.rollups)];
    expect(await size(stores.virtuoso)).toEqual(await size(stores.embedded));
    const again = await ingest(stores.virtuoso, await Promise.all([EXTRACT].map(readIngestFile)), { iris });
    expect(again.docs.map((d) => d.outcome)).toEqual(['unchanged']);
    expect(await size(stores.virtuoso)).toEqual(await size(stores.embedded));
  }, 300_000);

  it.each(QUESTIONS.map((q) => [JSON.stringify(q), q] as const))('%s: identical answers', async (_label, q) => {
    const [a, b] = await Promise.all([traverse({ store: stores.embedded, iris }, q), traverse({ store: stores.virtuoso, iris }, q)]);
    expect(b).toEqual(a);
  }, 120_000);

  // last: it rewrites the Virtuoso graph (to what it held before, if the upgrade is right)
  it('upgrades a layout-2 graph in place there too, to the same graph and answers', async () => {
    const size = async (s: GrantStore) => [await s.graphSize(iris.graph), await s.graphSize(iris.rollups)];
    await downgradeTo2(stores.virtuoso, iris);
    const refused = await traverse({ store: stores.virtuoso, iris }, QUESTIONS[0]!);
    expect(refused.ok ? null : refused.failure.code).toBe('layout_outdated');
    const report = await ingest(stores.virtuoso, await Promise.all([EXTRACT, SCHED_I, PF].map(readIngestFile)), { iris, now: '2026-12-01T12:00:00Z' });
    expect(report.upgradedFrom).toBe(2);
    expect(report.docs.map((d) => d.outcome)).toEqual(['upgraded', 'upgraded', 'upgraded']);
    expect(await size(stores.virtuoso)).toEqual(await size(stores.embedded));
    for (const q of QUESTIONS) expect(await traverse({ store: stores.virtuoso, iris }, q)).toEqual(await traverse({ store: stores.embedded, iris }, q));
  }, 600_000);
});
