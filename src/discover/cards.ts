/**
 * Discovery cards: one per measure and one per operation, built once from the loaded catalog.
 * A card carries what retrieval reads (title, description, representative questions, source
 * names) and what planning needs next (publisher, the operations that serve it).
 */
import type { AccessPath, Catalog, Measure } from '../ard/index.ts';

export interface OperationRef {
  key: string;
  publisherId: string;
  operationId: string;
  kind: AccessPath['data']['kind'];
  accepts: string[];
  grain: string;
  complete: boolean;
  coverageOf: string;
  title: string;
}

export interface Card {
  id: string;
  kind: 'measure' | 'operation';
  /** `<publisher>/<group>/<name>` for measures, `<publisher>/<operationId>` for operations. */
  key: string;
  publisherId: string;
  title: string;
  description: string;
  questions: string;
  source: string;
  unit?: string;
  operations: OperationRef[];
}

export function operationRef(a: AccessPath): OperationRef {
  return {
    key: `${a.publisherId}/${a.id}`, publisherId: a.publisherId, operationId: a.id, kind: a.data.kind, accepts: [...a.data.accepts],
    grain: a.data.grain, complete: a.data.coverage.complete, coverageOf: a.data.coverage.of, title: a.entry.displayName,
  };
}

/** The catalog surface discovery needs (a loaded `Catalog` satisfies it). */
export type CatalogView = Pick<Catalog, 'publishers' | 'accessPaths' | 'measures' | 'servingPaths'>;

export function buildCards(catalog: CatalogView): Card[] {
  const sourceText = new Map<string, string>();
  for (const p of catalog.publishers) {
    sourceText.set(p.id, [p.entry.displayName, p.data.publisher.name, ...(p.entry.tags ?? []), p.entry.description ?? ''].join(' '));
  }
  const cards: Card[] = [];
  for (const m of catalog.measures) cards.push(measureCard(m, catalog.servingPaths(m), sourceText.get(m.publisherId) ?? ''));
  for (const a of catalog.accessPaths) {
    cards.push({
      id: `op:${a.publisherId}/${a.id}`, kind: 'operation', key: `${a.publisherId}/${a.id}`, publisherId: a.publisherId,
      title: a.entry.displayName,
      description: [a.entry.description ?? a.data.description, `Returns ${a.data.grain}; covers ${a.data.coverage.of}.`].join(' '),
      questions: (a.entry.representativeQueries ?? []).join(' \n'),
      source: sourceText.get(a.publisherId) ?? '',
      operations: [operationRef(a)],
    });
  }
  return cards;
}

function measureCard(m: Measure, paths: AccessPath[], source: string): Card {
  return {
    id: `m:${m.key}`, kind: 'measure', key: m.key, publisherId: m.publisherId,
    title: m.entry.displayName, description: m.entry.description ?? m.data.description,
    // the other names the measure goes by ("national debt", "graduation rate") are words a question uses for it
    questions: [...(m.entry.representativeQueries ?? []), ...(m.data.altLabels ?? [])].join(' \n'), source, unit: m.data.unit,
    operations: paths.map(operationRef),
  };
}
