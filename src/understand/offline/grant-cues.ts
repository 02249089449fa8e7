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
import { causeMatch } from '../../grants/cause.ts';

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
const GRANT_TAIL = /^\s*(?:(?:money|grants?|grant\s+money|funding|dollars|in\s+grants|in\s+(?:the\s+)?grant\s+graph|overall|in\s+total)\s*){0,2}(?:to\s+.+?)?\s*(?:in\s+\d{4})?\s*[?.!]*\s*$/i;
/** A funder named by what funders are called. */
const FUNDER_NAME = /\bfrom\s+(?:the\s+)?[^?]*\b(foundation|fund|trust|endowment|philanthropies)\b/i;

/** Words before "grants" that say which or how many, not what for. */
const NOT_CAUSE = /^(?:all|any|the|its|their|recent|latest|last|new|paid|total|largest|biggest|top|main|major|small|smaller|smallest|future|approved|cash|what|which|how|many|many\s+\w+|\w+\s+(?:the|all|of))$/i;

/** "organizations in Michigan", "Michigan organizations" → "Michigan"; a recipient's name or a cause as written. */
/** Words for those who pursue a cause, beside the cause's own words ("environmental groups", "arts programs"). */
const CAUSE_BEARERS = new Set(['groups', 'group', 'organizations', 'organisations', 'causes', 'cause', 'programs', 'programmes', 'projects', 'initiatives', 'nonprofits', 'charities', 'efforts', 'work', 'care', 'services', 'research', 'and']);

/** Whether every word names a cause (src/grants/cause.ts) or those who pursue one: a recipient's name has other words. */
function causeWordsOnly(words: string): boolean {
  const ws = words.toLowerCase().split(/[\s-]+/).filter(Boolean);
  return ws.some((w) => causeMatch(w)) && ws.every((w) => CAUSE_BEARERS.has(w) || causeMatch(w) !== null);
}

function placeOrName(to: string): string {
  return to.replace(/^(?:the\s+)?(?:organi[sz]ations?|nonprofits?|charities|groups|recipients)\s+(?:in|for|working\s+(?:in|on))\s+/i, '')
    .replace(/^(?:the\s+)?(.+?)\s+(?:organi[sz]ations?|nonprofits?|charities|groups|recipients)$/i, '$1')
    .replace(/^the\s+/i, '');
}

const exhaustive = { shape: 'grant_graph' as const, quantifier: 'exhaustive' as const };

/**
 * Whether the question is about giving money away, not paying for something: a grant word, or a
 * verb that only means giving. "Pay", "award", "support" alone do not ("How much did Microsoft pay?").
 */
const giving = (q: string): boolean => GRANT_NOUN.test(q) || /\b(give|gives|gave|given|giving|donat\w*|granted|fund|funds|funded)\b/i.test(q);

/**
 * The grant reading of a question, with the organization's name as typed when no capitalised name
 * is in it ("the joyce foundation's grantees", "mott foundation grants"): the interpreter uses
 * `subject` only when the mention finder found no name.
 */
export function grantDecision(q: string): ShapeDecision | null {
  const d = grantReading(q);
  if (!d || d.subject || d.named || d.direction === 'population' || d.direction === 'intersection') return d;
  const typed = typedName(q);
  return typed ? { ...d, subject: typed } : d;
}

/** Words that head an organization's name: the end of a name typed in lower case. */
const HEAD = /^(foundation|fund|trust|endowment|philanthropies|university|college|council|alliance|society|institute|center|centre|club|clubs|league|association|federation|museum|coalition|conservancy|way)$/;
/** Words a name typed in lower case cannot contain: the question's own words. */
const NOT_NAME = new Set(['what', 'which', 'who', 'whom', 'how', 'much', 'many', 'did', 'does', 'do', 'has', 'have', 'had', 'is', 'are', 'was', 'were', 'the', 'a', 'an',
  'from', 'by', 'to', 'in', 'give', 'gives', 'gave', 'given', 'grant', 'grants', 'granted', 'fund', 'funds', 'funded', 'support', 'supports', 'supported', 'donate', 'donated',
  'money', 'made', 'make', 'makes', 'list', 'show', 'me', 'all', 'receive', 'received', 'get', 'got', 'its', 'their', 'largest', 'biggest', 'top', 'funders', 'donors',
  'grantees', 'recipients', 'did', 'any', 'ever', 'paid', 'pay', 'awarded', 'away', 'total', 'when', 'where', 'why', 'for', 'of', 'and', 'or', 'with', 'at', 'on']);

/**
 * A name typed without capitals: the words before a head word ("joyce foundation"), and an "of …"
 * after it ("community foundation of lorain county"), up to a word of the question itself.
 */
