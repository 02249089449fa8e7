/**
 * Identity bundles and binding.
 *
 * A bundle is what the registry knows about one candidate entity: a stable id (the Wikidata QID when
 * known), its label, and every identifier known for it. The registry supplies identifiers only; it
 * never decides which candidate a question means — several matching candidates are all returned.
 *
 * Binding picks, from a chosen bundle, the identifier an operation accepts. A bundle lacking every
 * accepted type is a failed choice point with that reason (data, not an exception), so the executor
 * can move on to the next source and later say why the crosswalk did not help.
 */
import type { IdType } from './identifiers.ts';

export type EntityType = 'company' | 'organization' | 'person' | 'state' | 'county' | 'place' | 'school';

/** A place an entity is located in (wdt:P131): its node, label and, for a state, FIPS code. */
export interface Place {
  /** The place's node (wd:Q… or a registry IRI). */
  id: string;
  label?: string;
  fips?: string;
  level?: 'state';
}

export interface IdentityBundle {
  /** Wikidata QID when known, else the registry IRI. */
  id: string;
  qid?: string;
  label: string;
  altLabels: string[];
  types: EntityType[];
  identifiers: Partial<Record<IdType, string[]>>;
  /** FIPS level when `identifiers.fips` is set. */
  fipsLevel?: 'state' | 'county' | 'place';
  /** Where the registry places the entity (wdt:P131), when it says (see resolve/places.ts). */
  locatedIn?: Place[];
  /** Where the bundle came from. */
  from: 'offline-snapshot' | 'wikidata';
  /** How the name matched: exact (after normalising), prefix, or as whole words. */
  match: 'exact' | 'prefix' | 'words';
  /** The spelling the name was matched as, when it was not the one asked ("ProPublica" looked up as "Pro Publica"). */
  spelledAs?: string;
}

export type BindOutcome =
  | { ok: true; keyType: string; value: string; alternatives: string[] }
  | { ok: false; reason: string; available: string[] };

/**
 * The identifier an operation accepting `accepts` (catalog key types, in its order of preference)
 * can use from this bundle. `name` binds the label. Several values (share classes) → the first, and
 * the others as alternatives.
 */
export function bindKey(bundle: IdentityBundle, accepts: readonly string[]): BindOutcome {
  const available = [...Object.entries(bundle.identifiers).filter(([, v]) => v && v.length > 0).map(([k]) => k), 'name'];
  if (accepts.length === 0) return { ok: false, reason: 'the operation takes no entity key, so there is nothing to bind', available };
  for (const t of accepts) {
    if (t === 'name') return { ok: true, keyType: 'name', value: bundle.label, alternatives: bundle.altLabels };
    const values = bundle.identifiers[t as IdType];
    if (values && values.length > 0) return { ok: true, keyType: t, value: values[0]!, alternatives: values.slice(1) };
  }
  return {
    ok: false,
    reason: `${bundle.label} (${bundle.id}) has no ${accepts.join(' or ')} in the registry; it carries ${available.join(', ')}, which this operation cannot use`,
    available,
  };
}
