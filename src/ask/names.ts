/**
 * Names Assay will not guess, turned into a question back instead of a bare refusal. Input: a
 * refusal about the entity (unresolved, or none named) and the intent; output: a clarification
 * naming registered entities the asker can pick, or nothing (the refusal stands).
 *
 *  - Several registered names start with the name asked, none is it exactly ("Amazon": AMAZON COM
 *    INC and two nonprofits; "Yale": Yale University, a club and an SEC filer): the candidates are
 *    listed with their kind, identifiers and whether the planned sources can read them
 *    (`entity_candidates`). The search's rule stays: the one candidate carrying the read's key is
 *    not thereby the one meant (execute/leaf.ts chooseBundles).
 *  - The name was not written as a registered name is (`did_you_mean`): in lower case ("apple's
 *    revenue", "what did tesla report"), mistyped ("Appel"), or with look-alike letters of another
 *    script ("Teslа"). Which words may be a name, and how far a typo may go, is resolve/near.ts.
 *
 * It must never read anything: every option only resumes the question (resume.ts) bound to the
 * entity picked, whose reading is then verified like any other. Asked whatever `on_ambiguity` says,
 * because the alternative is a refusal, not a preferred reading.
 */
import type { RefusalDecision, NameClarification } from '../answer/wording.ts';
import type { IdentityBundle } from '../resolve/bundle.ts';
import { bindKey } from '../resolve/bundle.ts';
import { latinLookalike, mayName, questionWords, respelled, asName, typoBound, wordRuns, type WordRun } from '../resolve/near.ts';
import { normaliseName, resolveName } from '../resolve/registry.ts';
import type { Intent } from '../understand/index.ts';
import type { Planned } from '../execute/shapes/index.ts';
import { clarifyName, type NameOffer } from './clarify.ts';
import type { RunState } from './state.ts';
import type { AskResult, OfferedEntity } from './types.ts';

/** At most this many registered entities are offered; a name more start with is named more fully, as the refusal says. */
export const MOST_OFFERED = 5;

/** Entity refusals whose own reading already names what to do (a geography of another grain, an ambiguity of one kind asked). */
const SETTLED_ELSEWHERE = new Set(['ambiguous', 'grain_missing', 'scope_grain']);

/** The refusal, or — when the name is one the asker can settle by picking a registered entity — the question back. */
export async function refuseOrAsk(s: RunState, intent: Intent, planned: Planned | undefined, d: RefusalDecision): Promise<AskResult> {
  return (await askForName(s, intent, planned, d)) ?? s.refuse(d);
}

async function askForName(s: RunState, intent: Intent, planned: Planned | undefined, d: RefusalDecision): Promise<AskResult | undefined> {
  if (s.req.resume) return undefined; // a choice already made is read as made, never asked again
  const accepts = acceptedKeys(planned);
  if (d.code === 'no_entity') return unwrittenName(s, intent, accepts);
  if (d.boundary !== 'entity_unresolved' || (d.code && SETTLED_ELSEWHERE.has(d.code))) return undefined;
  const asked = typeof d.params?.entity === 'string' ? d.params.entity : d.context?.entity ?? intent.canonical_entity ?? intent.entity;
  if (!asked) return undefined;
  const bundles = await resolveName(s.ctx.registry, asked, {}, s.ctx);
  if (bundles.some((b) => b.match === 'exact')) return undefined;
  const starting = bundles.filter((b) => b.match === 'prefix');
  if (starting.length >= 2 && starting.length <= MOST_OFFERED) {
    s.ctx.emit({ stage: 'ambiguity', by: 'registry', message: `"${asked}" starts ${starting.length} registered names (${starting.map((b) => b.label).join('; ')}), none exactly it; asking which is meant` });
    return clarifyName(s, intent, { code: 'entity_candidates', asked, offered: starting.map((b) => offered(b, accepts)) }, starting.map((b) => ({ bundle: b, asked })));
  }
  if (bundles.length > 0) return undefined;
  // no registered name holds the words: a mistyped one may be near a registered one
  const run = wordRuns(questionWords(intent.question)).find((r) => r.words.length === 1 && r.text === normaliseName(asked));
  return run ? typoOf(s, intent, run, asked, accepts) : undefined;
}

/** Key types the planned sources read entities by (a name is no identifier). */
function acceptedKeys(planned: Planned | undefined): string[] {
  return [...new Set((planned?.candidates ?? []).flatMap((c) => c.operation?.accepts ?? []))].filter((k) => k !== 'name');
}

/** A bundle as offered; `accepts` null when nothing is planned yet (which sources could read it is not known). */
function offered(b: IdentityBundle, accepts: readonly string[] | null): OfferedEntity {
  const identifiers = Object.fromEntries(Object.entries(b.identifiers).filter(([k, v]) => k !== 'qid' && v && v.length > 0)) as Record<string, string[]>;
  return { id: b.id, label: b.label, kinds: [...b.types], identifiers, readable_by: accepts ? accepts.filter((k) => bindKey(b, [k]).ok) : null };
}

/**
 * No name written with capitals: runs of the question's words that are a registered name exactly,
 * case aside ("apple's" → Apple Inc.); a possessive may also start registered names ("amazon's");
 * a single word with no registered name may be a typo of one. A word after an article is a common
 * noun ("the amazon rainforest"), and words questions measure by are never names (near.ts).
 */
