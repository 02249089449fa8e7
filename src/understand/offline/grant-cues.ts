/**
 * Grant-graph questions from the question's surface: who gave to whom, and which way the question
 * runs. Direction decides the traversal, so it is read before any other shape.
 *
 * Directions, by what the question makes its subject:
 * - forward: a funder gives ("What did X fund?", "grants made by X", "How much did X give?",
 *   "X's grantees", "Who received the most from X?" — X's recipients ranked);
 * - reverse: a recipient receives ("Who funds X?", "grants to X", "X's funders", "What grants did
 *   X receive?", "the largest funders of X");
 * - intersection: "both" with a giving verb;
 * - population: the whole graph ranked or placed ("the largest funders", "Which organizations
 *   received the most grant money?", "How much went to organizations in Michigan?").
 * A name with "grants" and no verb ("Ford Foundation grants") leaves the direction open: the
 * executor reads both and asks or discloses.
 *
 * Public money (federal grants, agency awards, contracts) is not the grant graph, which holds
 * private foundations' filings: those questions are left to the other shapes. A superlative over
 * something that is not grant money ("paid the most officer compensation") is not a grant question.
 */
import type { ShapeDecision } from './shape.ts';

const FUND = '(?:fund|funds|funded|support|supports|gives?\\s+money\\s+to|gave\\s+(?:money|grants)\\s+to|donates?\\s+to|grants?\\s+to)';
/** A verb of giving, in any tense a question uses. */
const GIVE = '(?:give|gives|gave|given|grant|grants|granted|fund|funds|funded|support|supports|supported|donate|donates|donated|award|awards|awarded|pay|pays|paid|contribute|contributes|contributed|distribute|distributes|distributed)';
/** The same verbs as a past participle ("has X given", "have they funded"): "has the highest award" is a noun. */
const GIVEN = '(?:given|granted|funded|supported|donated|awarded|paid|contributed|distributed)';
const RECEIVE = '(?:receive|receives|received|get|gets|got|gotten|obtain|obtains|obtained)';
/** Nouns that make money grants (not a budget, a contract or a price). */
const GRANT_NOUN = /\b(grants?|grant\s+money|grantees?|grant\s?makers?|funders?|donors?|donations?|philanthrop\w+|foundations?)\b/i;
/** Members a population of recipients is named by. */
const MEMBERS = '(?:organi[sz]ations?|recipients?|grantees?|nonprofits?|non-profits?|charities|groups|causes)';
const PUBLIC_MONEY = /\b(federal|government|governments|agency|agencies|contracts?|congress\w*|state\s+aid|taxpayers?|opportunit(?:y|ies))\b/i;
/** What may follow "gave the most" in a grant question: nothing, money words, a recipient, a year (not "officer compensation"). */
const GRANT_TAIL = /^\s*(?:money|grants?|grant\s+money|funding|dollars|in\s+grants|in\s+(?:the\s+)?grant\s+graph|overall|in\s+total)?\s*(?:to\s+.+?)?\s*(?:in\s+\d{4})?\s*[?.!]*\s*$/i;
/** A funder named by what funders are called. */
const FUNDER_NAME = /\bfrom\s+(?:the\s+)?[^?]*\b(foundation|fund|trust|endowment|philanthropies)\b/i;

const exhaustive = { shape: 'grant_graph' as const, quantifier: 'exhaustive' as const };

/**
 * Whether the question is about giving money away, not paying for something: a grant word, or a
 * verb that only means giving. "Pay", "award", "support" alone do not ("How much did Microsoft pay?").
 */
const giving = (q: string): boolean => GRANT_NOUN.test(q) || /\b(give|gives|gave|given|giving|donat\w*|granted|fund|funds|funded)\b/i.test(q);

