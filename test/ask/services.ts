/** Test services for ask: the real catalog, cassettes and offline registry, an in-memory store. */
import { loadAskServices, type AskServices } from '../../src/ask/services.ts';
import { DurableStore } from '../../src/rdf/durable.ts';
import type { ModelClient } from '../../src/llm/types.ts';
import type { ConnectorRuntime } from '../../src/connectors/runtime.ts';
import { sharedAskParts } from '../shared.ts';

export const BASE = 'http://assay.test/';

// The discovery index and registry are the worker's shared ones (test/shared.ts); the store, the
// connector runtime (cassettes, pacing) and the model are each call's own.
export async function testServices(o: { model?: ModelClient; runtime?: ConnectorRuntime } = {}): Promise<AskServices> {
  const shared = await sharedAskParts();
  return loadAskServices({ store: DurableStore.inMemory(), baseIri: BASE, ...(shared ?? {}), ...(o.model ? { model: o.model } : {}), ...(o.runtime ? { runtime: o.runtime } : {}) });
}

/**
 * A "model" that drafts fixed text (recording what the drafting call was shown) and answers the
 * residual semantic check with `judgement` (default: approves everything).
 */
export function fixedModel(text: string, seen: string[] = [], judgement = true): ModelClient {
  return {
    modelFor: () => 'fixed-test-model',
    async complete(req) {
      if (req.role === 'classify') return { text: JSON.stringify({ answers: judgement, reason: 'scripted' }), model: 'fixed-test-model' };
      seen.push(req.messages.map((m) => m.content).join('\n'));
      return { text, model: 'fixed-test-model' };
    },
  };
}