async function unwrittenName(s: RunState, intent: Intent, accepts: readonly string[]): Promise<AskResult | undefined> {
  const taken: WordRun[] = [];
  const offers: NameOffer[] = [];
  const entities: OfferedEntity[] = [];
  for (const run of wordRuns(questionWords(intent.question))) {
    if (offers.length >= MOST_OFFERED) break;
    if (taken.some((t) => t.words.some((w) => run.words.includes(w)))) continue;
    if (!run.possessive && run.words[0]!.afterArticle) continue;
    const bundles = await resolveName(s.ctx.registry, run.text, {}, s.ctx);
    const exact = bundles.filter((b) => b.match === 'exact');
    const picked = exact.length ? exact : run.possessive ? bundles.filter((b) => b.match === 'prefix') : [];
    const fits = picked.length ? picked.map((bundle) => ({ bundle, word: run.text })) : bundles.length === 0 && run.words.length === 1 ? await nearRegistered(s, run.text) : [];
    if (fits.length === 0 || fits.length > MOST_OFFERED) continue;
    taken.push(run);
    for (const f of fits.slice(0, MOST_OFFERED - offers.length)) {
      offers.push({ bundle: f.bundle, asked: run.text, question: respelled(intent.question, run, asName(f.word)) });
      entities.push(offered(f.bundle, accepts));
    }
  }
  if (offers.length === 0) return undefined;
  const asked = [...new Set(offers.map((o) => o.asked))].join('", "');
  s.ctx.emit({ stage: 'ambiguity', by: 'registry', message: `no name written with capitals; "${asked}" may be ${offers.map((o) => o.bundle.label).join('; ')}; asking, nothing read on the guess` });
  return clarifyName(s, intent, { code: 'did_you_mean', asked, why: 'lower_case', offered: entities }, offers);
}

/** Registered names (exactly, one word) within a typo's reach of the word, nearest first; none for a short word. */
async function nearRegistered(s: RunState, word: string): Promise<Array<{ bundle: IdentityBundle; word: string }>> {
  const max = typoBound(word);
  if (max === 0 || !s.ctx.registry.nearWords) return [];
  const out: Array<{ bundle: IdentityBundle; word: string }> = [];
  for (const near of s.ctx.registry.nearWords(word, max)) {
    if (near === word) continue;
    for (const bundle of await resolveName(s.ctx.registry, near, {}, s.ctx)) if (bundle.match === 'exact') out.push({ bundle, word: near });
    if (out.length > MOST_OFFERED) break;
  }
  return out;
}

/** A capitalised name no registered name holds: the registered names a typo of it may be. */
async function typoOf(s: RunState, intent: Intent, run: WordRun, asked: string, accepts: readonly string[]): Promise<AskResult | undefined> {
  const fits = await nearRegistered(s, run.text);
  if (fits.length === 0 || fits.length > MOST_OFFERED) return undefined;
  s.ctx.emit({ stage: 'ambiguity', by: 'registry', message: `no registered name is "${asked}"; near it: ${fits.map((f) => f.bundle.label).join('; ')}; asking, nothing read on the guess` });
  const offers = fits.map((f) => ({ bundle: f.bundle, asked, question: respelled(intent.question, run, asName(f.word)) }));
  return clarifyName(s, intent, { code: 'did_you_mean', asked, why: 'no_candidate', offered: fits.map((f) => offered(f.bundle, accepts)) }, offers);
}

/**
 * A word of the question mixing Latin letters with look-alikes of another script ("Teslа" with a
 * Cyrillic "а"), whose Latin spelling is a registered name: asked before anything is planned, since
 * the words as written mislead every later step. Undefined when the question has no such word.
 */
export async function lookalikeName(s: RunState, intent: Intent): Promise<AskResult | undefined> {
  if (s.req.resume) return undefined;
  const offers: NameOffer[] = [];
  const entities: OfferedEntity[] = [];
  let asked = '';
  for (const w of questionWords(intent.question)) {
    const latin = latinLookalike(w.text.replace(/['’]s$/i, ''));
    if (!latin || !mayName({ ...w, bare: latin.toLowerCase() })) continue;
    const bundles = await resolveName(s.ctx.registry, latin, {}, s.ctx);
    const exact = bundles.filter((b) => b.match === 'exact');
    const fits = exact.length ? exact : bundles.filter((b) => b.match === 'prefix');
    if (fits.length === 0 || fits.length > MOST_OFFERED) continue;
    asked = w.text.replace(/['’]s$/i, '');
    for (const b of fits) {
      offers.push({ bundle: b, asked, question: respelled(intent.question, { words: [w], possessive: w.possessive }, latin) });
      entities.push(offered(b, null));
    }
    break;
  }
  if (offers.length === 0) return undefined;
  s.ctx.emit({ stage: 'ambiguity', by: 'registry', message: `"${asked}" mixes letters of another script; written in Latin letters it names ${offers.map((o) => o.bundle.label).join('; ')}; asking` });
  return clarifyName(s, intent, { code: 'did_you_mean', asked, why: 'lookalike_letters', offered: entities }, offers);
}
