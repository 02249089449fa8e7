/**
 * Class hierarchy from the graph's own rdfs:subClassOf edges, and type minimisation.
 *
 * No ontology is fetched and no OWL reasoning is done: only the edges the graph states, closed
 * transitively. Cycles are tolerated: classes on a cycle are equivalent, so neither is more
 * specific than the other and both are kept when a subject carries both.
 */

export class Hierarchy {
  /** class → every strict superclass reachable through subClassOf edges (may include itself on a cycle). */
  readonly #supers = new Map<string, Set<string>>();

  constructor(edges: Iterable<readonly [sub: string, sup: string]>) {
    const direct = new Map<string, string[]>();
    for (const [sub, sup] of edges) {
      if (sub === sup) continue;
      let list = direct.get(sub);
      if (!list) direct.set(sub, (list = []));
      list.push(sup);
    }
    for (const start of direct.keys()) {
      const seen = new Set<string>();
      const stack = [...direct.get(start)!];
      while (stack.length > 0) {
        const c = stack.pop()!;
        if (seen.has(c)) continue;
        seen.add(c);
        for (const next of direct.get(c) ?? []) stack.push(next);
      }
      this.#supers.set(start, seen);
    }
  }

  get isEmpty(): boolean {
    return this.#supers.size === 0;
  }

  /** a ⊑ b through one or more edges. */
  isSubClassOf(a: string, b: string): boolean {
    return this.#supers.get(a)?.has(b) ?? false;
  }

  /** The most specific of `types`: drop t when another t' is strictly below it (t' ⊑ t, not t ⊑ t'). */
  minimize(types: readonly string[]): string[] {
    if (types.length < 2 || this.isEmpty) return [...types];
    return types.filter((t) => !types.some((u) => u !== t && this.isSubClassOf(u, t) && !this.isSubClassOf(t, u)));
  }

  /** `types` with every superclass added: the classes whose SHACL targetClass selects the node. */
  expand(types: readonly string[]): string[] {
    if (this.isEmpty) return [...types];
    const out = new Set(types);
    for (const t of types) for (const s of this.#supers.get(t) ?? []) out.add(s);
    return [...out].sort();
  }
}
