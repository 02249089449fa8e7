/**
 * Entity ambiguity in the offline interpreter: a bare name that is ambiguous in general is reported
 * with 2–5 candidates (never guessed); a qualified name or a cue in the question settles it; the
 * gazetteer is general knowledge, so it holds no catalog name (the blindness test scans it too).
 */
import { describe, expect, it } from 'vitest';
import { AMBIGUOUS_NAMES, readName } from '../../src/understand/offline/ambiguous-names.ts';
import { interpretOffline } from '../../src/understand/offline/interpret.ts';
import type { Intent } from '../../src/understand/intent.ts';

function intentOf(q: string): Intent {
  const u = interpretOffline(q);
  if (u.status !== 'understood') throw new Error(`expected an intent for "${q}", got: ${u.reason}`);
  return u.intent;
}

describe('offline entity ambiguity', () => {
  it.each([
    ['What is the poverty rate in Springfield?', 'Springfield', ['Springfield, Illinois', 'Springfield, Massachusetts', 'Springfield, Missouri']],
    ['What is the median household income in Washington?', 'Washington', ['Washington (state)', 'Washington, D.C.']],
    ['What is the population of Georgia?', 'Georgia', ['Georgia (U.S. state)', 'Georgia (country)']],
    ["What was Delta's revenue in 2023?", 'Delta', ['Delta Air Lines, Inc.', 'Delta Apparel, Inc.']],
    ["What was Ford's net income in 2023?", 'Ford', ['Ford Motor Company', 'Ford Foundation']],
  ])('%s → ambiguous %s', (q, entity, candidates) => {
    const i = intentOf(q);
    expect(i).toMatchObject({ entity, entity_status: 'ambiguous', entity_candidates: candidates });
    const u = interpretOffline(q);
    expect(u.status === 'understood' && u.notes?.some((n) => n.includes('names several entities'))).toBe(true);
  });

  it.each([
    ['What is the median household income in the state of Washington?', 'Washington', 'Washington (state)'],
    ['How many counties does Georgia have?', 'Georgia', 'Georgia (U.S. state)'],
    ['What is the tuition at Columbia?', 'Columbia', 'Columbia University'],
  ])('a cue settles it: %s', (q, entity, canonical) => {
    expect(intentOf(q)).toMatchObject({ entity, canonical_entity: canonical, entity_status: 'resolved', entity_candidates: [] });
  });

  it.each([
    ['What is the enrollment at Georgia Tech?', 'Georgia Tech'],
    ['List NSF grants to the University of Washington.', 'University of Washington'],
    ['What is the coronary heart disease prevalence in Jefferson County, Alabama?', 'Jefferson County, Alabama'],
    ["What was Apple's revenue in 2019?", 'Apple'],
  ])('a qualified or unlisted name stays resolved: %s', (q, entity) => {
    expect(intentOf(q)).toMatchObject({ entity, entity_status: 'resolved', entity_candidates: [] });
  });

  it('never flags the members of a comparison', () => {
    const i = intentOf("Compare Tesla and Ford's net income in 2022.");
    expect(i).toMatchObject({ shape: 'comparison', entity_status: 'none', entities: ['Tesla', 'Ford'] });
  });

  it('keeps every gazetteer entry within the schema: 2 to 5 distinct candidates, cues pointing at one of them', () => {
    for (const [name, e] of AMBIGUOUS_NAMES) {
      expect(e.candidates.length, name).toBeGreaterThanOrEqual(2);
      expect(e.candidates.length, name).toBeLessThanOrEqual(5);
      expect(new Set(e.candidates).size, name).toBe(e.candidates.length);
      for (const [, i] of e.cues ?? []) expect(e.candidates[i], name).toBeDefined();
    }
    expect(readName('Cupertino', 'What is the population of Cupertino?')).toEqual({ status: 'unknown' });
  });
});
