/**
 * Grant questions written for Assay's own testing (not from any published benchmark, not the
 * issue's examples), in the phrasings people type: short names, "the", "&" and "and", lower case,
 * possessives, names the graph does not hold. Every expected figure is computed here from the
 * bundled extract file (read with csv-parse, never with Assay's parser), grouping recipients the
 * way a reader of the file would: by name, ignoring case, punctuation, "&"/"and" and legal-form
 * words.
 *
 * An expectation is either an answer (the figures that must be published and graded verified, the
 * figures that must not be — another question's total, or paid and approved-for-future summed —
 * and whether the coverage must be disclosed) or a refusal (optionally with its code). A question
 * the graph cannot answer as asked must be refused; it is never right to answer another question.
 */
import { extractRows, paid, sum, type Row } from './helpers.ts';

export type Expect =
  /** `derived`: figures Assay computes (an average, a sum or difference of two totals) that must be published graded derived. */
  | { answer: number[]; derived?: number[]; never?: number[]; coverage?: boolean; disclose?: RegExp }
  | { refuse: true; code?: string }
  /** A clarification with at least `options` numbered options. */
  | { clarify: true; options: number };

export interface OwnCase { q: string; kind: string; expect: Expect; onAmbiguity?: 'ask' | 'answer' }

const LEGAL = new Set(['inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'ltd', 'limited', 'llc', 'plc', 'the']);
/** A recipient's name as a reader matches it: case, punctuation, "&"/"and" and legal-form words aside. */
export const nameKey = (s: string) => s.toLowerCase().replace(/&/g, ' and ').split(/[^a-z0-9]+/).filter((w) => w && !LEGAL.has(w)).join(' ');

export function ownCases(rows: readonly Row[] = extractRows()): OwnCase[] {
  const ein = (re: RegExp) => {
    const hit = rows.find((r) => re.test(r.foundation_name));
    if (!hit) throw new Error(`no funder ${re} in the extract`);
    return hit.foundation_ein;
  };
  const MOTT = ein(/MOTT/), JOYCE = ein(/Joyce/), BUFFALO = ein(/BUFFALO/), ROCHESTER = ein(/ROCHESTER/), TOLEDO = ein(/TOLEDO/), ERB = ein(/ERB FAMILY/);
  const NFWF = ein(/FISH AND WILDLIFE/), LORAIN = ein(/LORAIN/), BROOKBY = ein(/Brookby/), BAY = ein(/BAY AREA/), PORTER = ein(/PORTER/), SEARS = ein(/SWETLAND/);
  const ASTOR = ein(/Astor/), CROWN = ein(/CROWN/), MCDOUGAL = ein(/MCDOUGAL/);

  const by = (f: string) => rows.filter((r) => r.foundation_ein === f);
  const paidOf = (rs: readonly Row[]) => rs.filter(paid);
  const futureOf = (rs: readonly Row[]) => rs.filter((r) => r.grant_bucket === '3b');
  /** A recipient's grants: filed under its name, or under the EIN filed beside its name (one organization, renamed: "BUFFALO FINE ARTS ACADEMY" is the Buffalo AKG Art Museum). */
  const to = (name: string) => {
    const named = rows.filter((r) => nameKey(r.grantee_name) === nameKey(name));
    const eins = new Set(named.map((r) => r.grantee_ein).filter(Boolean));
    const own = rows.filter((r) => nameKey(r.grantee_name) === nameKey(name) || (r.grantee_ein && eins.has(r.grantee_ein)));
    return [...own, ...unitsOf(name, own)];
  };
  /**
   * Its units: rows filed with no EIN as "<name> - <unit>" in a state its own rows are filed in (any,
   * when it has none) — unless the name is a city some row was filed to, a state, or initials.
   */
  const cities = new Set(rows.map((r) => nameKey(r.grantee_city)));
  const unitsOf = (name: string, own: readonly Row[]) => {
    const parent = nameKey(name);
    if (cities.has(parent) || ['michigan', 'ohio', 'illinois', 'new york', 'minnesota', 'indiana', 'wisconsin'].includes(parent) || /^[A-Z]{1,5}$/.test(name.trim())) return [];
    const states = new Set(own.map((r) => r.grantee_state.toUpperCase()));
    return rows.filter((r) => {
      const at = r.grantee_name.indexOf(' - ');
      return at > 0 && !r.grantee_ein && nameKey(r.grantee_name.slice(0, at)) === parent && (states.size === 0 || states.has(r.grantee_state.toUpperCase()));
    });
  };
  const inState = (rs: readonly Row[], st: string) => rs.filter((r) => r.grantee_state.toUpperCase() === st);
  const year = (rs: readonly Row[], y: number) => rs.filter((r) => Number(r.tax_year) === y);
  /** Paid total, paid count, and (never to be published) paid + approved-for-future summed. */
  const totals = (rs: readonly Row[]) => ({ paid: sum(paidOf(rs)), n: paidOf(rs).length, mixed: sum(rs) });
  const mixedIfAny = (rs: readonly Row[]) => (sum(futureOf(rs)) > 0 ? [sum(rs)] : []);
  /** A funder's largest recipient by paid total, recipients grouped by name and state. */
  const topRecipient = (rs: readonly Row[]) => {
    const m = new Map<string, number>();
    for (const r of paidOf(rs)) { const k = `${nameKey(r.grantee_name)}|${r.grantee_state.toUpperCase()}`; m.set(k, (m.get(k) ?? 0) + Number(r.grant_amount)); }
    return Math.max(...m.values());
  };
  const largestGrant = (rs: readonly Row[]) => Math.max(...paidOf(rs).map((r) => Number(r.grant_amount)));
  /** The recipients both funders paid, by recipient EIN where filed, else by name and state. */
  const common = (a: string, b: string) => {
    const key = (r: Row) => (r.grantee_ein ? `ein:${r.grantee_ein}` : `${nameKey(r.grantee_name)}|${r.grantee_state.toUpperCase()}`);
    const ka = new Set(by(a).map(key));
    return new Set(by(b).map(key).filter((k) => ka.has(k))).size;
  };
  const funderTotals = [...new Set(rows.map((r) => r.foundation_ein))].map((f) => sum(paidOf(by(f)))).sort((x, y) => y - x);
  const recipientTop = (() => {
    const m = new Map<string, number>();
    for (const r of rows.filter(paid)) { const k = r.grantee_ein ? `ein:${r.grantee_ein}` : `${nameKey(r.grantee_name)}|${r.grantee_state.toUpperCase()}`; m.set(k, (m.get(k) ?? 0) + Number(r.grant_amount)); }
    return Math.max(...m.values());
  })();
  const stateTotal = (st: string) => sum(inState(rows.filter(paid), st));
  /** A state total: the grants filed to addresses in the state (each grant carries the address filed for it). */
  const geo = (funder: string | null, st: string): Expect => (funder ? f(inState(by(funder), st)) : { answer: [stateTotal(st)], coverage: true });
  const topState = Math.max(...[...new Set(rows.map((r) => r.grantee_state.toUpperCase()))].map(stateTotal));
  /** Grants whose purpose names one of the cause's words (whole-word prefixes), as the cause rule documents. */
  const purposeNames = (rs: readonly Row[], words: readonly string[]) => rs.filter((r) => words.some((w) => new RegExp(`(^|[^a-z])${w}`).test(r.grant_purpose_raw.toLowerCase())));
  const ENV = ['environment', 'conservation', 'climate', 'water', 'freshwater', 'lake', 'river', 'watershed', 'ecolog', 'pollution', 'sustainab'];
  const ARTS = ['art', 'arts', 'cultur', 'museum', 'music', 'theat', 'humanities', 'histor', 'librar', 'journalis', 'media'];
  const EDU = ['educat', 'school', 'scholarship', 'tuition', 'college', 'universit', 'literacy', 'student', 'learning'];

  const f = (rs: readonly Row[], extra: number[] = []): Expect => ({ answer: [totals(rs).paid, totals(rs).n, ...extra], never: mixedIfAny(rs) });
  const rev = (name: string): Expect => ({ answer: [totals(to(name)).paid], never: mixedIfAny(to(name)), coverage: true });
  const pair = (funder: string, name: string): Expect => {
    const rs = to(name).filter((r) => r.foundation_ein === funder);
    return { answer: [totals(rs).paid], never: [...mixedIfAny(rs), sum(paidOf(by(funder)))] };
  };
  const refuse = (code?: string): Expect => ({ refuse: true, ...(code ? { code } : {}) });
  /** The average paid grant, to the cent; never the average with approved-for-future grants mixed in. */
  const cents = (v: number) => Math.round(v * 100) / 100;
  const avg = (rs: readonly Row[]): Expect => {
    const p = paidOf(rs);
    return { answer: [sum(p), p.length], derived: [cents(sum(p) / p.length)], never: futureOf(rs).length ? [cents(sum(rs) / rs.length), ...mixedIfAny(rs)] : [] };
  };
  const amounts = (rs: readonly Row[]) => paidOf(rs).map((r) => Number(r.grant_amount)).sort((a, b) => b - a);
  /** Recipients keyed as the graph keys them: the EIN filed, else the name and state. */
  const rkey = (r: Row) => (r.grantee_ein ? `ein:${r.grantee_ein}` : `${nameKey(r.grantee_name)}|${r.grantee_state.toUpperCase()}`);
  const countsBy = (rs: readonly Row[], k: (r: Row) => string) => { const m = new Map<string, number>(); for (const r of paidOf(rs)) m.set(k(r), (m.get(k(r)) ?? 0) + 1); return [...m.values()].sort((a, b) => b - a); };
  const funderCounts = countsBy(rows, (r) => r.foundation_ein);
  /** The funders (by EIN) that made a grant of any status to both recipients. */
  const commonFundersOf = (a: string, b: string) => { const fa = new Set(to(a).map((r) => r.foundation_ein)); return new Set(to(b).map((r) => r.foundation_ein).filter((f) => fa.has(f))).size; };
  const pairPaid = (funder: string, name: string) => sum(paidOf(to(name).filter((r) => r.foundation_ein === funder)));
  /** A funder's grants by the state filed for each grant: the top state's paid total (or count). */
  const statesOf = (rs: readonly Row[], byCount = false): Expect => {
    const m = new Map<string, number>();
    for (const r of paidOf(rs)) if (r.grantee_state) m.set(r.grantee_state.toUpperCase(), (m.get(r.grantee_state.toUpperCase()) ?? 0) + (byCount ? 1 : Number(r.grant_amount)));
    const top = [...m.entries()].sort((a, b) => b[1] - a[1]);
    return { answer: [top[0]![1]], never: [sum(paidOf(rs))] };
  };
  /** Funders ranked by their paid grants filed to one state (all funders). */
  const fundersIn = (st: string): Expect => {
    const m = new Map<string, number>();
    for (const r of inState(paidOf(rows), st)) m.set(r.foundation_ein, (m.get(r.foundation_ein) ?? 0) + Number(r.grant_amount));
    return { answer: [Math.max(...m.values())], coverage: true, never: [stateTotal(st)] };
  };
  const SALVATION = rows.filter((r) => r.grantee_ein === '13-5562351');
  /** Paid totals per key over some rows, largest first. */
  const totalsBy = (rs: readonly Row[], k: (r: Row) => string) => { const m = new Map<string, number>(); for (const r of paidOf(rs)) m.set(k(r), (m.get(k(r)) ?? 0) + Number(r.grant_amount)); return [...m.values()].sort((a, b) => b - a); };
  /** A threshold reading: the totals kept (over `value`) must be published, those not kept never. */
  const over = (totals: number[], value: number): { answer: number[]; never: number[] } => ({ answer: totals.filter((x) => x > value), never: totals.filter((x) => x <= value) });
  const placeholder = (r: Row) => /^see attached/i.test(r.grantee_name);
  /** One funder's grants to one state: paid total, count, and the distinct recipients (by the key the graph keys them by). */
  const geoCount = (funder: string, st: string): Expect => { const rs = paidOf(inState(by(funder), st)); return { answer: [sum(rs), rs.length, new Set(rs.map(rkey)).size], never: mixedIfAny(inState(by(funder), st)) }; };

  return [
    // forward: a funder's grants
    { kind: 'forward', q: 'What grants did the Joyce Foundation make in 2023?', expect: f(year(by(JOYCE), 2023)) },
    { kind: 'forward', q: 'How many grants did the Mott Foundation give?', expect: f(by(MOTT)) },
    { kind: 'forward', q: "What were the Charles Stewart Mott Foundation's largest grants?", expect: f(by(MOTT), [largestGrant(by(MOTT))]) },
    { kind: 'forward', q: 'How much did the Crown Family Foundation give in 2023?', expect: f(year(by(CROWN), 2023)) },
    { kind: 'forward', q: 'What did the Erb Family Foundation fund?', expect: { answer: [totals(by(ERB)).paid, sum(futureOf(by(ERB)))], never: [sum(by(ERB))] } },
    { kind: 'forward', q: 'Grants made by the Toledo Community Foundation', expect: f(by(TOLEDO)) },
    { kind: 'forward', q: "the joyce foundation's grantees", expect: { answer: [topRecipient(by(JOYCE))] } },
    { kind: 'forward', q: 'How much money did the Porter Family Foundation give away?', expect: f(by(PORTER)) },
    { kind: 'forward', q: 'Which organizations did the Astor Street Foundation support?', expect: f(by(ASTOR)) },
    { kind: 'forward', q: 'What grants did the Sears Swetland Family Foundation make?', expect: f(by(SEARS)) },
    { kind: 'forward', q: 'How much did the McDougal Family Foundation give?', expect: f(by(MCDOUGAL)) },
    { kind: 'forward', q: 'List the grants from the Community Foundation of Lorain County', expect: f(by(LORAIN)) },
    { kind: 'forward', q: 'How much did the Bay Area Community Foundation pay in grants in 2024?', expect: f(year(by(BAY), 2024)) },
    { kind: 'forward', q: 'How much has the National Fish and Wildlife Foundation given?', expect: f(by(NFWF)) },
    { kind: 'forward', q: 'What grants did the Erb Family Foundation approve for future payment?', expect: { answer: [sum(futureOf(by(ERB))), futureOf(by(ERB)).length], never: [sum(by(ERB))] } },
    { kind: 'forward', q: 'How much did the Fred A. and Barbara M. Erb Family Foundation give?', expect: f(by(ERB)) },
    { kind: 'forward', q: 'Who did the Sears-Swetland Foundation fund?', expect: f(by(SEARS)) },
    { kind: 'forward', q: "Show me the Brookby Foundation's grants", expect: f(by(BROOKBY)) },
    { kind: 'forward', q: 'How much did the Toledo Community Foundation give out in grants?', expect: f(by(TOLEDO)) },
    { kind: 'forward', q: 'What organizations did the Crown Family Foundation give grants to?', expect: f(by(CROWN)) },
    { kind: 'forward', q: 'How much did rochester area community foundation grant in total?', expect: f(by(ROCHESTER)) },
    { kind: 'average', q: 'What is the average grant size of the Brookby Foundation?', expect: avg(by(BROOKBY)) },
    // a funder's recipients ranked
    { kind: 'top recipients', q: 'Who received the most money from the Joyce Foundation?', expect: { answer: [topRecipient(by(JOYCE))] } },
    { kind: 'top recipients', q: 'What are the largest recipients of the Community Foundation for Greater Buffalo?', expect: { answer: [topRecipient(by(BUFFALO))] } },
    { kind: 'top recipients', q: 'Top recipients of the Erb Family Foundation', expect: { answer: [topRecipient(by(ERB))] } },
    // reverse: a recipient's funders
    { kind: 'reverse', q: 'Who gives money to the Alliance for the Great Lakes?', expect: rev('Alliance for the Great Lakes') },
    { kind: 'reverse', q: 'Which foundations support Friends of the Detroit River?', expect: rev('Friends of the Detroit River') },
    { kind: 'reverse', q: "Who are Freshwater Future's biggest donors?", expect: { ...rev('Freshwater Future'), never: [funderTotals[0]!] } },
    { kind: 'reverse', q: 'Who funds Michigan State University?', expect: rev('Michigan State University') },
    { kind: 'reverse', q: "Who funds the Harlem Children's Zone?", expect: rev("Harlem Children's Zone") },
    { kind: 'reverse', q: 'Which funders support Elevate Energy?', expect: rev('Elevate Energy') },
    { kind: 'reverse', q: 'Where does the Ohio Environmental Council get its funding?', expect: rev('Ohio Environmental Council') },
    { kind: 'reverse', q: 'Grants to Mott Community College', expect: rev('Mott Community College') },
    { kind: 'reverse', q: 'Who are the funders of Northwestern University?', expect: rev('Northwestern University') },
    { kind: 'reverse', q: 'Who funds the United Way of Genesee County?', expect: rev('United Way of Genesee County') },
    { kind: 'reverse', q: 'Who gives money to Boys & Girls Clubs of Buffalo?', expect: rev('Boys and Girls Clubs of Buffalo') },
    { kind: 'reverse', q: 'Who supports Friends of the Rouge?', expect: rev('Friends of the Rouge') },
    { kind: 'reverse', q: 'Who donated to the Interlochen Center for the Arts?', expect: rev('Interlochen Center for the Arts') },
    { kind: 'reverse', q: 'Which foundations gave money to Friends of the Chicago River?', expect: rev('Friends of the Chicago River') },
    { kind: 'reverse', q: 'Who are the biggest funders of the Community Foundation of Greater Flint?', expect: rev('Community Foundation of Greater Flint') },
    { kind: 'reverse', q: 'How much did Michigan State University receive in grants?', expect: rev('Michigan State University') },
    { kind: 'reverse', q: 'Which foundations fund the Moon Gardening Society?', expect: refuse('not_in_graph') },
    // one funder, one recipient
    { kind: 'pair', q: 'Did the Joyce Foundation fund Elevate Energy?', expect: pair(JOYCE, 'Elevate Energy') },
    { kind: 'pair', q: 'How much has the Mott Foundation given the United Way of Genesee County?', expect: pair(MOTT, 'United Way of Genesee County') },
    { kind: 'pair', q: 'How much did the Joyce Foundation give to the Alliance for the Great Lakes?', expect: pair(JOYCE, 'Alliance for the Great Lakes') },
    { kind: 'pair', q: 'How much did the Erb Family Foundation give to Freshwater Future?', expect: pair(ERB, 'Freshwater Future') },
    { kind: 'pair', q: 'How much did Freshwater Future receive from the Erb Family Foundation?', expect: pair(ERB, 'Freshwater Future') },
    { kind: 'pair', q: 'Grants from the Mott Foundation to Mott Community College', expect: pair(MOTT, 'Mott Community College') },
    { kind: 'pair', q: 'How much did the Mott Foundation give to the Sierra Club?', expect: refuse() },
    { kind: 'pair', q: 'Has the Crown Family Foundation given money to Northwestern University?', expect: refuse() },
    { kind: 'pair', q: 'How much did the Ford Foundation give to Freshwater Future?', expect: refuse('not_in_graph') },
    // intersection
    { kind: 'intersection', q: 'Which organizations do both the Joyce Foundation and the Mott Foundation fund?', expect: { answer: [common(JOYCE, MOTT)] } },
    { kind: 'intersection', q: 'Which groups did both the Erb Family Foundation and the Joyce Foundation support?', expect: { answer: [common(ERB, JOYCE)] } },
    // graph-wide
    { kind: 'graph-wide', q: 'Which organizations received the most grant money?', expect: { answer: [recipientTop], coverage: true } },
    { kind: 'graph-wide', q: 'Which funder gave the most?', expect: { answer: [funderTotals[0]!], coverage: true } },
    { kind: 'graph-wide', q: 'Who are the top 5 grant recipients?', expect: { answer: [recipientTop], coverage: true } },
    { kind: 'graph-wide', q: 'What are the biggest foundations by grants paid?', expect: { answer: [funderTotals[0]!], coverage: true } },
    { kind: 'graph-wide', q: 'Which foundations gave the most in 2023?', expect: refuse() },
    { kind: 'graph-wide', q: 'Which states received the most grant money?', expect: { answer: [topState], coverage: true } },
    { kind: 'graph-wide', q: 'How much grant money went to organizations in Ohio?', expect: geo(null, 'OH') },
    { kind: 'graph-wide', q: 'How much grant money went to organizations in Minnesota?', expect: geo(null, 'MN') },
    // geographic
    { kind: 'geographic', q: 'How much did the Mott Foundation give to organizations in Michigan?', expect: geo(MOTT, 'MI') },
    { kind: 'geographic', q: 'Grants to Michigan organizations from the Joyce Foundation', expect: geo(JOYCE, 'MI') },
    { kind: 'geographic', q: 'Who did the Joyce Foundation give money to in Ohio?', expect: geo(JOYCE, 'OH') },
    { kind: 'geographic', q: 'Which nonprofits in Illinois did the Joyce Foundation fund?', expect: geo(JOYCE, 'IL') },
    { kind: 'geographic', q: 'How much did the Toledo Community Foundation give to organizations in New York?', expect: geo(TOLEDO, 'NY') },
    { kind: 'state ranking', q: 'Which states received the most from the Joyce Foundation?', expect: statesOf(by(JOYCE)) },
    // cause
    { kind: 'cause', q: 'Environmental grants from the Joyce Foundation', expect: { answer: [sum(purposeNames(paidOf(by(JOYCE)), ENV))], never: [totals(by(JOYCE)).paid], disclose: /purpose text/ } },
    // funding by cause over the whole graph, typed as people ask it (no funder named)
    { kind: 'cause', q: 'Which foundations fund environmental groups?', expect: { answer: [sum(purposeNames(paidOf(rows), ENV))], never: [sum(paidOf(rows))], disclose: /purpose text/ } },
    { kind: 'cause', q: 'How much grant money went to the arts?', expect: { answer: [sum(purposeNames(paidOf(rows), ARTS))], never: [sum(paidOf(rows))], disclose: /purpose text/ } },
    { kind: 'cause', q: 'Who supports education?', expect: { answer: [sum(purposeNames(paidOf(rows), EDU))], never: [sum(paidOf(rows))], disclose: /purpose text/ } },
    { kind: 'cause', q: 'How much money went to health care?', expect: { answer: [sum(purposeNames(paidOf(rows), ['health', 'hospital', 'medical', 'clinic', 'patient']))], never: [sum(paidOf(rows))], disclose: /purpose text/ } },
    { kind: 'cause', q: 'How much did the Mott Foundation give to education?', expect: { answer: [sum(purposeNames(paidOf(by(MOTT)), EDU))], never: [totals(by(MOTT)).paid], disclose: /purpose text/ } },
    { kind: 'cause', q: 'What did the Erb Family Foundation fund for the environment?', expect: refuse('cause_unclassified') },
    { kind: 'cause', q: 'How much did the Community Foundation for Greater Buffalo give to the arts?', expect: refuse('cause_unclassified') },
    // years
    { kind: 'year', q: 'How much did the Mott Foundation pay in grants in 2024?', expect: refuse('no_grants') },
    // direction left open, and names the graph does not hold
    { kind: 'open direction', q: 'Joyce Foundation grants', expect: { ...f(by(JOYCE)), disclose: /read as the grants .* made/ } },
    { kind: 'open direction', q: 'Rochester Area Community Foundation grants', expect: { ...f(by(ROCHESTER)), disclose: /read as the grants .* made/ } },
    { kind: 'open direction', q: 'mott foundation grants', expect: f(by(MOTT)) },
    { kind: 'open direction', q: 'Ford Foundation grants', expect: refuse('not_in_graph') },
    { kind: 'not held', q: 'What grants did the Kresge Foundation make?', expect: refuse('not_in_graph') },
    { kind: 'not held', q: 'How much did the Gates Foundation give in 2023?', expect: refuse('not_in_graph') },
    { kind: 'not held', q: 'What grants did NFWF make?', expect: refuse() },
    // a second set, written after the first was fixed and run once before any fix it prompted
    { kind: 'forward', q: 'Which charities did the Mott Foundation give money to?', expect: f(by(MOTT)) },
    { kind: 'forward', q: 'What did Crown Family Foundation donate in 2023?', expect: f(year(by(CROWN), 2023)) },
    { kind: 'forward', q: 'Who has the Toledo Community Foundation funded?', expect: f(by(TOLEDO)) },
    { kind: 'forward', q: 'Tell me about grants from the Porter Family Foundation', expect: f(by(PORTER)) },
    { kind: 'forward', q: 'Which organizations get money from the Astor Street Foundation?', expect: f(by(ASTOR)) },
    { kind: 'forward', q: 'Which grantees did the Community Foundation of Lorain County support in 2023?', expect: f(year(by(LORAIN), 2023)) },
    { kind: 'forward', q: 'How much did NATIONAL FISH AND WILDLIFE FOUNDATION give?', expect: f(by(NFWF)) },
    { kind: 'forward', q: 'What grants did the Joyce Foundation approve for future payment?', expect: { answer: [sum(futureOf(by(JOYCE))), futureOf(by(JOYCE)).length], never: [sum(by(JOYCE))] } },
    { kind: 'pair', q: 'How much did the Joyce Foundation donate to Elevate Energy?', expect: pair(JOYCE, 'Elevate Energy') },
    { kind: 'pair', q: 'Is the Joyce Foundation a funder of the Alliance for the Great Lakes?', expect: pair(JOYCE, 'Alliance for the Great Lakes') },
    { kind: 'pair', q: 'Is Freshwater Future a grantee of the Erb Family Foundation?', expect: pair(ERB, 'Freshwater Future') },
    { kind: 'pair', q: 'Did the Kresge Foundation fund Freshwater Future?', expect: refuse('not_in_graph') },
    { kind: 'reverse', q: 'Who gave grants to Freshwater Future in 2023?', expect: rev('Freshwater Future') },
    { kind: 'reverse', q: 'What foundations have given to the Ohio Environmental Council?', expect: rev('Ohio Environmental Council') },
    { kind: 'reverse', q: 'Who donates to the University of Notre Dame?', expect: rev('University of Notre Dame') },
    { kind: 'reverse', q: 'List the funders of Friends of the Detroit River', expect: rev('Friends of the Detroit River') },
    { kind: 'reverse', q: "How much money did the Harlem Children's Zone get from foundations?", expect: rev("Harlem Children's Zone") },
    { kind: 'reverse', q: 'Which funder gave the most to Michigan State University?', expect: rev('Michigan State University') },
    { kind: 'reverse', q: 'Top 3 funders of Freshwater Future', expect: rev('Freshwater Future') },
    { kind: 'intersection', q: 'Which organizations did both the Mott Foundation and the Erb Family Foundation fund?', expect: { answer: [common(MOTT, ERB)] } },
    { kind: 'graph-wide', q: 'Who are the smallest funders?', expect: { answer: [funderTotals[funderTotals.length - 1]!], coverage: true } },
    { kind: 'graph-wide', q: 'How much did foundations give to organizations in Wisconsin?', expect: geo(null, 'WI') },
    { kind: 'geographic', q: 'How much did the Brookby Foundation give to Wisconsin?', expect: geo(BROOKBY, 'WI') },
    { kind: 'cause', q: 'Health grants from the Toledo Community Foundation', expect: { answer: [sum(purposeNames(paidOf(by(TOLEDO)), ['health', 'hospital', 'medical', 'clinic', 'patient']))], never: [totals(by(TOLEDO)).paid], disclose: /purpose text/ } },
    { kind: 'open direction', q: 'Brookby Foundation grants', expect: { ...f(by(BROOKBY)), disclose: /read as the grants .* made/ } },
    { kind: 'open direction', q: 'Freshwater Future grants', expect: { ...rev('Freshwater Future'), disclose: /read as the grants .* received/ } },
    // a line filed to "SEE ATTACHED SCHEDULE" may total several grants: no single grant to rank
    { kind: 'largest', q: 'What are the 10 largest grants in the graph?', expect: { answer: amounts(rows.filter((r) => !/^see attached/i.test(r.grantee_name))).slice(0, 10), never: amounts(rows.filter((r) => /^see attached/i.test(r.grantee_name))), coverage: true, disclose: /SEE ATTACHED SCHEDULE.* left out of this ranking of single grants/ } },
    // a third set, the same way
    { kind: 'top recipients', q: "Give me the Erb Family Foundation's top 5 grantees", expect: { answer: [topRecipient(by(ERB))], never: [recipientTop] } },
    { kind: 'top recipients', q: 'Who were the biggest recipients of Mott Foundation money?', expect: { answer: [topRecipient(by(MOTT))] } },
    { kind: 'geographic', q: 'Which Michigan nonprofits did the Erb Family Foundation support?', expect: geo(ERB, 'MI') },
    { kind: 'geographic', q: 'How much did the Mott Foundation give in Ohio?', expect: geo(MOTT, 'OH') },
    { kind: 'forward', q: 'How many organizations did the Brookby Foundation fund?', expect: f(by(BROOKBY)) },
    { kind: 'forward', q: 'What is the total amount the Joyce Foundation granted?', expect: f(by(JOYCE)) },
    { kind: 'forward', q: 'Total grants paid by the Crown Family Foundation', expect: f(by(CROWN)) },
    { kind: 'reverse', q: "What is Freshwater Future's total grant funding?", expect: rev('Freshwater Future') },
    { kind: 'reverse', q: 'Who has given money to Mott Community College?', expect: rev('Mott Community College') },
    { kind: 'reverse', q: 'Funders of the Alliance for the Great Lakes', expect: rev('Alliance for the Great Lakes') },
    { kind: 'pair', q: 'How much did the Toledo Community Foundation give to the Toledo Museum of Art?', expect: pair(TOLEDO, 'Toledo Museum of Art') },
    { kind: 'pair', q: 'Has the Brookby Foundation ever funded the Urban Ecology Center?', expect: pair(BROOKBY, 'Urban Ecology Center') },
    { kind: 'pair', q: 'Did Mott give anything to Freshwater Future?', expect: refuse() },
    { kind: 'cause', q: 'What grants did the Joyce Foundation make for journalism?', expect: { answer: [sum(purposeNames(paidOf(by(JOYCE)), ARTS))], never: [totals(by(JOYCE)).paid], disclose: /purpose text/ } },
    { kind: 'cause', q: 'Arts grants by the Rochester Area Community Foundation', expect: { answer: [sum(purposeNames(paidOf(by(ROCHESTER)), ARTS))], disclose: /purpose text/ } },
    { kind: 'common funders', q: 'Which foundations fund both Freshwater Future and the Alliance for the Great Lakes?', expect: { answer: [commonFundersOf('Freshwater Future', 'Alliance for the Great Lakes')], coverage: true } },
    { kind: 'state ranking', q: 'Which foundation gave the most to organizations in Michigan?', expect: fundersIn('MI') },
    // a fourth set, the same way
    { kind: 'pair', q: 'How much did the Joyce Foundation give Northwestern University?', expect: pair(JOYCE, 'Northwestern University') },
    { kind: 'pair', q: 'What did the Sears Swetland Family Foundation give to the Ohio Environmental Council?', expect: pair(SEARS, 'Ohio Environmental Council') },
    { kind: 'pair', q: 'Did the Community Foundation for Greater Buffalo fund the Buffalo AKG Art Museum?', expect: pair(BUFFALO, 'Buffalo AKG Art Museum') },
    { kind: 'pair', q: 'How much did the Erb Family Foundation give to the University of Michigan?', expect: pair(ERB, 'University of Michigan') },
    { kind: 'forward', q: "What's the Mott Foundation's biggest grant?", expect: f(by(MOTT), [largestGrant(by(MOTT))]) },
    { kind: 'forward', q: 'Who received grants from the Bay Area Community Foundation in 2024?', expect: f(year(by(BAY), 2024)) },
    { kind: 'forward', q: 'How much in grants did the Astor Street Foundation make in 2024?', expect: f(year(by(ASTOR), 2024)) },
    { kind: 'top recipients', q: 'Which organizations received the most money from the Toledo Community Foundation?', expect: { answer: [topRecipient(by(TOLEDO))] } },
    { kind: 'geographic', q: 'Which organizations in New York did the Rochester Area Community Foundation fund?', expect: geo(ROCHESTER, 'NY') },
    { kind: 'geographic', q: 'How much did the Porter Family Foundation give to organizations in Indiana?', expect: geo(PORTER, 'IN') },
    { kind: 'reverse', q: 'Show grants to Elevate Energy', expect: rev('Elevate Energy') },
    { kind: 'reverse', q: 'Who funded Fresh Energy?', expect: rev('Fresh Energy') },
    { kind: 'reverse', q: 'Who are the donors to the Michigan Environmental Council?', expect: rev('Michigan Environmental Council') },
    { kind: 'reverse', q: 'How much money has Advance Illinois received?', expect: rev('Advance Illinois') },
    { kind: 'reverse', q: 'List foundations that gave to Freshwater Future', expect: rev('Freshwater Future') },
    { kind: 'cause', q: "What are the Joyce Foundation's grants for education?", expect: { answer: [sum(purposeNames(paidOf(by(JOYCE)), EDU))], never: [totals(by(JOYCE)).paid], disclose: /purpose text/ } },
    { kind: 'intersection', q: 'Which groups received grants from both the Toledo Community Foundation and the Community Foundation of Lorain County?', expect: { answer: [common(TOLEDO, LORAIN)], never: [totals(by(TOLEDO)).paid] } },
    { kind: 'graph-wide', q: 'Largest funders in the graph', expect: { answer: [funderTotals[0]!], coverage: true } },
    { kind: 'graph-wide', q: 'Who gave the most money overall?', expect: { answer: [funderTotals[0]!], coverage: true } },
    { kind: 'open direction', q: 'Erb Family Foundation grants in 2023', expect: f(year(by(ERB), 2023)) },
    // a fifth set: averages, single grants, counts, two funders, shared funders, states, years and ambiguous names
    { kind: 'average', q: "What's the Joyce Foundation's average grant?", expect: avg(by(JOYCE)) },
    { kind: 'average', q: 'How big is the typical grant from the Toledo Community Foundation?', expect: avg(by(TOLEDO)) },
    { kind: 'average', q: 'average grant from the mott foundation', expect: avg(by(MOTT)) },
    { kind: 'average', q: 'How much does the Crown Family Foundation give per grant on average?', expect: avg(by(CROWN)) },
    { kind: 'average', q: "What's the average grant made by the Joyce Foundation in 2023?", expect: avg(year(by(JOYCE), 2023)) },
    { kind: 'average', q: 'What was the average grant size of the Erb Family Foundation in 2023?', expect: avg(year(by(ERB), 2023)) },
    { kind: 'average', q: 'What is the average grant to Freshwater Future?', expect: { ...avg(to('Freshwater Future')), coverage: true } },
    { kind: 'average', q: 'What is the average grant Mott Community College received?', expect: { ...avg(to('Mott Community College')), coverage: true } },
    { kind: 'average', q: 'What is the average grant in the graph?', expect: { ...avg(rows), coverage: true } },
    { kind: 'largest', q: 'What was the biggest grant the Mott Foundation made?', expect: { answer: [amounts(by(MOTT))[0]!], never: [sum(paidOf(by(MOTT))) + 1] } },
    { kind: 'largest', q: 'Top 5 largest grants from the Joyce Foundation', expect: { answer: amounts(by(JOYCE)).slice(0, 5) } },
    { kind: 'largest', q: 'Largest grant made by the Toledo Community Foundation', expect: { answer: [amounts(by(TOLEDO))[0]!] } },
    { kind: 'largest', q: 'What was the single largest grant in the grant graph?', expect: { answer: [amounts(rows)[0]!], coverage: true } },
    { kind: 'largest', q: 'What is the largest grant Freshwater Future received?', expect: { answer: [amounts(to('Freshwater Future'))[0]!], coverage: true } },
    { kind: 'largest', q: 'What is the biggest grant Michigan State University got?', expect: { answer: [amounts(to('Michigan State University'))[0]!], coverage: true } },
    { kind: 'count ranking', q: 'Which foundation made the most grants?', expect: { answer: [funderCounts[0]!], coverage: true, disclose: /number of grants/ } },
    { kind: 'count ranking', q: 'Which funder made the fewest grants?', expect: { answer: [funderCounts[funderCounts.length - 1]!], coverage: true, disclose: /number of grants/ } },
    { kind: 'count ranking', q: 'Which organization received the most grants?', expect: { answer: [countsBy(rows, rkey)[0]!], coverage: true } },
    { kind: 'count ranking', q: 'Who got the most grants from the Joyce Foundation?', expect: { answer: [countsBy(by(JOYCE), rkey)[0]!], disclose: /number of grants/ } },
    { kind: 'count ranking', q: 'Which organizations got the most grants from the Mott Foundation?', expect: { answer: [countsBy(by(MOTT), rkey)[0]!], disclose: /number of grants/ } },
    { kind: 'count ranking', q: 'Which foundation made the most grants to the Community Foundation of Greater Flint?', expect: { answer: [countsBy(to('Community Foundation of Greater Flint'), (r) => r.foundation_ein)[0]!], coverage: true } },
    { kind: 'two funders', q: 'How much did Mott and Joyce give to Freshwater Future?', expect: { answer: [pairPaid(JOYCE, 'Freshwater Future')], never: [sum(paidOf(by(JOYCE)))] } },
    { kind: 'two funders', q: 'Who gave more to Freshwater Future, the Joyce Foundation or the Erb Family Foundation?', expect: { answer: [pairPaid(JOYCE, 'Freshwater Future'), pairPaid(ERB, 'Freshwater Future')], derived: [Math.abs(pairPaid(JOYCE, 'Freshwater Future') - pairPaid(ERB, 'Freshwater Future'))] } },
    { kind: 'two funders', q: 'Did the Joyce Foundation or the Erb Family Foundation give more to the Alliance for the Great Lakes?', expect: { answer: [pairPaid(JOYCE, 'Alliance for the Great Lakes'), pairPaid(ERB, 'Alliance for the Great Lakes')], derived: [Math.abs(pairPaid(JOYCE, 'Alliance for the Great Lakes') - pairPaid(ERB, 'Alliance for the Great Lakes'))], never: [sum(to('Alliance for the Great Lakes').filter((r) => r.foundation_ein === ERB))] } },
    { kind: 'two funders', q: 'Who gave more, the Mott Foundation or the Joyce Foundation?', expect: { answer: [sum(paidOf(by(MOTT))), sum(paidOf(by(JOYCE)))], derived: [sum(paidOf(by(MOTT))) - sum(paidOf(by(JOYCE)))], never: [sum(by(MOTT)), sum(by(JOYCE))] } },
    { kind: 'two funders', q: 'How much did the Erb Family Foundation and the Joyce Foundation give in total?', expect: { answer: [sum(paidOf(by(ERB))), sum(paidOf(by(JOYCE)))], derived: [sum(paidOf(by(ERB))) + sum(paidOf(by(JOYCE)))], never: [sum(by(ERB)) + sum(by(JOYCE))] } },
    { kind: 'two funders', q: 'How much did the Toledo Community Foundation and the Rochester Area Community Foundation give to the University of Notre Dame?', expect: { answer: [pairPaid(TOLEDO, 'University of Notre Dame'), pairPaid(ROCHESTER, 'University of Notre Dame')], derived: [pairPaid(TOLEDO, 'University of Notre Dame') + pairPaid(ROCHESTER, 'University of Notre Dame')] } },
    { kind: 'common funders', q: 'Which funders do Freshwater Future and the Ohio Environmental Council have in common?', expect: { answer: [commonFundersOf('Freshwater Future', 'Ohio Environmental Council')], coverage: true } },
    { kind: 'common funders', q: 'Which foundations support both the Alliance for the Great Lakes and Elevate Energy?', expect: { answer: [commonFundersOf('Alliance for the Great Lakes', 'Elevate Energy')], coverage: true } },
    { kind: 'common funders', q: 'Who funds both Michigan State University and the University of Notre Dame?', expect: { answer: [commonFundersOf('Michigan State University', 'University of Notre Dame')], coverage: true } },
    { kind: 'state ranking', q: 'Which states did the Erb Family Foundation give the most to?', expect: statesOf(by(ERB)) },
    { kind: 'state ranking', q: 'Which funders gave the most to organizations in New York?', expect: fundersIn('NY') },
    { kind: 'state ranking', q: 'Who gave the most grant money to organizations in Illinois?', expect: fundersIn('IL') },
    { kind: 'year', q: 'Who received the most money from the Erb Family Foundation in 2023?', expect: { answer: [topRecipient(year(by(ERB), 2023))] } },
    { kind: 'year', q: 'Which organizations did the Joyce Foundation fund in Illinois in 2023?', expect: f(inState(year(by(JOYCE), 2023), 'IL')) },
    { kind: 'year', q: 'Environmental grants from the Joyce Foundation in 2023', expect: { answer: [sum(purposeNames(paidOf(year(by(JOYCE), 2023)), ENV))], never: [totals(by(JOYCE)).paid], disclose: /purpose text/ } },
    { kind: 'year', q: 'Which foundations gave the most in 2024?', expect: refuse('year_not_filterable') },
    { kind: 'ambiguous', q: 'Who funds the Salvation Army?', onAmbiguity: 'ask', expect: { clarify: true, options: 3 } },
    { kind: 'ambiguous', q: 'Who funds the Salvation Army?', expect: { answer: [sum(paidOf(SALVATION))], coverage: true, disclose: /matches 3 recipient records .* answered for/ } },
    { kind: 'ambiguous', q: 'How much did the Community Foundation give?', onAmbiguity: 'ask', expect: { clarify: true, options: 5 } },
    { kind: 'ambiguous', q: 'How much did the Community Foundation give?', expect: { ...f(by(BUFFALO)), disclose: /answered for COMMUNITY FOUNDATION FOR GREATER BUFFALO/ } },
    { kind: 'ambiguous', q: 'Who funds First United Methodist Church?', onAmbiguity: 'ask', expect: { clarify: true, options: 3 } },
    // a sixth set, tried as a new user would after the fifth passed
    { kind: 'pair', q: 'How many grants did the Joyce Foundation make to Elevate Energy?', expect: { answer: [pairPaid(JOYCE, 'Elevate Energy'), paidOf(to('Elevate Energy').filter((r) => r.foundation_ein === JOYCE)).length], never: [sum(paidOf(by(JOYCE)))] } },
    { kind: 'average', q: 'What is the average grant from the Joyce Foundation to Elevate Energy?', expect: { ...avg(to('Elevate Energy').filter((r) => r.foundation_ein === JOYCE)), never: [cents(sum(paidOf(by(JOYCE))) / paidOf(by(JOYCE)).length)] } },
    { kind: 'average', q: 'On average, how much does the Mott Foundation give per grant?', expect: avg(by(MOTT)) },
    { kind: 'average', q: 'What is the mean grant amount for grants to Michigan State University?', expect: { ...avg(to('Michigan State University')), coverage: true } },
    { kind: 'average', q: "What's the average grant the Joyce Foundation made to organizations in Illinois?", expect: refuse('unmappable') },
    { kind: 'largest', q: 'What was the largest grant from the Mott Foundation to Michigan State University?', expect: { answer: [amounts(to('Michigan State University').filter((r) => r.foundation_ein === MOTT))[0]!] } },
    { kind: 'largest', q: 'What was the smallest grant the Joyce Foundation made?', expect: { answer: [amounts(by(JOYCE)).at(-1)!] } },
    { kind: 'largest', q: 'What is the smallest grant in the graph?', expect: refuse('smallest_graph_wide') },
    { kind: 'count ranking', q: 'Which grantee received the most grants?', expect: { answer: [countsBy(rows, rkey)[0]!], coverage: true } },
    { kind: 'two funders', q: 'Did Mott or Joyce give more?', expect: { answer: [sum(paidOf(by(MOTT))), sum(paidOf(by(JOYCE)))], derived: [sum(paidOf(by(MOTT))) - sum(paidOf(by(JOYCE)))] } },
    { kind: 'two funders', q: 'How much did the Joyce and Mott foundations give to Elevate Energy?', expect: { answer: [pairPaid(JOYCE, 'Elevate Energy'), pairPaid(MOTT, 'Elevate Energy')], derived: [pairPaid(JOYCE, 'Elevate Energy') + pairPaid(MOTT, 'Elevate Energy')] } },
    { kind: 'common funders', q: 'Which foundations gave to both Freshwater Future and the Alliance for the Great Lakes?', expect: { answer: [commonFundersOf('Freshwater Future', 'Alliance for the Great Lakes')], coverage: true } },
    { kind: 'state ranking', q: 'What states did the Mott Foundation give to?', expect: statesOf(by(MOTT)) },
    { kind: 'year', q: 'How much did the Joyce Foundation give to Illinois organizations in 2023?', expect: f(inState(year(by(JOYCE), 2023), 'IL')) },
    // a seventh set, the same way
    { kind: 'average', q: "What's the typical grant size for the Community Foundation for Greater Buffalo?", expect: avg(by(BUFFALO)) },
    { kind: 'pair', q: 'How many grants did Michigan State University get from the Mott Foundation?', expect: { answer: [pairPaid(MOTT, 'Michigan State University'), paidOf(to('Michigan State University').filter((r) => r.foundation_ein === MOTT)).length], never: [sum(paidOf(to('Michigan State University')))] } },
    { kind: 'pair', q: 'How much did the Joyce Foundation give to Freshwater Future and the Alliance for the Great Lakes?', expect: refuse() },
    { kind: 'intersection', q: 'Which organizations received grants from the Joyce Foundation but not the Mott Foundation?', expect: refuse('unmappable') },
    { kind: 'top recipients', q: 'Who was the top grantee of the Crown Family Foundation in 2023?', expect: { answer: [topRecipient(year(by(CROWN), 2023))] } },
    { kind: 'reverse', q: 'Which funder gave Freshwater Future the most money?', expect: rev('Freshwater Future') },
    { kind: 'reverse', q: 'How many funders does Freshwater Future have?', expect: { ...rev('Freshwater Future'), answer: [totals(to('Freshwater Future')).paid, new Set(paidOf(to('Freshwater Future')).map((r) => r.foundation_ein)).size] } },
    { kind: 'two funders', q: 'Compare grants from the Mott Foundation and the Joyce Foundation to Elevate Energy', expect: { answer: [pairPaid(MOTT, 'Elevate Energy'), pairPaid(JOYCE, 'Elevate Energy')], derived: [Math.abs(pairPaid(JOYCE, 'Elevate Energy') - pairPaid(MOTT, 'Elevate Energy'))] } },
    { kind: 'state ranking', q: 'Which states did the Joyce Foundation make the most grants to?', expect: statesOf(by(JOYCE), true) },
    { kind: 'count ranking', q: 'Which organizations did the Joyce Foundation make the most grants to?', expect: { answer: [countsBy(by(JOYCE), rkey)[0]!], disclose: /number of grants/ } },
    { kind: 'pair', q: 'Did the Mott Foundation fund Michigan State University?', expect: pair(MOTT, 'Michigan State University') },
    { kind: 'average', q: "What's the median grant from the Joyce Foundation?", expect: refuse('unmappable') },
    { kind: 'average', q: 'Which funder has the largest average grant?', expect: refuse('unmappable') },
    { kind: 'average', q: 'What is the average grant size?', expect: { ...avg(rows), coverage: true } },
    { kind: 'two funders', q: 'How much did the Joyce Foundation and Mott give together?', expect: { answer: [sum(paidOf(by(JOYCE))), sum(paidOf(by(MOTT)))], derived: [sum(paidOf(by(JOYCE))) + sum(paidOf(by(MOTT)))], never: [sum(by(JOYCE)) + sum(by(MOTT))] } },
    { kind: 'ambiguous', q: 'How much did the Toledo Community Foundation give to the Salvation Army?', expect: { answer: [sum(paidOf(SALVATION.filter((r) => r.foundation_ein === TOLEDO)))], disclose: /answered for/ } },

    // written in this session (units, thresholds, states by name, placeholders, and more of each kind); every figure from the file
    // an organization's units ("University of Chicago - Urban Labs", no EIN of their own) count with it, in its state
    { kind: 'units', q: 'Who funds the University of Chicago?', expect: { ...rev('University of Chicago'), answer: [totals(to('University of Chicago')).paid, pairPaid(JOYCE, 'University of Chicago'), pairPaid(MOTT, 'University of Chicago')], disclose: /units of University of Chicago filed as recipients of their own are counted/ } },
    { kind: 'units', q: 'How much did the Joyce Foundation give to the University of Chicago?', expect: pair(JOYCE, 'University of Chicago') },
    { kind: 'units', q: 'Did Mott fund the University of Chicago?', expect: pair(MOTT, 'University of Chicago') },
    { kind: 'units', q: 'Who funds Michigan State University?', expect: rev('Michigan State University') },
    { kind: 'units', q: 'How much did NEO Philanthropy receive in grants?', expect: rev('NEO Philanthropy') },
    { kind: 'units', q: 'Who funds the Council of State Governments?', expect: { ...rev('Council of State Governments'), disclose: /in another state than IL is left out/ } },
    { kind: 'units', q: 'Who funds the University of Minnesota?', expect: rev('University of Minnesota') },
    { kind: 'units', q: 'Who gave money to the Council of Michigan Foundations?', expect: rev('Council of Michigan Foundations') },
    { kind: 'units', q: 'How many funders does the University of Chicago have?', expect: { ...rev('University of Chicago'), answer: [totals(to('University of Chicago')).paid, new Set(paidOf(to('University of Chicago')).map((r) => r.foundation_ein)).size] } },
    { kind: 'units', q: 'What is the average grant to the University of Chicago?', expect: { ...avg(to('University of Chicago')), coverage: true } },
    // amounts over a threshold: a recipient's funders, a funder's recipients, a state's funders
    { kind: 'threshold', q: 'Which funders gave more than $1 million to Michigan State University?', expect: over(totalsBy(to('Michigan State University'), (r) => r.foundation_ein), 1_000_000) },
    { kind: 'threshold', q: 'Which funders gave more than $100,000 to Freshwater Future?', expect: over(totalsBy(to('Freshwater Future'), (r) => r.foundation_ein), 100_000) },
    { kind: 'threshold', q: 'Who gave the University of Chicago more than $50,000?', expect: over(totalsBy(to('University of Chicago'), (r) => r.foundation_ein), 50_000) },
    { kind: 'threshold', q: 'Which organizations did the Joyce Foundation give more than $500,000?', expect: over(totalsBy(by(JOYCE), rkey), 500_000) },
    { kind: 'threshold', q: 'Which grantees got more than $2 million from the Mott Foundation?', expect: over(totalsBy(by(MOTT), rkey), 2_000_000) },
    { kind: 'threshold', q: 'Which funders gave more than $1 million to organizations in Michigan?', expect: { ...over(totalsBy(inState(rows, 'MI'), (r) => r.foundation_ein), 1_000_000), coverage: true } },
    // states by name, and how many organizations in a state a funder funded
    { kind: 'geographic', q: 'How many organizations in Michigan did the Joyce Foundation fund?', expect: geoCount(JOYCE, 'MI') },
    { kind: 'geographic', q: 'Which nonprofits in Ohio did the Mott Foundation support?', expect: geoCount(MOTT, 'OH') },
    { kind: 'geographic', q: 'Which Michigan organizations received grants from the Joyce Foundation?', expect: geoCount(JOYCE, 'MI') },
    { kind: 'geographic', q: 'How many organizations in New York got money from the Community Foundation for Greater Buffalo?', expect: geoCount(BUFFALO, 'NY') },
    { kind: 'geographic', q: 'How much grant money went to organizations in Illinois?', expect: geo(null, 'IL') },
    { kind: 'geographic', q: 'How much did the Joyce Foundation give to organizations in Wisconsin?', expect: geo(JOYCE, 'WI') },
    { kind: 'state ranking', q: 'Which foundations gave the most to organizations in Minnesota?', expect: fundersIn('MN') },
    // placeholders ("SEE ATTACHED SCHEDULE") are no organization or single grant to rank
    { kind: 'placeholder', q: 'Who are the top 20 recipients in the grant graph?', expect: { answer: [recipientTop], never: [sum(paidOf(rows.filter(placeholder)))], coverage: true, disclose: /SEE ATTACHED SCHEDULE.* left out of this ranking of recipients/ } },
    { kind: 'placeholder', q: 'What was the largest grant the McDougal Family Foundation made?', expect: refuse('only_unnamed') },
    { kind: 'placeholder', q: 'Who did the McDougal Family Foundation fund?', expect: { ...f(by(MCDOUGAL)), disclose: /in place of a recipient/ } },
    // more of the kinds above, in other words
    { kind: 'intersection', q: 'Which organizations do both the Joyce Foundation and the Mott Foundation fund?', expect: { answer: [common(JOYCE, MOTT)] } },
    { kind: 'common funders', q: 'Which funders do the University of Chicago and Northwestern University have in common?', expect: { answer: [commonFundersOf('University of Chicago', 'Northwestern University')], coverage: true } },
    { kind: 'top recipients', q: 'Who are the top 5 recipients of the Toledo Community Foundation?', expect: { answer: [topRecipient(by(TOLEDO))] } },
    { kind: 'average', q: 'What is the average grant from the Rochester Area Community Foundation?', expect: avg(by(ROCHESTER)) },
    { kind: 'state ranking', q: 'Which states did the National Fish and Wildlife Foundation give the most to?', expect: statesOf(by(NFWF)) },
    { kind: 'year', q: 'How much did the Porter Family Foundation give in 2024?', expect: f(year(by(PORTER), 2024)) },
    { kind: 'reverse', q: 'Who funds the Alliance for the Great Lakes?', expect: rev('Alliance for the Great Lakes') },
    { kind: 'pair', q: 'How much did the Erb Family Foundation give to the Council of Michigan Foundations?', expect: pair(ERB, 'Council of Michigan Foundations') },
    // found by running the ones above: a state's name read as a recipient's or a funder's, an amount read as a name
    { kind: 'geographic', q: 'How much did Michigan organizations receive in grants?', expect: { ...geo(null, 'MI'), never: [sum(paidOf(rows.filter((r) => /^michigan street/i.test(r.grantee_name))))] } },
    { kind: 'geographic', q: 'Which Ohio organizations got the most from the Toledo Community Foundation?', expect: geoCount(TOLEDO, 'OH') },
    { kind: 'year', q: 'What is the total the Joyce Foundation gave to organizations in Illinois in 2023?', expect: f(year(inState(by(JOYCE), 'IL'), 2023)) },
    { kind: 'units', q: 'How many foundations funded the University of Chicago?', expect: { ...rev('University of Chicago'), answer: [totals(to('University of Chicago')).paid, new Set(paidOf(to('University of Chicago')).map((r) => r.foundation_ein)).size] } },
    { kind: 'threshold', q: 'Did the Joyce Foundation give more than $1 million to the University of Chicago?', expect: pair(JOYCE, 'University of Chicago') },
    { kind: 'threshold', q: 'Which organizations in Michigan got more than $1 million from the Mott Foundation?', expect: { ...over(totalsBy(inState(by(MOTT), 'MI'), rkey), 1_000_000), answer: [sum(paidOf(inState(by(MOTT), 'MI'))), ...over(totalsBy(inState(by(MOTT), 'MI'), rkey), 1_000_000).answer] } },
  ];
}

/** What an answer is, judged against its expectation: right, a wrong figure, refused, or a clarification asked. */
export type Outcome = 'right' | 'wrong_figure' | 'refused' | 'clarified';

interface Judged { status: string; figures: ReadonlyArray<{ value: number; grade: string }>; disclosures: readonly string[]; refusalCode?: string | undefined; options?: number }

export function judge(e: Expect, r: Judged, funders: number): { outcome: Outcome; why: string } {
  if ('clarify' in e) {
    if (r.status !== 'needs_clarification') return { outcome: r.status === 'refused' ? 'refused' : 'wrong_figure', why: `${r.status} where a clarification was expected` };
    return (r.options ?? 0) >= e.options ? { outcome: 'right', why: 'asked' } : { outcome: 'clarified', why: `asked with ${r.options} options, expected ${e.options}` };
  }
  if (r.status === 'needs_clarification') return { outcome: 'clarified', why: 'asked' };
  if ('refuse' in e) {
    if (r.status === 'refused') return e.code && r.refusalCode !== e.code ? { outcome: 'refused', why: `refused with ${r.refusalCode}, expected ${e.code}` } : { outcome: 'right', why: 'refused' };
    return { outcome: 'wrong_figure', why: `answered (${r.figures.slice(0, 3).map((x) => x.value).join(', ')}) where a refusal was expected` };
  }
  if (r.status === 'refused') return { outcome: 'refused', why: `refused (${r.refusalCode})` };
  const verified = new Set(r.figures.filter((x) => x.grade === 'verified').map((x) => x.value));
  const missing = e.answer.filter((v) => !verified.has(v));
  const derived = new Set(r.figures.filter((x) => x.grade === 'derived').map((x) => x.value));
  const underived = (e.derived ?? []).filter((v) => !derived.has(v));
  if (underived.length) return { outcome: 'wrong_figure', why: `expected ${underived.join(', ')} derived; published ${r.figures.slice(0, 6).map((x) => `${x.value}:${x.grade}`).join(', ')}` };
  if (missing.length) return { outcome: 'wrong_figure', why: `expected ${missing.join(', ')} verified; published ${r.figures.slice(0, 5).map((x) => `${x.value}:${x.grade}`).join(', ')}` };
  const wrong = (e.never ?? []).filter((v) => r.figures.some((x) => x.value === v));
  if (wrong.length) return { outcome: 'wrong_figure', why: `published ${wrong.join(', ')}, which answers another question` };
  const unverified = r.figures.filter((x) => x.grade === 'unverified');
  if (unverified.length) return { outcome: 'wrong_figure', why: `unverified figures ${unverified.map((x) => x.value).join(', ')}` };
  if (e.coverage && !r.disclosures.some((d) => d.includes(`among the ${funders} funders whose filings the graph holds`))) return { outcome: 'wrong_figure', why: 'coverage not disclosed' };
  if (e.disclose && !r.disclosures.some((d) => e.disclose!.test(d))) return { outcome: 'wrong_figure', why: `no disclosure matching ${e.disclose}` };
  return { outcome: 'right', why: 'figures verified' };
}