function typedName(q: string): string | undefined {
  if (/\p{Lu}/u.test(q.replace(/^\s*\p{Lu}/u, ''))) return undefined;
  const words = q.toLowerCase().replace(/[?.!,]/g, ' ').split(/\s+/).filter(Boolean).map((w) => w.replace(/['’]s$/, ''));
  const head = words.findIndex((w, i) => HEAD.test(w) && i > 0 && !NOT_NAME.has(words[i - 1]!));
  if (head < 0) return undefined;
  let a = head;
  while (a > 0 && !NOT_NAME.has(words[a - 1]!)) a--;
  let b = head;
  if (words[b + 1] === 'of' || words[b + 1] === 'for') {
    let c = b + 2;
    if (words[c] === 'the') c++;
    const from = c;
    while (c < words.length && !NOT_NAME.has(words[c]!) && !/^\d{4}$/.test(words[c]!)) c++;
    if (c > from) b = c - 1;
  }
  return words.slice(a, b + 1).join(' ');
}

/** An average grant asked: "the average grant size", "mean grant", "how much per grant on average". */
const AVERAGE = /\b(?:average|mean|typical)\s+(?:size\s+|amount\s+|value\s+)?(?:of\s+(?:a\s+|an\s+|the\s+|its\s+|their\s+)?)?(?:single\s+|individual\s+)?(?:grant|grants|gift|gifts|donation|donations)\b|\b(?:per\s+grant|grants?\s+on\s+average|on\s+average\s+per\s+grant)\b/i;
/** The largest single grants asked ("the biggest grant", "the 10 largest grants"), not the largest grantees or grantmakers. */
const LARGEST_GRANT = /\b(?:largest|biggest|top|highest|single\s+largest|single\s+biggest|smallest|lowest|tiniest)\s+(?:\d+\s+)?(?:single\s+|individual\s+)?(?:grant|grants|gift|gifts|donation|donations)\b(?!\s*(?:-|\s)(?:recipients?|makers?|money|funders?|grantees?))/i;
/** A ranking by the number of grants, not the amount. */
const BY_COUNT = /\b(?:the\s+)?(?:most|fewest|largest\s+number\s+of|highest\s+number\s+of|greatest\s+number\s+of|most\s+number\s+of)\s+(?:individual\s+|separate\s+)?grants\b/i;
/** A capitalised name after the opening word, or a name typed with its head word. */
const hasName = (q: string): boolean => /\p{Lu}/u.test(q.replace(/^\s*\p{Lu}/u, '')) || typedName(q) !== undefined;
/** Words that end a funder's name (a list of two funders is split only where each part reads as a name). */
const FUNDER_HEAD = /\b(?:foundation|fund|trust|endowment|philanthropies|foundations)$/i;

/** "How much did A and B give to X?", "Who gave more to X, A or B?": two funders named, their totals side by side. */
function twoFunders(q: string): ShapeDecision | null {
  const strip = (x: string) => x.trim().replace(/^the\s+/i, '').replace(/['’]s$/, '');
  const pairOk = (a: string, b: string) => a.length > 0 && b.length > 0 && (FUNDER_HEAD.test(a) || (!/\s/.test(a) && /^\p{Lu}/u.test(a) && (!/\s/.test(b) || FUNDER_HEAD.test(b))));
  const sum = /^\s*how\s+much\s+(?:money\s+)?(?:did|do|have|has)\s+(?:the\s+)?(.+?)\s+(?:and|&)\s+(?:the\s+)?(.+?)\s+(?:(?:together|combined|each|both)\s+)?(?:give|gave|given|grant|granted|donate|donated|pay|paid|contribute|contributed)(?:\s+in\s+grants)?(?:\s+to\s+(.+?))?(?:\s+in\s+\d{4})?(?:\s+(?:together|combined|in\s+total|between\s+them))?\s*[?.!]*\s*$/iu.exec(q);
  if (sum && pairOk(strip(sum[1]!), strip(sum[2]!))) {
    return { ...exhaustive, direction: 'forward', funders: [strip(sum[1]!), strip(sum[2]!)], attribute: sum[3] ? placeOrName(sum[3]) : 'grants', rule: 'two-funders-gave' };
  }
  const more = /^\s*(?:who|which(?:\s+(?:foundation|funder|one|of\s+them))?)\s+(?:gave|gives|has\s+given|paid|pays|granted|donated|contributed)\s+more(?:\s+(?:money|in\s+grants))?(?:\s+to\s+(.+?)\s*[,:;]\s*|\s*[,:;]?\s*)(?:the\s+)?(.+?)\s+or\s+(?:the\s+)?(.+?)\s*[?.!]*\s*$/iu.exec(q);
  if (more && strip(more[2]!) && strip(more[3]!)) return { ...exhaustive, direction: 'forward', order: 'desc', funders: [strip(more[2]!), strip(more[3]!)], attribute: more[1] ? placeOrName(more[1]) : 'grants', rule: 'two-funders-gave-more' };
  const didMore = /^\s*(?:did|has|does)\s+(?:the\s+)?(.+?)\s+or\s+(?:the\s+)?(.+?)\s+(?:give|gave|given|pay|paid|grant|granted|donate|donated|contribute|contributed)\s+more(?:\s+(?:money|in\s+grants))?(?:\s+to\s+(.+?))?\s*[?.!]*\s*$/iu.exec(q);
  if (didMore) return { ...exhaustive, direction: 'forward', order: 'desc', funders: [strip(didMore[1]!), strip(didMore[2]!)], attribute: didMore[3] ? placeOrName(didMore[3]) : 'grants', rule: 'two-funders-did-more' };
  return null;
}

/** Average grants, the largest single grants, and rankings by count: which organization, if any, the question is about. */
function measuredReading(q: string): ShapeDecision | null {
  // a median, or funders ranked by their average: named so the executor refuses them, never read as the plain average
  if (/\bmedian\s+(?:size\s+|amount\s+)?(?:of\s+(?:a\s+|the\s+)?)?(?:grant|grants|gift|donation)s?\b/i.test(q)) return { ...exhaustive, direction: 'population', attribute: 'median grant', rule: 'median-grant' };
  if (/\b(?:largest|highest|biggest|smallest|lowest)\s+average\s+(?:grant|gift|donation)|\bby\s+average\s+grant\b/i.test(q)) return { ...exhaustive, direction: 'population', attribute: 'ranked by average grant', rule: 'ranked-by-average' };
  const avg = AVERAGE.exec(q);
  const big = avg ? null : LARGEST_GRANT.exec(q);
  const hit = avg ?? big;
  if (hit) {
    const attribute = avg ? 'average grant' : /^(?:smallest|lowest|tiniest)/i.test(hit[0]) ? 'smallest grants' : 'largest grants';
    const rule = avg ? 'average-grant' : 'largest-single-grants';
    const after = q.slice(hit.index + hit[0].length);
    const graphWide = /\b(?:in\s+(?:the\s+)?(?:grant\s+)?graph|overall|of\s+all|across\s+all|ever(?:\s+(?:made|given|paid|awarded))?\s*[?.!]*$|in\s+the\s+data(?:set)?)\b/i.test(q) || !hasName(q);
    if (graphWide && !/['’]s\s/.test(q.slice(0, hit.index + 1))) return { ...exhaustive, direction: 'population', attribute, rule: `${rule}-graph` };
    // who gave: "of / from / by X", "X's average grant", "does X give"; who got: "to X", "X received"
    const to = /\bto\s+(?:the\s+)?(\p{Lu}[\w.&'’-]*(?:\s+(?:[\p{Lu}&][\w.&'’-]*|of|and|for|the))*)/u.exec(after);
    // the "of" inside the recipient's name ("to the University of Chicago") does not name a funder
    const beside = to ? `${after.slice(0, to.index)} ${after.slice(to.index + to[0].length)}` : after;
    const from = /\b(?:from|by|of)\s+(?:the\s+)?(\p{Lu}[\w.&'’-]*(?:\s+(?:[\p{Lu}&][\w.&'’-]*|of|and|for|the))*)/u.exec(beside)
      ?? /\b(?:does|did|do|has|have)\s+(?:the\s+)?(\p{Lu}[\w.&'’-]*(?:\s+(?:[\p{Lu}&][\w.&'’-]*|of|and|for|the))*)\s+(?:give|make|award|pay|grant)\b/u.exec(q);
    const trim = (x: string) => x.replace(/\s+(?:of|and|for|the)$/i, '');
    const possessive = /['’]s\s+$/.test(q.slice(0, hit.index).replace(/\s*(?:the\s+)?$/i, ' ').replace(/\s+$/, ' ')) || /['’]s\s+(?:\w+\s+)?$/.test(q.slice(0, hit.index));
    if (to && (from || possessive)) return { ...exhaustive, direction: 'forward', ...(from ? { named: trim(from[1]!) } : {}), attribute: `${attribute} to ${trim(to[1]!)}`, rule: `${rule}-from-to` };
    if ((to || new RegExp(`\\b${RECEIVE}\\b`, 'i').test(after)) && !from) return { ...exhaustive, direction: 'reverse', ...(to ? { named: trim(to[1]!) } : {}), attribute, rule: `${rule}-to` };
    return { ...exhaustive, direction: 'forward', ...(from ? { named: trim(from[1]!) } : {}), attribute, rule: `${rule}-of` };
  }
  const count = BY_COUNT.exec(q);
  if (count && GRANT_NOUN.test(q)) {
    // "Which states / organizations did X make the most grants to?": X's recipients (or states) ranked by count
    const didX = /\b(?:did|does|has|have)\s+(?:the\s+)?(\p{Lu}[\w.&'’-]*(?:\s+(?:[\p{Lu}&][\w.&'’-]*|of|and|for|the))*)\s+(?:make|made|give|given|award|awarded|pay|paid|fund|funded)\b/u.exec(q);
    if (didX) return { ...exhaustive, direction: 'forward', order: 'desc', named: didX[1]!.replace(/\s+(?:of|and|for|the)$/i, ''), attribute: 'recipients by number of grants', rule: 'made-most-grants-to-whom' };
    const before = q.slice(0, count.index);
    const after = q.slice(count.index + count[0].length);
    const recipientsRanked = new RegExp(`\\b${RECEIVE}\\b`, 'i').test(before) || /\b(?:recipients?|grantees?|organi[sz]ations?|nonprofits?|charities|groups)\b/i.test(before) && !/\b(?:foundations?|funders?|donors?|grant\s?makers?)\b/i.test(before);
    if (recipientsRanked) {
      return /\bfrom\s+\S/i.test(after)
        ? { ...exhaustive, direction: 'forward', order: 'desc', attribute: 'recipients by number of grants', rule: 'most-grants-from' }
        : { ...exhaustive, direction: 'population', order: 'desc', attribute: 'recipients by number of grants', rule: 'received-most-grants' };
    }
    if (/^\s*(?:(?:made|given|paid|awarded)\s+)?to\s+(?:the\s+)?(?:organi[sz]ations?|nonprofits?|recipients?|groups|charities)\s+in\s+\S/i.test(after)) return { ...exhaustive, direction: 'population', attribute: 'funders by number of grants', rule: 'most-grants-in-place' };
    if (/^\s*(?:(?:made|given|paid|awarded)\s+)?to\s+\S/i.test(after)) return { ...exhaustive, direction: 'reverse', attribute: 'funders by number of grants', rule: 'most-grants-to' };
    return { ...exhaustive, direction: 'population', ...(/\bfewest\b/i.test(count[0]) ? { order: 'asc' as const } : {}), attribute: 'funders by number of grants', rule: 'made-most-grants' };
  }
  return null;
}

