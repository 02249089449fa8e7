/**
 * QueryContext: everything one question needs while it runs, passed explicitly (no module state).
 *
 * Carries the deadline (absolute, on `clock`), one AbortSignal (aborted on caller cancel or when the
 * deadline passes, with a DeadlineError as its reason), a shared attempt budget across every branch
 * of a fan-out, a per-leaf attempt cap, the model-usage and discovery ledgers, the HTTP client and
 * catalog declarations (through the connector runtime), the optional model client, the progress
 * channel and the per-question identity memo. Two questions in flight never share one: each call to
 * `queryContext` makes a fresh budget, memo and ledgers.
 */
import { systemClock, type Clock } from '../http/context.ts';
import type { ConnectorRuntime } from '../connectors/runtime.ts';
import type { ModelClient } from '../llm/types.ts';
import type { IdentityRegistry, ResolveContext } from '../resolve/registry.ts';
import type { IdentityBundle } from '../resolve/bundle.ts';
import type { ProgressEvent } from './progress.ts';

export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
  constructor(readonly deadlineMs: number) { super(`the question deadline (${deadlineMs} ms) passed before the publishers answered; ask again with a longer deadline`); }
}

export class BudgetExhaustedError extends Error {
  override readonly name = 'BudgetExhaustedError';
  constructor(readonly limit: number) { super(`the question used its whole attempt budget (${limit} attempts across all branches); narrow the question or raise the budget`); }
}

export interface AttemptBudget {
  readonly limit: number;
  used: number;
  /** Takes one attempt from the shared budget or throws BudgetExhaustedError. */
  take(): void;
}

export interface ModelUsage { role: string; model: string; promptTokens?: number; completionTokens?: number }
export interface DiscoveryEntry { attribute: string; candidates: number; top?: string }

export interface QueryContext extends ResolveContext {
  readonly id: string;
  readonly signal: AbortSignal;
  readonly deadline: number;
  readonly clock: Clock;
  readonly budget: AttemptBudget;
  /** At most this many attempts in one leaf search (one entity × one period). */
  readonly leafCap: number;
  readonly usage: ModelUsage[];
  readonly discovery: DiscoveryEntry[];
  readonly runtime: ConnectorRuntime;
  readonly registry: IdentityRegistry;
  readonly model?: ModelClient;
  readonly resolutionMemo: Map<string, Promise<IdentityBundle[]>>;
  /** Per-question cache of whole operation results (companyfacts once, several concepts read from it). */
  readonly fetchMemo: Map<string, Promise<unknown>>;
  emit(event: ProgressEvent): void;
  /** Stops the deadline timer; call when the question is finished. */
  dispose(): void;
}

export interface QueryContextOptions {
  id: string;
  runtime: ConnectorRuntime;
  registry: IdentityRegistry;
  model?: ModelClient;
  /** Caller's cancel signal (HTTP client disconnect, Ctrl-C). */
  signal?: AbortSignal;
  /** Milliseconds from now; the request path always sets one (default 30 s). */
  timeoutMs?: number;
  clock?: Clock;
  budget?: number;
  leafCap?: number;
  onProgress?: (event: ProgressEvent) => void;
}

export function queryContext(o: QueryContextOptions): QueryContext {
  const clock = o.clock ?? systemClock;
  const timeoutMs = o.timeoutMs ?? 30_000;
  const controller = new AbortController();
  const onCallerAbort = () => controller.abort(o.signal!.reason);
  if (o.signal) {
    if (o.signal.aborted) controller.abort(o.signal.reason);
    else o.signal.addEventListener('abort', onCallerAbort, { once: true });
  }
  const timer = Number.isFinite(timeoutMs) ? setTimeout(() => controller.abort(new DeadlineError(timeoutMs)), timeoutMs) : undefined;
  const limit = o.budget ?? 200;
  const budget: AttemptBudget = {
    limit, used: 0,
    take() { if (this.used >= this.limit) throw new BudgetExhaustedError(this.limit); this.used++; },
  };
  return {
    id: o.id, signal: controller.signal, deadline: clock.now() + timeoutMs, clock, budget,
    leafCap: o.leafCap ?? 60, usage: [], discovery: [], runtime: o.runtime, registry: o.registry,
    ...(o.model ? { model: o.model } : {}),
    resolutionMemo: new Map(), fetchMemo: new Map(),
    emit: (e) => o.onProgress?.(e),
    dispose() { if (timer) clearTimeout(timer); o.signal?.removeEventListener('abort', onCallerAbort); },
  };
}

/** A child signal for one fan-out branch: aborted with the parent, or when a sibling fails. */
export function childContext(ctx: QueryContext, signal: AbortSignal): QueryContext {
  return { ...ctx, signal };
}
