/**
 * The mined result: plain data, JSON-serialisable as is (the sidecar format), sorted so that the
 * same graph always gives the same document. Every list is ordered most informative first:
 * by count descending, then by IRI ascending.
 */

/** Version tag written into every result; a sidecar with another tag is refused. */
export const FORMAT = 'assay-introspect/1';

export interface Counted {
  iri: string;
  count: number;
}

export interface BuildOptions {
  /** Profile each subject under its most specific types only, using the graph's own rdfs:subClassOf (default false). */
  minimizeTypes: boolean;
  /** Caps; the tail of each table is aggregated into its `elided` figures. */
  maxClasses: number;
  maxPredicatesPerClass: number;
  maxPredicates: number;
  maxCharSets: number;
  maxJoinHints: number;
  maxNamespaces: number;
  /** Classes and datatypes kept per predicate's observed domain and range. */
  maxDomainRange: number;
  /** Distinct sample values kept per (class, predicate) and per predicate. */
  samples: number;
  /** Keep the uncapped characteristic-set table too (can be as large as the subject count). */
  exactCharSets: boolean;
  /** Count distinct objects (graph-wide and per predicate); costs one counting sort of the interned triples. */
  distinctObjects: boolean;
}

export const DEFAULT_OPTIONS: Readonly<BuildOptions> = Object.freeze({
  minimizeTypes: false,
  maxClasses: 200,
  maxPredicatesPerClass: 50,
  maxPredicates: 500,
  maxCharSets: 100,
  maxJoinHints: 200,
  maxNamespaces: 50,
  maxDomainRange: 10,
  samples: 3,
  exactCharSets: false,
  distinctObjects: true,
});

/** What kinds of object a predicate takes. */
export interface ObjectKinds {
  iri: number;
  bnode: number;
  literal: number;
}

export interface ClassPredicate {
  predicate: string;
  /** Instances of the class that use the predicate at least once. */
  subjects: number;
  /** Triples with an instance of the class as subject and this predicate. */
  triples: number;
  /** subjects / instances of the class, 0..1. */
  coverage: number;
  /** Most values any one instance has for this predicate. */
  maxPerSubject: number;
  /** A few of this class's own values, chosen by hash so the choice does not depend on scan order. */
  samples: string[];
}

export interface ClassProfile {
  iri: string;
  instances: number;
  /** Triples whose subject is an instance. */
  triples: number;
  predicates: ClassPredicate[];
  elidedPredicates: number;
}

export interface PredicateProfile {
  iri: string;
  triples: number;
  /** Distinct subjects. */
  subjects: number;
  /** Distinct objects, when BuildOptions.distinctObjects. */
  objects?: number;
  kinds: ObjectKinds;
  /** Observed domain: classes of the subjects, counted per triple. */
  domain: Counted[];
  /** Triples whose subject has no (profiled) type. */
  untypedSubjects: number;
  /** Observed range: classes of IRI/blank-node objects, counted per triple. */
  rangeClasses: Counted[];
  /** Observed range: datatypes of literal objects (rdf:langString for tagged strings). */
  rangeDatatypes: Counted[];
  /** Triples whose object is an IRI or blank node without a type. */
  untypedObjects: number;
  declaredDomain: string[];
  declaredRange: string[];
  samples: string[];
}

export interface CharSetPredicate {
  iri: string;
  triples: number;
  /** Every subject in the set has at most one value. */
  singleValued: boolean;
  kinds: ObjectKinds;
}

export interface CharSet {
  predicates: CharSetPredicate[];
  subjects: number;
  triples: number;
  /** Classes of the set's subjects, with how many subjects carry each. */
  types: Counted[];
}

export interface CharSets {
  /** Distinct characteristic sets in the graph. */
  total: number;
  sets: CharSet[];
  elided: { sets: number; subjects: number; triples: number };
  /** The uncapped table, when BuildOptions.exactCharSets. */
  exact?: CharSet[];
}

export interface JoinHint {
  from: string;
  predicate: string;
  to: string;
  triples: number;
}

export interface JoinHints {
  hints: JoinHint[];
  elided: { hints: number; triples: number };
}

export interface Namespace {
  iri: string;
  prefix: string;
  /** Name of a well-known vocabulary, when recognised. */
  vocabulary?: string;
  predicates: number;
  classes: number;
  /** Triples using a predicate from this namespace. */
  triples: number;
}

export interface Namespaces {
  namespaces: Namespace[];
  elided: number;
}

/**
 * A class under SHACL's targetClass semantics: its focus nodes are its instances AND the
 * instances of its subclasses (rdfs:subClassOf* in the graph), whatever the profile options.
 * The SHACL renderer only states constraints these figures prove, so the graph conforms to
 * its own mined shapes.
 */
export interface FocusClass {
  iri: string;
  focusNodes: number;
  predicates: { iri: string; subjects: number; maxPerSubject: number; kinds: ObjectKinds }[];
}

export interface Introspection {
  format: typeof FORMAT;
  options: BuildOptions;
  triples: number;
  /** Distinct subjects. */
  subjects: number;
  /** Distinct IRI subjects (blank nodes are not entities: they cannot be dereferenced). */
  entities: number;
  /** Distinct objects, when counted. */
  objects?: number;
  /** Subjects with at least one rdf:type. */
  typedSubjects: number;
  /** Distinct classes (IRI objects of rdf:type). */
  classCount: number;
  /** Distinct predicates. */
  predicateCount: number;
  /** rdfs:subClassOf edges between IRIs found in the graph. */
  subClassEdges: number;
  classes: ClassProfile[];
  elidedClasses: { classes: number; instances: number };
  predicates: PredicateProfile[];
  elidedPredicates: { predicates: number; triples: number };
  characteristicSets: CharSets;
  joinHints: JoinHints;
  namespaces: Namespaces;
  focus: FocusClass[];
}
