// The offline interpreter's grant readings that the grant executor relies on (additive rules in
// src/understand/offline/grant-cues.ts): a funder's largest recipients, giving to a place or a cause,
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

// Phrasings written for this file (not the examples): each names the direction by what it
// makes its subject, and each must map to the traversal that answers it.
describe('offline grant readings: direction from what the question makes its subject', () => {
  it.each([
    // forward: the funder gives
    ['How much did the Kresge Foundation give away in 2024?', { direction: 'forward', entity: 'Kresge Foundation' }],
    ['Who did the Gund Foundation support?', { direction: 'forward', entity: 'Gund Foundation' }],
    ['Which organizations has the Kellogg Foundation funded?', { direction: 'forward', entity: 'Kellogg Foundation' }],
    ['Which nonprofits in Ohio did the Nord Family Foundation fund?', { direction: 'forward', entity: 'Nord Family Foundation', geography: { within: 'Ohio' } }],
    ['Grants from the Hudson-Webber Foundation', { direction: 'forward', entity: 'Hudson-Webber Foundation' }],
    ["The McGregor Fund's grantees", { direction: 'forward', entity: 'McGregor Fund', attribute: 'recipients' }],
    ['Who got the most money from the Frey Foundation?', { direction: 'forward', entity: 'Frey Foundation', attribute: 'recipients', order: 'desc' }],
    ['What did the Skillman Foundation fund for youth development?', { direction: 'forward', entity: 'Skillman Foundation', attribute: 'youth development' }],
    ['How much has the Dekko Foundation given to Ball State University?', { direction: 'forward', entity: 'Dekko Foundation', attribute: 'Ball State University' }],
    // reverse: the recipient receives
    ['Where does Heal the Bay get its funding?', { direction: 'reverse' }],
    ['What grants did Habitat for Humanity Detroit receive?', { direction: 'reverse' }],
    ['Who are the biggest donors to Detroit Public Television?', { direction: 'reverse', entity: 'Detroit Public Television' }],
    ['Grants given to Focus Hope', { direction: 'reverse', entity: 'Focus Hope' }],
    ['Who gave the most to Gleaners Community Food Bank?', { direction: 'reverse' }],
    // the whole graph
    ['Which foundations gave the most money?', { direction: 'population', entity: null }],
    ['Which grantees received the most?', { direction: 'population', entity: null, attribute: 'recipients' }],
    ['How much grant money was given to organizations in Ohio?', { direction: 'population', geography: { within: 'Ohio' } }],
  ])('%s', async (q, expected) => {
    const i = await read(q);
    expect(i.shape).toBe('grant_graph');
    expect(i).toMatchObject(expected);
  });

  it.each([
    // public money and other superlatives are not the grant graph
    'Which states received the most federal grants?',
    'Which foundation paid the most officer compensation?',
    'Which hospital received the most money from Medicare?',
    'Which funding opportunity has the highest award ceiling?',
    'How much did Microsoft pay in 2023?',
    'What did Apple pay in 2023?',
    'What was Apple\'s total revenue in 2023?',
  ])('not a grant question: %s', async (q) => {
    const u = await understand(q, { interpreter: 'offline' });
    expect(u.status === 'understood' ? u.intent.shape : null).not.toBe('grant_graph');
  });
});
