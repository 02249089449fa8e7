/**
 * What `ask` needs for the life of a process, loaded once and shared by every question: the
 * discovery index (catalog load is slow), the connector runtime, the identity registry, the
 * optional model client, the compiled evidence shapes, the durable store and the base IRI.
 * Per-question state is never here (see QueryContext).
 */
import { loadDiscoveryIndex } from '../discover/load.ts';
import type { DiscoveryIndex } from '../discover/index.ts';
import { connectorRuntime, type ConnectorRuntime } from '../connectors/runtime.ts';
import type { HttpMode } from '../http/client.ts';
import { openOfflineRegistry, type IdentityRegistry } from '../resolve/registry.ts';
import type { ModelClient } from '../llm/types.ts';
import type { CompiledShapes } from '../ard/shacl.ts';
import { loadEvidenceShapes } from '../evidence/shacl.ts';
import type { AssayStore } from '../rdf/backend.ts';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLED_GRANTS_DIR } from '../config.ts';

export interface AskServices {
  index: DiscoveryIndex;
  runtime: ConnectorRuntime;
  registry: IdentityRegistry;
  model?: ModelClient;
  shapes: CompiledShapes;
  store: AssayStore;
  baseIri: string;
  /** Minimum asserted assurance level to answer (1–3; default 1). */
  assuranceFloor?: 1 | 2 | 3;
  /** Default question deadline, ms. */
  timeoutMs?: number;
  /** Attempts per question across all branches (default 200). */
  attemptBudget?: number;
  /**
   * Grant filings ingested into an empty grant graph before its first question: on the offline
   * default, the bundled extract (fixtures/grants), as cassettes stand in for the publishers; live, none.
   */
  grantSeed?: readonly string[];
}

/** The bundled grant files (extracts and e-file returns; provenance sidecars are read with them). */
export function bundledGrantFiles(): string[] {
  // a build without the fixtures seeds nothing (its grant questions say the graph is empty and how to fill it)
  if (!existsSync(BUNDLED_GRANTS_DIR)) return [];
  return readdirSync(BUNDLED_GRANTS_DIR).filter((f) => /\.(csv|xml)$/i.test(f)).sort().map((f) => join(BUNDLED_GRANTS_DIR, f));
}

export async function loadAskServices(o: { store: AssayStore; baseIri: string; catalogDir?: string; mode?: HttpMode; model?: ModelClient; runtime?: ConnectorRuntime; registry?: IdentityRegistry; index?: DiscoveryIndex; shapes?: CompiledShapes; grantSeed?: readonly string[] }): Promise<AskServices> {
  const [index, runtime, registry, shapes] = await Promise.all([
    o.index ?? loadDiscoveryIndex(o.catalogDir ?? 'ard-okf').then((r) => r.index),
    o.runtime ?? connectorRuntime({ mode: o.mode ?? 'replay' }),
    o.registry ?? openOfflineRegistry(),
    o.shapes ?? loadEvidenceShapes(),
  ]);
  const grantSeed = o.grantSeed ?? ((o.mode ?? 'replay') === 'replay' ? bundledGrantFiles() : []);
  return { index, runtime, registry, shapes, store: o.store, baseIri: o.baseIri, grantSeed, ...(o.model ? { model: o.model } : {}) };
}
