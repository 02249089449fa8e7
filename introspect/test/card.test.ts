import { describe, expect, it } from 'vitest';
import { IntrospectError, mine, seedCard, toCard } from '../index.ts';
import { EX, PEOPLE, turtle } from './graphs.ts';

const ix = mine(turtle(PEOPLE));

describe('schema card', () => {
  it('never exceeds its budget, for every budget from the minimum up', () => {
    let minimum = 0;
    for (let budget = 1; budget <= 2500; budget += 7) {
      try {
        const card = toCard(ix, budget);
        expect(card.length).toBeLessThanOrEqual(budget);
        if (!minimum) minimum = budget;
      } catch (e) {
        expect((e as IntrospectError).code).toBe('budget-too-small');
        expect(minimum).toBe(0); // once a budget works, every larger one must work too
      }
    }
    expect(minimum).toBeGreaterThan(0);
  });

  it('puts the most informative lines first and says what it elided', () => {
    const full = toCard(ix, 5000);
    expect(full).not.toContain('elided');
    expect(full.indexOf('ex:Person (4)')).toBeLessThan(full.indexOf('ex:Company (1)'));
    expect(full).toContain('- ex:Person ex:worksFor ex:Company: 2');
    expect(full).toContain('Prefixes: ex: <http://ex.org/>');
    const small = toCard(ix, 300);
    expect(small).toMatch(/\[elided \d+ of \d+ lines for the 300-char budget/);
    expect(small).toContain('ex:Person (4)');
  });

  it('is deterministic', () => {
    expect(toCard(mine(turtle(PEOPLE)), 900)).toBe(toCard(ix, 900));
  });

  it('refuses a budget too small to say anything, giving the minimum', () => {
    expect(() => toCard(ix, 20)).toThrow(/use at least \d+/);
  });

  it('describes an empty graph plainly', () => {
    expect(toCard(mine(turtle('')), 200)).toBe('Empty graph: 0 triples, nothing to describe.');
  });

  it('scopes to seeds', () => {
    const card = seedCard(ix, [`${EX}Company`], 2000);
    expect(card).toContain('Scope: <http://ex.org/Company>');
    expect(card).toContain('ex:Company (1)');
    expect(card).not.toContain('ex:Person (4)');
    expect(card).toContain('ex:founded');
    expect(card).not.toContain('ex:knows');
  });
});