/** A capitalised name whose words include a word organizations are named by ("Council of State Governments"). */
const ORG_NAME = /\p{Lu}[\w'’.&-]*(?:\s+(?:of|and|for|the|on|&|\p{Lu}[\w'’.&-]*))*/gu;
const ORG_HEAD = /\b(?:Council|Foundation|Fund|Trust|Association|Society|Institute|University|College|League|Alliance|Center|Centre|Coalition|Conference|Network|Federation|Club|Museum)s?\b/;
/** The question without the organizations it names: "Governments" in "the Council of State Governments" is a name's word, not public money. */
const withoutOrgNames = (q: string): string => q.replace(ORG_NAME, (m) => (ORG_HEAD.test(m) ? ' ' : m));

/** An amount a question selects by ("more than $1 million", "over $100,000", "at least $50k"). */
const THRESHOLD = '(?:more\\s+than|greater\\s+than|over|above|at\\s+least|less\\s+than|fewer\\s+than|under|below|at\\s+most)\\s+(?:US\\s*)?\\$?\\s?\\d';

/**
 * Funders or recipients kept by what they gave or got (the interpreter reads the amount as the
 * intent's threshold): a recipient's funders ("Which funders gave more than $1 million to X?",
 * "Who gave X over $100,000?"), a funder's recipients ("Which organizations did X give more than
 * $50,000?", "Which grantees got over $1 million from X?"), a state's funders ("… to organizations in Michigan").
 */
function thresholdReading(q: string): ShapeDecision | null {
  if (!new RegExp(`\\b${THRESHOLD}`, 'i').test(q)) return null;
  const ql = q.replace(/^\s*\p{Lu}/u, (c) => c.toLowerCase());
  const who = '(?:who|(?:which|what)\\s+(?:foundations?|funders?|donors?|grant\\s?makers?|organi[sz]ations?))';
  const gaveTo = new RegExp(`^\\s*${who}\\s+(?:(?:has|have|had)\\s+)?${GIVE}\\s+(?:(?:grants?|money|funding)\\s+(?:of|worth|totall?ing)\\s+)?${THRESHOLD}.*?\\bto\\s+(?:the\\s+)?(.+?)\\s*(?:in\\s+\\d{4})?\\s*[?.!]*\\s*$`, 'iu').exec(q);
  if (gaveTo) {
    const to = gaveTo[1]!;
    if (new RegExp(`^${MEMBERS}\\s+in\\s+\\S`, 'i').test(to)) return { ...exhaustive, direction: 'population', attribute: 'funders', rule: 'funders-over-threshold-in-place' };
    return { ...exhaustive, direction: 'reverse', named: to, rule: 'funders-over-threshold' };
  }
  const gaveName = new RegExp(`^\\s*${who}\\s+(?:(?:has|have|had)\\s+)?${GIVE}\\s+(?:the\\s+)?(\\p{Lu}.*?)\\s+${THRESHOLD}`, 'u').exec(ql);
  if (gaveName) return { ...exhaustive, direction: 'reverse', named: gaveName[1]!, rule: 'funders-gave-name-over-threshold' };
  const didGive = new RegExp(`^\\s*(?:which|what)\\s+${MEMBERS}\\s+(?:did|does|has|have)\\s+(?:the\\s+)?(\\p{Lu}.*?)\\s+(?:${GIVE}|make\\s+grants\\s+(?:to|of))\\s+(?:(?:grants?|money)\\s+(?:of\\s+)?)?${THRESHOLD}`, 'u').exec(ql);
  if (didGive) return { ...exhaustive, direction: 'forward', order: 'desc', named: didGive[1]!, attribute: 'recipients', rule: 'recipients-over-threshold' };
  // "Which organizations in Michigan got more than $1 million from X?": X's recipients in that state, kept by the amount
  const placeOver = new RegExp(`^\\s*(?:which|what)\\s+(?:(\\p{Lu}[\\w.]*(?:\\s+\\p{Lu}[\\w.]*)*)\\s+${MEMBERS}|${MEMBERS}\\s+(?:in|from|based\\s+in)\\s+(?:the\\s+state\\s+of\\s+)?(\\p{Lu}[\\w.]*(?:\\s+\\p{Lu}[\\w.]*)*))\\s+(?:(?:have|has)\\s+)?${RECEIVE}\\s+(?:grants?\\s+(?:of\\s+)?|money\\s+)?${THRESHOLD}.*?\\bfrom\\s+(?:the\\s+)?(\\p{Lu}.*?)\\s*(?:in\\s+\\d{4})?\\s*[?.!]*\\s*$`, 'u').exec(ql);
  if (placeOver) return { ...exhaustive, direction: 'forward', named: placeOver[3]!, attribute: (placeOver[1] ?? placeOver[2])!, rule: 'place-recipients-over-threshold' };
  const gotFrom = new RegExp(`^\\s*(?:which|what)\\s+${MEMBERS}\\s+(?:(?:have|has)\\s+)?${RECEIVE}\\s+(?:grants?\\s+(?:of\\s+)?|money\\s+)?${THRESHOLD}.*?\\bfrom\\s+(?:the\\s+)?(\\p{Lu}.*?)\\s*(?:in\\s+\\d{4})?\\s*[?.!]*\\s*$`, 'u').exec(ql);
  if (gotFrom) return { ...exhaustive, direction: 'forward', order: 'desc', named: gotFrom[1]!, attribute: 'recipients', rule: 'recipients-got-over-threshold' };
  return null;
}

