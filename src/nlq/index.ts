/**
 * src/nlq: questions over any graph — the NL→SPARQL loop (ground → generate → validate → execute
 * → repair), its citations and qualification, the TEXT2SPARQL contract's query, and the
 * execution-accuracy harness. The public surface used by the CLI, the server and `assay ask`.
 */
export { askGraph, GroundingCache, DEFAULT_NLQ_CONFIG, type NlqConfig, type NlqAnswer, type NlqFailure, type NlqOutcome, type Turn, type TurnOutcome, type NlqDeps } from './loop.ts';
export { poolRunner, type GraphRunner, type QueryResult, type Term } from './exec.ts';
export { buildGrounding, type Grounding } from './grounding.ts';
export { Linker, type Linking } from './link.ts';
export { validateQuery, repairMessage, type ValidationIssue } from './validate.ts';
export { offlineGenerator, generateOffline } from './generate/offline.ts';
export { generatorFromEnv } from './generate/from-env.ts';
export { completerGenerator, extractSparql, type SparqlGenerator, type Completer } from './generate/types.ts';
export { replayCompleter, recordingCompleter, loadReplay, ReplayMissError } from './generate/replay.ts';
export { modelCompleter } from './generate/model.ts';
export { answerIfAboutAssaysGraphs, openNlq } from './assay-graphs.ts';
export { routeQuestion, isAboutAssaysGraphs, graphForRoute, type Route } from './route.ts';
export { qualify, type Qualification, type QualifyConfig } from './qualify.ts';
export { cite, resolutionRate, type Cited, type Citation } from './cite.ts';
export { loadCases, runEval, reportTable, answerSet, f1, type EvalReport, type CaseSet } from './eval.ts';
export { beyondText, failureText, groundingCutText, qualificationText, footnotes, LANE_LABEL } from './render.ts';
export { outcomeJson } from './json.ts';
