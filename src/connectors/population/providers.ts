/** The population providers, by source id. Adding a publisher's populations is one file and one line here. */
import { censusAcsPopulation } from './census-acs.ts';
import { cdcPlacesPopulation } from './cdc-places.ts';
import { cdcSviPopulation } from './cdc-svi.ts';
import { irsEoBmfPopulation } from './irs-eo-bmf.ts';
import { secFramesPopulation } from './sec-frames.ts';
import type { PopulationProvider } from './provider.ts';

export const POPULATION_PROVIDERS: ReadonlyMap<string, PopulationProvider> = new Map(
  [censusAcsPopulation, cdcSviPopulation, cdcPlacesPopulation, irsEoBmfPopulation, secFramesPopulation].map((p) => [p.source, p]),
);

/** The provider serving a planned operation, when that operation returns a population. */
export function providerFor(source: string, operation: string): PopulationProvider | undefined {
  const p = POPULATION_PROVIDERS.get(source);
  return p && operation in p.operations ? p : undefined;
}
