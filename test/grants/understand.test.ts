// The offline interpreter's grant readings that the grant executor relies on (additive rules in
// src/understand/offline/shape.ts): a funder's largest recipients, giving to a place or a cause,
// and a name with "grants" whose direction the question leaves open.
import { describe, expect, it } from 'vitest';
import { understand } from '../../src/understand/index.ts';

const read = async (q: string) => {
  const u = await understand(q, { interpreter: 'offline' });
  if (u.status !== 'understood') throw new Error(u.reason);
  return u.intent;
};

describe('offline grant readings', () => {
  it.each([
    ['What are the largest recipients of the National Fish and Wildlife Foundation?', { direction: 'forward', entity: 'National Fish and Wildlife Foundation', attribute: 'recipients', order: 'desc' }],
    ['Who are the largest grant recipients?', { direction: 'population', entity: null, attribute: 'recipients' }],
    ['How much did the Brookby Foundation give to organizations in Michigan?', { direction: 'forward', entity: 'Brookby Foundation', geography: { level: null, within: 'Michigan' } }],
    ['How much did the Mott Foundation give to education?', { direction: 'forward', entity: 'Mott Foundation', attribute: 'education' }],
    ['Ford Foundation grants', { direction: null, entity: 'Ford Foundation' }],
  ])('%s', async (q, expected) => {
    const i = await read(q);
    expect(i.shape).toBe('grant_graph');
    expect(i).toMatchObject(expected);
  });
});
