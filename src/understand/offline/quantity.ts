/**
 * The kind of quantity a question asks for, and the period grain it asks at, from its words alone.
 *
 * General English, no source: "how many employees" asks for a count, "how much revenue" for
 * money, "the poverty rate" for a percent, "the exchange rate" for a ratio (units of one currency
 * per another), "when" for a date. Rules are ordered, first match wins; when the words do not say,
 * the kind is null and no rule downstream can reject on it (an unknown is never a guess).
 */
import type { Grain, QuantityKind, Shape } from '../intent.ts';

/** Nouns whose amount is money in ordinary usage ("revenue", "total assets", "tuition"). */
const MONEY_NOUNS = /\b(revenues?|income|sales|assets?|liabilit(?:y|ies)|debts?|cash|spending|spent|expenses?|expenditures?|costs?|price|funding|funds|salar(?:y|ies)|compensation|pay|earnings|profits?|loss(?:es)?|equity|tuition|dividends?|taxe?s?|budget|outlays?|obligations?|contributions?|donations?|grants?\s+(?:made|paid|given|received)|award\s+amount|amount|dollars?|worth|net\s+worth|capital|receivables?|payables?|deficit|surplus|wages?|gdp|ebitda|eps|inventor(?:y|ies)|goodwill|buybacks?|repurchases?|public\s+float|(?:home|property|market|house)\s+values?|rents?|award\s+(?:ceiling|floor)|ceiling|holdings|earn(?:s|ed)?|stock\s+price|fees?)\b/i;
/** Nouns that are counted ("employees", "population", "students"). */
const COUNT_NOUNS = /\b(population|employees|headcount|staff|workers|people|persons|residents|households|students|enrollment|members|beneficiaries|shares\s+outstanding|housing\s+units|units|beds|number\s+of|count\s+of|how\s+many)\b/i;
/** Words that state a percent or rate of a population ("poverty rate", "percent", "share of"). */
const PERCENT_WORDS = /%|\bpercent(?:age)?\b|\brates?\b|\bshare\s+of\b|\bproportion\b|\bprevalence\b|\bfraction\b|\bmargin\b/i;
/** A price of one currency in another is a ratio of two currencies, not a percent. */
const EXCHANGE = /\b(exchange\s+rates?|rates?\s+of\s+exchange|conversion\s+rates?|per\s+(?:us\s+)?dollar|per\s+usd)\b/i;

export function quantityAsked(q: string, shape: Shape, attribute: string | null, thresholdUnit: string | null): QuantityKind | null {
  if (shape === 'status') return 'yes_no';
  if (shape === 'entity_list' || shape === 'topical') return 'records';
  if (shape === 'grant_graph' || shape === 'correlation') return null;
  // a subset's members are counted ("how many … have …"), but what is tested is the measure the threshold is in
  if (shape === 'filtered_subset') return subsetQuantity(attribute, thresholdUnit);
  const text = `${q} ${attribute ?? ''}`;
  if (/^\s*when\b|\b(?:what|which|on\s+what)\s+(?:date|day)\b|\bdate\s+(?:of|did|was|when)\b/i.test(q)) return 'date';
  if (EXCHANGE.test(text)) return 'ratio';
  if (/\bratio\b|\bmultiple\b/i.test(text)) return 'ratio';
  if (/\bhow\s+many\s+(?:dollars|usd)\b/i.test(q)) return 'money';
  if (PERCENT_WORDS.test(text)) return 'percent';
  if (/^\s*how\s+many\b/i.test(q) || /\bnumber\s+of\b|\bcount\s+of\b/i.test(q)) return 'count';
  if (/\$/.test(q) || (/^\s*how\s+much\b/i.test(q) && MONEY_NOUNS.test(text))) return 'money';
  if (attribute && COUNT_NOUNS.test(attribute) && !MONEY_NOUNS.test(attribute)) return 'count';
  if (attribute && MONEY_NOUNS.test(attribute)) return 'money';
  if (thresholdUnit === 'USD') return 'money';
  if (thresholdUnit === '%') return 'percent';
  return null;
}

/** The quantity a filtered subset tests: the threshold's unit, else the measure's own words. */
function subsetQuantity(attribute: string | null, thresholdUnit: string | null): QuantityKind | null {
  return thresholdQuantity(thresholdUnit) ?? measureQuantity(attribute);
}

/** The kind of quantity a threshold's unit is. */
export const thresholdQuantity = (unit: string | null): QuantityKind | null => (unit === 'USD' ? 'money' : unit === '%' ? 'percent' : unit === 'count' ? 'count' : null);

/** The kind of quantity a measure's own words name ("poverty rate": a percent), or null when they do not say. */
export function measureQuantity(attribute: string | null): QuantityKind | null {
  if (!attribute) return null;
  if (PERCENT_WORDS.test(attribute)) return 'percent';
  if (COUNT_NOUNS.test(attribute) && !MONEY_NOUNS.test(attribute)) return 'count';
  if (MONEY_NOUNS.test(attribute)) return 'money';
  return null;
}

/** The grain the words ask at ("quarterly", "each month", "annual"); null when they name none. */
export function grainWords(q: string): Grain | null {
  if (/\bquarterly\b|\b(?:per|each|every|by)\s+quarter\b|\bquarter[- ]by[- ]quarter\b/i.test(q)) return 'quarter';
  if (/\bmonthly\b|\b(?:per|each|every|by)\s+month\b|\bmonth[- ]by[- ]month\b/i.test(q)) return 'month';
  if (/\bdaily\b|\b(?:per|each|every|by)\s+day\b/i.test(q)) return 'day';
  if (/\bannual(?:ly)?\b|\byearly\b|\b(?:per|each|every|by)\s+year\b|\byear[- ]by[- ]year\b/i.test(q)) return 'year';
  return null;
}
