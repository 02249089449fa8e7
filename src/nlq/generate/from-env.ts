/**
 * The generator the environment asks for, offline by default:
 *   ASSAY_NLQ_REPLAY=<file.json>   answer from recorded completions (exact prompt), never the network
 *   ASSAY_LLM_URL + a model        an OpenAI-compatible model (see model.ts); with
 *   ASSAY_NLQ_RECORD=<file.json>   every completion is recorded to that fixture as well
 *   nothing                        the offline generator (no model)
 * `choice` overrides: "offline", "model", or "replay:<file>".
 */
import { loadReplay, recordingCompleter, replayCompleter } from './replay.ts';
import { modelCompleter, modelConfigFromEnv } from './model.ts';
import { offlineGenerator } from './offline.ts';
import { completerGenerator, type SparqlGenerator } from './types.ts';

export interface ChosenGenerator { generator: SparqlGenerator; save?: () => Promise<void> }

export async function generatorFromEnv(env: NodeJS.ProcessEnv = process.env, choice?: string, options: { fetch?: typeof fetch } = {}): Promise<ChosenGenerator> {
  const pick = choice ?? (env.ASSAY_NLQ_REPLAY ? `replay:${env.ASSAY_NLQ_REPLAY}` : env.ASSAY_LLM_URL ? 'model' : 'offline');
  if (pick === 'offline') return { generator: offlineGenerator() };
  if (pick.startsWith('replay:')) {
    const file = pick.slice('replay:'.length);
    return { generator: completerGenerator(replayCompleter(await loadReplay(file), `replay:${file.split('/').at(-1)}`)) };
  }
  if (pick === 'model') {
    const config = modelConfigFromEnv(env);
    if (!config) throw new Error('no model configured: set ASSAY_LLM_URL and ASSAY_NLQ_MODEL (or ASSAY_LLM_MODEL), or use the offline generator');
    const live = modelCompleter(config, options);
    if (env.ASSAY_NLQ_RECORD) {
      const rec = recordingCompleter(live);
      const file = env.ASSAY_NLQ_RECORD;
      return { generator: completerGenerator(rec), save: () => rec.save(file) };
    }
    return { generator: completerGenerator(live) };
  }
  throw new Error(`unknown generator "${pick}": use offline, model or replay:<file>`);
}
