/**
 * A test identity registry: the offline snapshot, plus one bundle for each organization whose
 * ProPublica organization cassette is bundled (Pro Publica Inc, Rural Action, Apache Software
 * Foundation). Those organizations are outside the snapshot (it holds the DC and RI BMF extracts and
 * SEC filers), so without this their recorded responses could never be reached by name. Each bundle
 * is read from the cassette body itself (its name and EIN as ProPublica publishes them): nothing is
 * typed in by hand.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { IdentityBundle } from '../../src/resolve/bundle.ts';
import { normaliseName, openOfflineRegistry, type IdentityRegistry } from '../../src/resolve/registry.ts';

export const CASSETTE_EINS = ['142007220', '311124220', '470825376'] as const;

export async function cassetteRegistry(): Promise<IdentityRegistry> {
  const base = await openOfflineRegistry();
  const extra: IdentityBundle[] = [];
  for (const ein of CASSETTE_EINS) {
    const file = fileURLToPath(new URL(`../../fixtures/publishers/propublica-nonprofits/bodies/v2_organizations_${ein}.json`, import.meta.url));
    const o = (JSON.parse(await readFile(file, 'utf8')) as { organization: { name: string; ein: number } }).organization;
    extra.push({ id: `test:ein-${ein}`, label: o.name, altLabels: [], types: ['organization'], identifiers: { ein: [String(o.ein).padStart(9, '0')] }, from: 'offline-snapshot', match: 'exact' });
  }
  return {
    kind: base.kind,
    async lookup(name, options, signal) {
      const mine = extra.filter((b) => normaliseName(b.label) === normaliseName(name));
      return mine.length > 0 ? mine : base.lookup(name, options, signal);
    },
  };
}