export function grantDecision(q: string): ShapeDecision | null {
  if (PUBLIC_MONEY.test(q)) return null;
  const re = (s: string) => new RegExp(s, 'i');

  // two funders, one set of recipients
  if (re(`\\bboth\\b.*\\b${FUND}\\b|\\b${FUND}\\b.*\\bboth\\b`).test(q)) return { ...exhaustive, direction: 'intersection', rule: 'both-fund' };

  // "the largest funders of X" ranks X's funders (reverse); "the largest funders" ranks the graph's
  const largestFunders = /\b(largest|biggest|top|leading|main|major)\s+(?:\d+\s+)?(grant\s?makers|funders|donors|supporters|philanthrop\w+)\b(\s+(?:of|to|for|behind)\s+\S)?/i.exec(q);
  if (largestFunders) return largestFunders[3] ? { ...exhaustive, direction: 'reverse', rule: 'largest-funders-of' } : { ...exhaustive, direction: 'population', rule: 'largest-funders' };
  // "largest recipients of X": X's recipients ranked (forward); without "of X", every recipient (population)
  if (/\b(largest|biggest|top|leading|main|major)\s+(?:\d+\s+)?(recipients|grantees)\s+of\b/i.test(q)) return { ...exhaustive, direction: 'forward', order: 'desc', attribute: 'recipients', rule: 'largest-recipients-of' };
  if (/\b(largest|biggest|top|leading)\s+(?:\d+\s+)?(grant\s+)?(recipients|grantees)\b/i.test(q)) return { ...exhaustive, direction: 'population', order: 'desc', attribute: 'recipients', rule: 'largest-recipients' };

  // "Who gave the most (to X)?": funders ranked — X's (reverse) or the graph's (population)
  const gaveMost = re(`^\\s*(?:who|which\\s+(?:foundations?|funders?|donors?|grant\\s?makers?|organi[sz]ations?))\\s+${GIVE}\\s+(?:(?:the\\s+)?most|more\\s+than\\s+any)\\b(.*)$`).exec(q);
  if (gaveMost && GRANT_TAIL.test(gaveMost[1]!)) return /\bto\s+\S/i.test(gaveMost[1]!) ? { ...exhaustive, direction: 'reverse', rule: 'gave-most-to' } : { ...exhaustive, direction: 'population', rule: 'gave-most' };
  // "Who received the most (from X)?": recipients ranked — X's (forward) or the graph's (population)
  const gotMost = re(`\\b${RECEIVE}\\s+(?:the\\s+)?most\\b(.*)$`).exec(q);
  if (gotMost && (GRANT_NOUN.test(q.replace(FUNDER_NAME, '')) || FUNDER_NAME.test(q))) {
    return /\bfrom\s+\S/i.test(gotMost[1]!)
      ? { ...exhaustive, direction: 'forward', order: 'desc', attribute: 'recipients', rule: 'received-most-from' }
      : { ...exhaustive, direction: 'population', order: 'desc', attribute: 'recipients', rule: 'received-most' };
  }

  // "How much did X give to organizations in Michigan / to education / to Y?": X's grants, by place, cause or recipient
  const giveTo = re(`\\bhow\\s+much\\s+(?:money\\s+)?(?:did|does|has|have)\\s+.+?\\s+${GIVE}\\s+(?:in\\s+grants\\s+)?(?:to|for)\\s+(.+?)\\s*\\??$`).exec(q);
  if (giveTo && giving(q)) {
    const to = giveTo[1]!.replace(/^(?:the\s+)?(?:organi[sz]ations?|nonprofits?|charities|groups|recipients)\s+(?:in|for|working\s+(?:in|on))\s+/i, '');
    // as written: a recipient's name keeps its case (a cause or a place reads the same either way)
    return { ...exhaustive, direction: 'forward', attribute: to.replace(/^the\s+/i, ''), rule: 'how-much-give-to' };
  }
  // "How much (grant money) went to organizations in Michigan?": the graph's grants to a place
  if (re(`\\b(?:went|go|goes|flowed|flows|was\\s+(?:given|paid|granted)|were\\s+(?:given|paid|made|awarded))\\s+to\\s+(?:the\\s+)?${MEMBERS}\\s+in\\s+\\S`).test(q) && (GRANT_NOUN.test(q) || /\bhow\s+much\b/i.test(q))) {
    return { ...exhaustive, direction: 'population', rule: 'went-to-place' };
  }
  // "How much did X give (away) (in 2023)?": X's grants in total
  if (giving(q) && re(`^\\s*how\\s+much\\s+(?:money\\s+|in\\s+grants\\s+)?(?:did|does|has|have)\\s+.+?\\s+${GIVE}(?:\\s+(?:away|out))?(?:\\s+in\\s+grants)?(?:\\s+(?:in|during)\\s+(?:fiscal\\s+|tax\\s+)?(?:year\\s+)?\\d{4})?\\s*\\??\\s*$`).test(q)) {
    return { ...exhaustive, direction: 'forward', rule: 'how-much-give' };
  }

  // "Ford Foundation grants", "the Kresge Foundation's grants": a name and the word grants, no verb (direction left open)
  const nameGrants = /^\s*(?:the\s+)?([A-Z][\w.&'-]*(?:\s+(?:[A-Z&][\w.&'-]*|of|and|for))*?)(?:['’]s)?\s+grants\s*\??\s*$/.exec(q);
  if (nameGrants) return { ...exhaustive, subject: nameGrants[1]!, rule: 'name-grants-direction-open' };

  // reverse: the recipient is the subject
  if (re(`^\\s*(who|which\\s+(?:foundations?|funders?|donors?|grant\\s?makers?|organi[sz]ations?))\\s+(?:${FUND}|${GIVE}\\s+(?:money|grants?|funding|donations?)?\\s*to)\\b`).test(q)) return { ...exhaustive, direction: 'reverse', rule: 'who-funds' };
  if (re(`^\\s*(?:list|show(?:\\s+me)?|what\\s+(?:are|were))?\\s*(?:all\\s+)?(?:the\\s+)?(?:grants?|funding|donations?|gifts?|grant\\s+money)\\s+(?:(?:given|paid|made|awarded|sent)\\s+)?to\\s+(?!(?:the\\s+)?${MEMBERS}\\s+in\\b)`).test(q)) return { ...exhaustive, direction: 'reverse', rule: 'grants-to' };
  if (/\b(funders?|donors?|supporters?|grantors?|backers?|benefactors?)\s+(?:of|to|behind)\s+\S/i.test(q) || /['’]s\s+(funders|donors|supporters|backers|benefactors)\b/i.test(q)) return { ...exhaustive, direction: 'reverse', rule: 'funders-of' };
  if (/\bwhere\s+(?:does|do|did)\s+.+?\s+get\s+(?:its|their|his|her)?\s*(?:funding|money|grants?|support)\b/i.test(q)) return { ...exhaustive, direction: 'reverse', rule: 'where-get-funding' };
  if (re(`\\b(?:grants?|money|funding|donations?)\\s+(?:did|does|do|has|have)\\s+.+?\\s+${RECEIVE}\\b`).test(q)
    || re(`\\b(?:did|does|has|have)\\s+.+?\\s+${RECEIVE}\\s+(?:any\\s+)?(?:grants?|money|funding|donations?)\\b`).test(q)
    || re(`\\bhow\\s+much\\s+(?:grant\\s+money|money|funding|in\\s+grants)\\s+(?:did|does|has|have)\\s+.+?\\s+${RECEIVE}\\b`).test(q)) return { ...exhaustive, direction: 'reverse', rule: 'received-grants' };

  // forward: the funder is the subject (of a verb that gives, not one that pays for something)
  if (!giving(q)) return null;
  // "What did X fund in education?": X's grants for a cause (a place after "in" is read as the place)
  const forCause = /^\s*what\s+(?:did|does|do|has|have)\s+(.+?)\s+(?:fund|support|give\s+(?:grants?\s+|money\s+)?to|grant\s+money\s+to|give\s+money\s+for)\s+(?:in|for|on)\s+(?!\d)(.+?)\s*\??\s*$/i.exec(q);
  if (forCause) return { ...exhaustive, direction: 'forward', attribute: forCause[2]!.replace(/^the\s+/i, ''), rule: 'funded-for-cause' };
  const fromName = /\b(?:grants?|donations?|gifts?)\s+from\s+(?:the\s+)?(\S)/i.exec(q);
  if (/\b(grants?|money)\s+(?:did|does|do|has|have)\s+.+\b(make|give|award|pay)\b/i.test(q)
    || re(`\\b(?:which|what)\\s+\\w+(?:\\s+\\w+){0,3}\\s+(?:(?:does|do|did)\\s+.+?\\s+${GIVE}|(?:has|have)\\s+.+?\\s+${GIVEN})\\b`).test(q)
    || re(`^\\s*(?:who|what)\\s+(?:does|do|did|has|have)\\s+.+?\\s+(?:${FUND}|${GIVE}\\s+(?:money|grants?)\\s+to|make\\s+grants\\s+to|${GIVE})\\s*(?:in\\s+\\d{4}\\s*)?\\??\\s*$`).test(q)
    || re(`\\b(got|received|receive|get)\\s+grants?\\s+from\\b`).test(q)
    || /\bsend\s+its\s+grants\b|\bgrants?\s+(?:made|given|awarded|paid)\s+by\b/i.test(q)
    || (fromName !== null && /\p{Lu}/u.test(fromName[1]!))
    || /['’]s\s+(grantees|recipients|grant\s+recipients|grantmaking|giving)\b/i.test(q)
    || /\b(grantees|grant\s+recipients)\s+of\s+\S/i.test(q)) {
    const ranked = /['’]s\s+(grantees|recipients|grant\s+recipients)\b|\b(grantees|grant\s+recipients)\s+of\s+\S/i.test(q);
    return { ...exhaustive, direction: 'forward', ...(ranked ? { attribute: 'recipients' } : {}), rule: 'grants-made-by' };
  }
  return null;
}
