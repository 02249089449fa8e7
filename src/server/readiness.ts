/**
 * What the gateway waits for before it is ready (/ready, `assay serve`'s "ready" line): named
 * conditions, each a check that is true once that part can serve. Plain data, one per app.
 */
export class Readiness {
  readonly #checks = new Map<string, () => boolean>();
  readonly #done = new Set<string>();

  /** A condition that holds while `check()` is true (e.g. the query pool's workers are loaded). */
  add(name: string, check: () => boolean): void {
    this.#checks.set(name, check);
  }

  /** A condition that holds once `mark(name)` was called (e.g. the catalog graph was synced). */
  expect(name: string): void {
    this.#checks.set(name, () => this.#done.has(name));
  }

  mark(name: string): void {
    this.#done.add(name);
  }

  /** Names of the conditions that do not hold yet, in the order they were added. */
  waiting(): string[] {
    return [...this.#checks].filter(([, ok]) => !ok()).map(([name]) => name);
  }

  /** Resolves once every condition holds (polls; the conditions are cheap). */
  async whenReady(signal?: AbortSignal): Promise<void> {
    while (this.waiting().length > 0) {
      if (signal?.aborted) throw signal.reason;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