function grantReading(q: string): ShapeDecision | null {
  if (PUBLIC_MONEY.test(withoutOrgNames(q))) return null;
  const re = (s: string) => new RegExp(s, 'i');

  // an amount over (or under) which a funder or a recipient is kept: "Which funders gave more than $1 million to X?"
  const over = thresholdReading(q);
  if (over) return over;
  const qlow = q.replace(/^\s*\p{Lu}/u, (c) => c.toLowerCase());
  // "How many organizations in Michigan did the Joyce Foundation fund?", "Which nonprofits in Ohio did X support?": X's grants to a place
  const membersIn = new RegExp(`^\\s*(?:how\\s+many|which|what)\\s+${MEMBERS}\\s+(?:in|from|based\\s+in)\\s+(?:the\\s+state\\s+of\\s+)?(\\p{Lu}[\\w.]*(?:\\s+\\p{Lu}[\\w.]*)*)\\s+(?:did|does|do|has|have)\\s+(?:the\\s+)?(\\p{Lu}.*?)\\s+(?:${FUND}|${GIVE}|make\\s+grants\\s+to)\\b`, 'u').exec(qlow);
  if (membersIn) return { ...exhaustive, direction: 'forward', named: membersIn[2]!, attribute: membersIn[1]!, rule: 'members-in-place-funded' };
  // "Which Michigan organizations received grants from the Joyce Foundation?", "How many nonprofits in Ohio got money from X?"
  const placeGot = new RegExp(`^\\s*(?:how\\s+many|which|what)\\s+(?:(\\p{Lu}[\\w.]*(?:\\s+\\p{Lu}[\\w.]*)*)\\s+${MEMBERS}|${MEMBERS}\\s+(?:in|from|based\\s+in)\\s+(?:the\\s+state\\s+of\\s+)?(\\p{Lu}[\\w.]*(?:\\s+\\p{Lu}[\\w.]*)*))\\s+(?:have\\s+|has\\s+)?${RECEIVE}\\s+(?:any\\s+|the\\s+most\\s+)?(?:grants?\\s+|money\\s+|funding\\s+|grant\\s+money\\s+)?from\\s+(?:the\\s+)?(\\p{Lu}.*?)\\s*(?:in\\s+\\d{4})?\\s*[?.!]*\\s*$`, 'u').exec(qlow);
  if (placeGot) return { ...exhaustive, direction: 'forward', named: placeGot[3]!, attribute: (placeGot[1] ?? placeGot[2])!, rule: 'place-members-got-from' };
  // the funders two recipients share: "Which funders do X and Y have in common?"
  if (/\b(?:funders?|donors?|foundations|grant\s?makers|supporters)\b/i.test(q) && /\b(?:in\s+common|do\s+.+\s+share|shared\s+by|that\s+.+\s+share|common\s+to)\b|\b(?:common|shared)\s+(?:funders|donors|foundations|supporters)\b/i.test(q) && /\s(?:and|&)\s/.test(q)) return { ...exhaustive, direction: 'intersection', attribute: 'funders', rule: 'funders-in-common' };
  // "How many grants did X make to Y?": X's grants to Y (a pair, its count), not all of X's grants
  const manyTo = re(`^\\s*how\\s+many\\s+(?:grants|donations|gifts|payments)\\s+(?:did|does|has|have)\\s+(?:the\\s+)?(.+?)\\s+(?:make|made|give|gave|given|award|awarded|pay|paid|send|sent)\\s+(?:to|for)\\s+(.+?)(?:\\s+in\\s+\\d{4})?\\s*[?.!]*\\s*$`).exec(q);
  if (manyTo) return { ...exhaustive, direction: 'forward', named: manyTo[1]!, attribute: placeOrName(manyTo[2]!), rule: 'how-many-grants-to' };
  // "How many grants did Y get from X?": X's grants to Y (a pair), not all of Y's funders
  const manyFrom = re(`^\\s*how\\s+many\\s+(?:grants|donations|gifts|payments)\\s+(?:did|does|has|have)\\s+(?:the\\s+)?(.+?)\\s+${RECEIVE}\\s+from\\s+(?:the\\s+)?(.+?)(?:\\s+in\\s+\\d{4})?\\s*[?.!]*\\s*$`).exec(q);
  if (manyFrom) return { ...exhaustive, direction: 'forward', named: manyFrom[2]!, attribute: placeOrName(manyFrom[1]!), rule: 'how-many-grants-from' };
  // "How many funders does Y have?": Y's funders (their count is the reverse reading's)
  const manyFunders = re(`^\\s*how\\s+many\\s+(?:funders|donors|foundations|grant\\s?makers|supporters)\\s+(?:does|did|do|has|have)\\s+(?:the\\s+)?(.+?)\\s+(?:have|had|got|get)\\b`).exec(q);
  if (manyFunders) return { ...exhaustive, direction: 'reverse', named: manyFunders[1]!, rule: 'how-many-funders' };
  // "How many foundations funded Y?", "How many funders gave to Y?": Y's funders
  const manyFunded = re(`^\\s*how\\s+many\\s+(?:funders|donors|foundations|grant\\s?makers|supporters)\\s+(?:have\\s+|has\\s+)?(?:${FUND}|${GIVE}\\s+(?:money\\s+|grants?\\s+)?to|made\\s+grants\\s+to)\\s+(?:the\\s+)?(.+?)\\s*(?:in\\s+\\d{4})?\\s*[?.!]*\\s*$`).exec(q);
  if (manyFunded) return { ...exhaustive, direction: 'reverse', named: manyFunded[1]!, rule: 'how-many-funded-it' };
  // "Which funder gave Y the most (money)?": Y's funders ranked
  const gaveYMost = /^\s*(?:[Ww]ho|[Ww]hich\s+(?:foundations?|funders?|donors?|grant\s?makers?))\s+(?:gave|gives|has\s+given|paid|granted)\s+(?:the\s+)?(\p{Lu}.*?)\s+the\s+most\b/u.exec(q);
  if (gaveYMost && !/^(?:money|grants?)$/i.test(gaveYMost[1]!)) return { ...exhaustive, direction: 'reverse', named: gaveYMost[1]!, rule: 'gave-recipient-most' };
  // "recipients of X but not of Y": a difference of two funders' recipients, not either funder's grants
  if (/\bbut\s+not\b|\bexcept\s+(?:from|by)\b|\bnot\s+(?:from|by)\s+(?:the\s+)?\p{Lu}/u.test(q) && re(`\\b(?:${GIVE}|${RECEIVE})\\b`).test(q)) return { ...exhaustive, direction: 'intersection', attribute: 'recipients of one but not the other', rule: 'funders-difference' };
  // "Compare grants from A and B (to Y)": two funders side by side
  const compare = /^\s*compare\s+(?:the\s+)?(?:grants?|giving|funding|donations)\s+(?:from|of|by|made\s+by)\s+(?:the\s+)?(.+?)\s+(?:and|with|vs\.?|versus)\s+(?:the\s+)?(.+?)(?:\s+to\s+(?:the\s+)?(.+?))?\s*[?.!]*\s*$/i.exec(q);
  if (compare) return { ...exhaustive, direction: 'forward', order: 'desc', funders: [compare[1]!.replace(/['’]s$/, ''), compare[2]!.replace(/['’]s$/, '')], attribute: compare[3] ? placeOrName(compare[3]) : 'grants', rule: 'compare-two-funders' };
  // two funders side by side
  const two = twoFunders(q);
  if (two) return two;
  const measured = measuredReading(q);
  if (measured) return measured;

  // two funders, one set of recipients
  // "Which foundations fund both X and Y?": X and Y are recipients, their common funders asked
  if (re(`\\b${FUND}\\s+both\\b`).test(q) || re(`\\b(?:${GIVE}|made\\s+grants)\\s+(?:money\\s+|grants\\s+)?to\\s+both\\b`).test(q)) return { ...exhaustive, direction: 'intersection', attribute: 'funders', rule: 'fund-both' };
  if (re(`\\b${RECEIVE}\\s+(?:grants?|money|funding|support)\\s+from\\s+both\\b`).test(q)) return { ...exhaustive, direction: 'intersection', rule: 'received-from-both' };
  if (re(`\\bboth\\b.*\\b${FUND}\\b|\\b${FUND}\\b.*\\bboth\\b`).test(q)) return { ...exhaustive, direction: 'intersection', rule: 'both-fund' };

  // "the largest funders of X" ranks X's funders (reverse); "the largest funders" ranks the graph's
  const largestFunders = /\b(largest|biggest|top|leading|main|major|smallest)\s+(?:\d+\s+)?(grant\s?makers|funders|donors|supporters|philanthrop\w+)\b(\s+(?:of|to|for|behind)\s+\S)?/i.exec(q);
  const asc = largestFunders?.[1]!.toLowerCase() === 'smallest' ? { order: 'asc' as const } : {};
  // "Freshwater Future's biggest donors": the recipient's funders ranked
  if (largestFunders && /['’]s\s+(?:\w+\s+)?$/.test(q.slice(0, largestFunders.index))) return { ...exhaustive, direction: 'reverse', rule: 'possessive-largest-funders' };
  if (largestFunders) return largestFunders[3] ? { ...exhaustive, direction: 'reverse', rule: 'largest-funders-of' } : { ...exhaustive, direction: 'population', ...asc, rule: 'largest-funders' };
  // "the biggest foundations by grants paid": funders ranked by what they gave (not by assets or any other measure)
  if (/\b(largest|biggest|top|leading)\s+(?:\d+\s+)?(?:foundations|grant\s?makers)\b\s*(?:(?:by|in)\s+(?:grants?(?:\s+(?:paid|made|given))?|giving|grant\s+money|total\s+giving))?\s*(?:in\s+(?:the\s+)?grant\s+graph)?\s*[?.!]*\s*$/i.test(q)) return { ...exhaustive, direction: 'population', rule: 'largest-foundations-by-giving' };
  // "X's largest grants", "the biggest grants made by X": X's grants, largest first
  if (/['’]s\s+(?:\d+\s+)?(?:largest|biggest|top|main|major)\s+(?:\d+\s+)?grants?\b/i.test(q) || /\b(?:largest|biggest|top)\s+(?:\d+\s+)?grants\s+(?:(?:made|given|awarded|paid)\s+)?(?:by|from|of)\s+(?:the\s+)?\S/i.test(q)) return { ...exhaustive, direction: 'forward', attribute: 'largest grants', rule: 'largest-grants-of' };
  // "largest recipients of X": X's recipients ranked (forward); without "of X", every recipient (population)
  if (/\b(largest|biggest|top|leading|main|major)\s+(?:\d+\s+)?(recipients?|grantees?)\s+of\b/i.test(q)) return { ...exhaustive, direction: 'forward', order: 'desc', attribute: 'recipients', rule: 'largest-recipients-of' };
  const topRecipients = /\b(largest|biggest|top|leading)\s+(?:\d+\s+)?(grant\s+)?(recipients|grantees)\b/i.exec(q);
  // "the Erb Family Foundation's top 5 grantees": that funder's recipients ranked
  if (topRecipients && /['’]s\s+$/.test(q.slice(0, topRecipients.index))) return { ...exhaustive, direction: 'forward', order: 'desc', attribute: 'recipients', rule: 'possessive-top-recipients' };
  if (topRecipients) return { ...exhaustive, direction: 'population', order: 'desc', attribute: 'recipients', rule: 'largest-recipients' };

  // "Who gave the most (to X)?": funders ranked — X's (reverse) or the graph's (population)
  const gaveMost = re(`^\\s*(?:who|which\\s+(?:foundations?|funders?|donors?|grant\\s?makers?|organi[sz]ations?))\\s+${GIVE}\\s+(?:(?:the\\s+)?most|more\\s+than\\s+any)\\b(.*)$`).exec(q);
  if (gaveMost && re(`^\\s*(?:(?:money|grants?|grant\\s+money|funding|dollars)\\s+)?to\\s+(?:the\\s+)?${MEMBERS}\\s+in\\s+\\S`).test(gaveMost[1]!)) return { ...exhaustive, direction: 'population', attribute: 'funders', rule: 'gave-most-in-place' };
  if (gaveMost && GRANT_TAIL.test(gaveMost[1]!)) return /\bto\s+\S/i.test(gaveMost[1]!) ? { ...exhaustive, direction: 'reverse', rule: 'gave-most-to' } : { ...exhaustive, direction: 'population', rule: 'gave-most' };
  // "Who received the most (from X)?": recipients ranked — X's (forward) or the graph's (population)
  const gotMost = re(`\\b${RECEIVE}\\s+(?:the\\s+)?most\\b(.*)$`).exec(q);
  if (gotMost && (GRANT_NOUN.test(q.replace(FUNDER_NAME, '')) || FUNDER_NAME.test(q))) {
    return /\bfrom\s+\S/i.test(gotMost[1]!)
      ? { ...exhaustive, direction: 'forward', order: 'desc', attribute: 'recipients', rule: 'received-most-from' }
      : { ...exhaustive, direction: 'population', order: 'desc', attribute: 'recipients', rule: 'received-most' };
  }

  // "How much did Y receive (in grants)?": Y's funders; "… receive from X?": what X gave Y (a pair)
  const received = re(`^\\s*how\\s+much\\s+(?:money\\s+|funding\\s+|grant\\s+money\\s+)?(?:did|does|has|have)\\s+(.+?)\\s+${RECEIVE}\\b(.*)$`).exec(q);
  if (received && (GRANT_NOUN.test(q) || /\b(funding|money)\b/i.test(q) || /\bfrom\s+(?:the\s+)?\p{Lu}/u.test(received[2]!))) {
    // "How much did Michigan organizations (organizations in Michigan) receive?": a place's members, not a recipient named "Michigan"
    const place = new RegExp(`^(?:the\\s+)?(?:(\\p{Lu}[\\w.]*(?:\\s+\\p{Lu}[\\w.]*)*)\\s+${MEMBERS}|${MEMBERS}\\s+(?:in|from|based\\s+in)\\s+(?:the\\s+state\\s+of\\s+)?(\\p{Lu}[\\w.]*(?:\\s+\\p{Lu}[\\w.]*)*))$`, 'u').exec(received[1]!);
    if (place) {
      const from = /\bfrom\s+(?:the\s+)?(\p{Lu}.*?)\s*(?:in\s+\d{4})?\s*[?.!]*\s*$/u.exec(received[2]!);
      return from ? { ...exhaustive, direction: 'forward', named: from[1]!, attribute: (place[1] ?? place[2])!, rule: 'place-members-received-from' } : { ...exhaustive, direction: 'population', attribute: (place[1] ?? place[2])!, rule: 'place-members-received' };
    }
    const from = /\bfrom\s+(?:the\s+)?(\p{Lu}.*?)\s*(?:in\s+\d{4})?\s*[?.!]*\s*$/u.exec(received[2]!);
    if (from) return { ...exhaustive, direction: 'forward', named: from[1]!, attribute: received[1]!.replace(/^the\s+/i, ''), rule: 'received-from' };
    return { ...exhaustive, direction: 'reverse', rule: 'how-much-received' };
  }
  // "Grants to Michigan organizations from the Joyce Foundation", "grants from X to Y": X's grants to a place, a recipient or a cause
  // (a capital that only opens the sentence is not a name's)
  const ql = q.replace(/^\s*\p{Lu}/u, (c) => c.toLowerCase());
  const toFrom = /^\s*(?:(?:list|show(?:\s+me)?|what\s+(?:are|were))\s+)?(?:all\s+)?(?:the\s+)?(?:grants?|funding|donations?|gifts?|grant\s+money|money)\s+(?:(?:given|paid|made|awarded|sent)\s+)?(?:to\s+(.+?)\s+from\s+(?:the\s+)?(\p{Lu}.*?)|from\s+(?:the\s+)?(\p{Lu}.*?)\s+to\s+(.+?))\s*(?:in\s+\d{4})?\s*[?.!]*\s*$/u.exec(ql);
  if (toFrom) {
    const to = (toFrom[1] ?? toFrom[4])!;
    return { ...exhaustive, direction: 'forward', named: (toFrom[2] ?? toFrom[3])!, attribute: placeOrName(to), rule: 'grants-to-from' };
  }
  // "Is the Joyce Foundation a funder of the Alliance for the Great Lakes?": X's grants to Y (a pair)
  const isFunder = /^\s*(?:[Ii]s|[Ww]as|[Aa]re|[Ww]ere)\s+(?:the\s+)?(\p{Lu}.*?)\s+(?:a|an|one\s+of\s+the)\s+(?:\w+\s+)?(?:funders?|supporters?|donors?|backers?|grantors?|benefactors?)\s+(?:of|to|for|behind)\s+(.+?)\s*(?:in\s+\d{4})?\s*[?.!]*\s*$/u.exec(q);
  if (isFunder) return { ...exhaustive, direction: 'forward', named: isFunder[1]!, attribute: placeOrName(isFunder[2]!), rule: 'is-funder-of' };
  // "Is Freshwater Future a grantee of the Erb Family Foundation?": the same pair, named the other way round
  const isGrantee = /^\s*(?:[Ii]s|[Ww]as|[Aa]re|[Ww]ere)\s+(?:the\s+)?(.+?)\s+(?:a|an|one\s+of\s+the)\s+(?:grantees?|recipients?|grant\s+recipients?)\s+(?:of|from)\s+(?:the\s+)?(\p{Lu}.*?)\s*(?:in\s+\d{4})?\s*[?.!]*\s*$/u.exec(q);
  if (isGrantee) return { ...exhaustive, direction: 'forward', named: isGrantee[2]!, attribute: placeOrName(isGrantee[1]!), rule: 'is-grantee-of' };
  // "Did X fund Y?", "Has X ever given money to Y?", "Does X support Y?": X's grants to Y (a pair; a place or a cause as below)
  const didFund = re(`^\\s*(?:did|does|do|has|have)\\s+(.+?)\\s+(?:ever\\s+)?(?:fund|funded|support|supported|give|gave|given|donate|donated|grant|granted|make\\s+(?:a\\s+)?grants?|made\\s+(?:a\\s+)?grants?)\\s+(?:any\\s+)?(?:money\\s+|grants?\\s+|a\\s+grant\\s+|funding\\s+|anything\\s+)?(?:to\\s+)?(.+?)\\s*(?:in\\s+\\d{4})?\\s*[?.!]*\\s*$`).exec(q);
  if (didFund && giving(q) && /\p{L}/u.test(didFund[2]!) && !/^(?:any|money|grants?|anything|away|out|in\s+\d{4})$/i.test(didFund[2]!)) {
    // "Did X give more than $1 million to Y?": X's grants to Y, whose total answers it (the amount is the question's, not a name)
    const to = didFund[2]!.replace(new RegExp(`^${THRESHOLD}[\\d.,]*\\s*(?:k|thousand|million|billion|m|bn)?\\s+(?:dollars\\s+)?(?:in\\s+grants\\s+)?to\\s+`, 'i'), '');
    return { ...exhaustive, direction: 'forward', attribute: placeOrName(to), rule: 'did-fund' };
  }
  // "What did X give to Y?": X's grants to Y (a recipient, a place or a cause)
  const whatGive = re(`^\\s*what\\s+(?:did|does|has|have)\\s+.+?\\s+(?:give|gave|given|donate|donated|grant|granted|contribute|contributed)\\s+to\\s+(.+?)\\s*(?:in\\s+\\d{4})?\\s*[?.!]*\\s*$`).exec(q);
  if (whatGive && giving(q)) return { ...exhaustive, direction: 'forward', attribute: placeOrName(whatGive[1]!), rule: 'what-give-to' };
  // "List foundations that gave to Y": Y's funders
  if (re(`\\b(?:foundations|funders|donors|grant\\s?makers|organi[sz]ations)\\s+(?:that|who|which)\\s+(?:have\\s+|has\\s+)?(?:${FUND}|${GIVE}\\s+(?:money\\s+|grants?\\s+)?to)\\b`).test(q)) return { ...exhaustive, direction: 'reverse', rule: 'funders-that-gave' };
  // "the Joyce Foundation's grants for education": X's grants for a cause
  const possFor = /['’]s\s+grants\s+(?:for|to\s+support|in\s+the\s+area\s+of)\s+(?!\d)(.+?)\s*[?.!]*\s*$/i.exec(q);
  if (possFor) return { ...exhaustive, direction: 'forward', attribute: possFor[1]!.replace(/^the\s+/i, ''), rule: 'possessive-grants-for' };
  // "How much has X given Y?": no "to", the recipient named straight after the verb
  const givenName = /^\s*how\s+much\s+(?:money\s+)?(?:did|does|has|have)\s+.+?\s+(?:given|gave|give|granted|paid)\s+((?:the\s+)?\p{Lu}.*?)\s*(?:in\s+\d{4})?\s*[?.!]*\s*$/u.exec(ql);
  if (givenName && giving(q)) return { ...exhaustive, direction: 'forward', attribute: placeOrName(givenName[1]!), rule: 'how-much-given-name' };
  // "How much did X give to organizations in Michigan / to education / to Y?": X's grants, by place, cause or recipient
  // "How much did foundations give to organizations in Wisconsin?": no funder named, the graph's grants (to a place, or ranked)
  if (re(`^\\s*how\\s+much\\s+(?:money\\s+)?(?:did|do|have)\\s+(?:all\\s+)?(?:the\\s+)?(?:foundations|funders|donors|grant\\s?makers|philanthropies)\\s+(?:in\\s+the\\s+graph\\s+)?${GIVE}\\b`).test(q)) return { ...exhaustive, direction: 'population', rule: 'funders-gave-to-place' };
  const giveTo = re(`\\bhow\\s+much\\s+(?:money\\s+)?(?:did|does|has|have)\\s+.+?\\s+${GIVE}\\s+(?:in\\s+grants\\s+)?(?:to|for)\\s+(.+?)(?:\\s+in\\s+\\d{4})?\\s*\\??$`).exec(q);
  if (giveTo && giving(q)) {
    // as written: a recipient's name keeps its case (a cause or a place reads the same either way)
    return { ...exhaustive, direction: 'forward', attribute: placeOrName(giveTo[1]!), rule: 'how-much-give-to' };
  }
  // "How much (grant money) went to organizations in Michigan?": the graph's grants to a place
  if (re(`\\b(?:went|go|goes|flowed|flows|was\\s+(?:given|paid|granted)|were\\s+(?:given|paid|made|awarded))\\s+to\\s+(?:the\\s+)?${MEMBERS}\\s+in\\s+\\S`).test(q) && (GRANT_NOUN.test(q) || /\bhow\s+much\b/i.test(q))) {
    return { ...exhaustive, direction: 'population', rule: 'went-to-place' };
  }
  // "How much did X give (away) (in 2023)?": X's grants in total
  if (giving(q) && re(`^\\s*how\\s+much\\s+(?:money\\s+|in\\s+grants\\s+)?(?:did|does|has|have)\\s+.+?\\s+${GIVE}(?:\\s+(?:away|out))?(?:\\s+in\\s+grants)?(?:\\s+(?:in\\s+total|in\\s+all|altogether|overall))?(?:\\s+in\\s+(?:the\\s+state\\s+of\\s+)?[A-Z][\\w.]*(?:\\s+[A-Z][\\w.]*)*)?(?:\\s+(?:in|during)\\s+(?:fiscal\\s+|tax\\s+)?(?:year\\s+)?\\d{4})?\\s*\\??\\s*$`).test(q)) {
    return { ...exhaustive, direction: 'forward', rule: 'how-much-give' };
  }

  // "Ford Foundation grants", "the Kresge Foundation's grants": a name and the word grants, no verb (direction left open)
  const nameGrants = /^\s*(?:(?:[Ss]how(?:\s+me)?|[Ll]ist|[Ww]hat\s+(?:are|were))\s+)?(?:all\s+)?(?:the\s+)?([A-Z][\w.&'-]*(?:\s+(?:[A-Z&][\w.&'-]*|of|and|for))*?)(?:['’]s)?\s+grants(?:\s+(?:in|for)\s+\d{4})?\s*\??\s*$/.exec(q);
  if (nameGrants) return { ...exhaustive, subject: nameGrants[1]!, rule: 'name-grants-direction-open' };
  // the same typed in lower case ("mott foundation grants"): the name is read by its head word
  const typedGrants = /^\s*(?:the\s+)?([a-z][\w.&'-]*(?:\s+[a-z][\w.&'-]*){0,6}?)(?:['’]s)?\s+grants\s*\??\s*$/.exec(q);
  if (typedGrants && typedName(typedGrants[1]!) === typedGrants[1]) return { ...exhaustive, subject: typedGrants[1]!, rule: 'name-grants-direction-open' };

  // funding by cause over the whole graph: "Which foundations fund environmental groups?", "Who
  // supports education?", "How much grant money went to the arts?" (a cause, not a recipient: every
  // word a cause word or a word for the groups that pursue it, typed in lower case)
  const byCause = re(`^\\s*(?:(?:who|(?:which|what)\\s+(?:foundations?|funders?|donors?|grant\\s?makers?))\\s+(?:${FUND}|${GIVE}\\s+(?:the\\s+most\\s+)?(?:money\\s+|grants?\\s+|funding\\s+)?(?:to|for))|how\\s+much\\s+(?:grant\\s+money|money|funding|in\\s+grants)\\s+(?:went|goes|go|was\\s+(?:${GIVEN}|given|spent)|has\\s+been\\s+(?:${GIVEN}|given)|did\\s+(?:foundations|funders|donors)\\s+(?:${GIVE}))\\s+(?:to|for|on))\\s+(?:the\\s+)?([a-z][a-z\\s-]*?)\\s*[?.!]*\\s*$`).exec(q);
  if (byCause && !/\p{Lu}/u.test(byCause[1]!) && causeWordsOnly(byCause[1]!)) {
    return { ...exhaustive, direction: 'population', attribute: byCause[1]!.trim(), rule: 'funding-by-cause' };
  }

  // reverse: the recipient is the subject
  if (re(`^\\s*(who|(?:which|what)\\s+(?:foundations?|funders?|donors?|grant\\s?makers?|organi[sz]ations?))\\s+(?:(?:has|have|had)\\s+(?:ever\\s+)?)?(?:${FUND}|${GIVE}\\s+(?:money|grants?|funding|donations?)?\\s*to)\\b`).test(q)) return { ...exhaustive, direction: 'reverse', rule: 'who-funds' };
  if (re(`^\\s*(?:list|show(?:\\s+me)?|what\\s+(?:are|were))?\\s*(?:all\\s+)?(?:the\\s+)?(?:grants?|funding|donations?|gifts?|grant\\s+money)\\s+(?:(?:given|paid|made|awarded|sent)\\s+)?to\\s+(?!(?:the\\s+)?${MEMBERS}\\s+in\\b)`).test(q)) return { ...exhaustive, direction: 'reverse', rule: 'grants-to' };
  if (/\b(funders?|donors?|supporters?|grantors?|backers?|benefactors?)\s+(?:of|to|behind)\s+\S/i.test(q) || /['’]s\s+(funders|donors|supporters|backers|benefactors)\b/i.test(q) || /['’]s\s+(?:total\s+)?(?:grant\s+)?(?:funding|grant\s+income|grants\s+received)\b/i.test(q)) return { ...exhaustive, direction: 'reverse', rule: 'funders-of' };
  if (/\bwhere\s+(?:does|do|did)\s+.+?\s+get\s+(?:its|their|his|her)?\s*(?:funding|money|grants?|support)\b/i.test(q)) return { ...exhaustive, direction: 'reverse', rule: 'where-get-funding' };
  if (re(`\\b(?:grants?|money|funding|donations?)\\s+(?:did|does|do|has|have)\\s+.+?\\s+${RECEIVE}\\b`).test(q)
    || re(`\\b(?:did|does|has|have)\\s+.+?\\s+${RECEIVE}\\s+(?:any\\s+)?(?:grants?|money|funding|donations?)\\b`).test(q)
    || re(`\\bhow\\s+much\\s+(?:grant\\s+money|money|funding|in\\s+grants)\\s+(?:did|does|has|have)\\s+.+?\\s+${RECEIVE}\\b`).test(q)) return { ...exhaustive, direction: 'reverse', rule: 'received-grants' };

  // forward: the funder is the subject (of a verb that gives, not one that pays for something)
  if (!giving(q)) return null;
  // "What is the total the Joyce Foundation gave to organizations in Illinois?": X's grants to a place, a recipient or a cause
  const totalTo = new RegExp(`^\\s*what\\s+(?:is|was)\\s+the\\s+total(?:\\s+amount)?(?:\\s+that)?\\s+(?:the\\s+)?(\\p{Lu}.*?)\\s+${GIVE}\\s+(?:in\\s+grants\\s+)?to\\s+(.+?)\\s*(?:in\\s+\\d{4})?\\s*[?.!]*\\s*$`, 'u').exec(ql);
  if (totalTo) return { ...exhaustive, direction: 'forward', named: totalTo[1]!, attribute: placeOrName(totalTo[2]!), rule: 'total-given-to' };
  // "Which Michigan nonprofits did the Erb Family Foundation support?": a place naming the members, then the funder
  const placeMembers = new RegExp(`^\\s*(?:which|what)\\s+(\\p{Lu}[\\w.]*(?:\\s+\\p{Lu}[\\w.]*)*)\\s+${MEMBERS}\\s+(?:did|does|do|has|have)\\s+(?:the\\s+)?(\\p{Lu}.*?)\\s+(?:${FUND}|${GIVE})\\b`, 'u').exec(ql);
  if (placeMembers) return { ...exhaustive, direction: 'forward', named: placeMembers[2]!, attribute: placeMembers[1]!, rule: 'place-members-funded' };
  // "How many organizations did X fund?", "the total amount X granted": X's grants
  if (re(`^\\s*how\\s+many\\s+(?:${MEMBERS}|grants|people)\\s+(?:did|does|do|has|have)\\s+.+?\\s+(?:${FUND}|${GIVE}|make\\s+grants\\s+to)\\b`).test(q)
    || re(`\\btotal\\s+(?:amount|grants?|giving|money)\\b.*\\b(?:granted|gave|given|paid|awarded|donated|distributed|contributed)\\s*(?:in\\s+\\d{4})?\\s*[?.!]*\\s*$`).test(q)) return { ...exhaustive, direction: 'forward', rule: 'how-many-funded' };
  // "What grants did the Joyce Foundation make for journalism?": X's grants for a cause
  const grantsFor = /\bgrants\s+(?:did|does|has|have)\s+.+?\s+(?:make|made|give|given|award|awarded)\s+(?:for|to\s+support|in\s+the\s+area\s+of)\s+(?!\d)(.+?)\s*[?.!]*\s*$/i.exec(q);
  if (grantsFor) return { ...exhaustive, direction: 'forward', attribute: grantsFor[1]!.replace(/^the\s+/i, ''), rule: 'grants-made-for' };
  // "What did X fund in education?": X's grants for a cause (a place after "in" is read as the place)
  const forCause = /^\s*what\s+(?:did|does|do|has|have)\s+(.+?)\s+(?:fund|support|give\s+(?:grants?\s+|money\s+)?to|grant\s+money\s+to|give\s+money\s+for)\s+(?:in|for|on)\s+(?!\d)(.+?)\s*\??\s*$/i.exec(q);
  if (forCause) return { ...exhaustive, direction: 'forward', attribute: forCause[2]!.replace(/^the\s+/i, ''), rule: 'funded-for-cause' };
  // "Environmental grants from the Joyce Foundation", "X's education grants": X's grants for a cause
  const causeOf = /^\s*(?:(?:list|show(?:\s+me)?|what\s+(?:are|were))\s+)?(?:all\s+)?(?:the\s+)?([a-z]+(?:\s+[a-z]+)?)\s+grants\s+(?:(?:made|given|awarded|paid)\s+)?(?:from|by)\s+(?:the\s+)?\p{Lu}/u.exec(ql)
    ?? /['’]s\s+([a-z]+(?:\s+[a-z]+)?)\s+grants\b/u.exec(q);
  if (causeOf && !NOT_CAUSE.test(causeOf[1]!) && !causeOf[1]!.split(' ').some((w) => NOT_NAME.has(w))) return { ...exhaustive, direction: 'forward', attribute: causeOf[1]!, rule: 'cause-grants-from' };
  const fromName = /\b(?:grants?|donations?|gifts?)\s+from\s+(?:the\s+)?(\S)/i.exec(q);
  if (/\b(grants?|money)\s+(?:did|does|do|has|have)\s+.+\b(make|give|award|pay|approve)\b/i.test(q)
    || re(`\\b(?:which|what)\\s+\\w+(?:\\s+\\w+){0,3}\\s+(?:(?:does|do|did)\\s+.+?\\s+${GIVE}|(?:has|have)\\s+.+?\\s+${GIVEN})\\b`).test(q)
    || re(`^\\s*(?:who|what)\\s+(?:does|do|did|has|have)\\s+.+?\\s+(?:${FUND}|${GIVE}\\s+(?:money|grants?)\\s+to|make\\s+grants\\s+to|${GIVE})\\s*(?:in\\s+(?:\\d{4}|[A-Z][\\w.]*(?:\\s+[A-Z][\\w.]*)*)\\s*)?\\??\\s*$`).test(q)
    || re(`\\b(got|gets|received|receives|receive|get)\\s+(?:grants?|money|funding|donations?|grant\\s+money)\\s+from\\b`).test(q)
    || /\bsend\s+its\s+grants\b|\bgrants?\s+(?:made|given|awarded|paid)\s+by\b/i.test(q)
    || (fromName !== null && /\p{Lu}/u.test(fromName[1]!))
    || /['’]s\s+(grantees|recipients|grant\s+recipients|grantmaking|giving)\b/i.test(q)
    || /\b(grantees|grant\s+recipients)\s+of\s+\S/i.test(q)) {
    const ranked = /['’]s\s+(grantees|recipients|grant\s+recipients)\b|\b(grantees|grant\s+recipients)\s+of\s+\S/i.test(q);
    return { ...exhaustive, direction: 'forward', ...(ranked ? { attribute: 'recipients' } : {}), rule: 'grants-made-by' };
  }
  return null;
}
