/**
 * Population answers, assembled: from a shape's typed result and the admitted evidence of the rows
 * it shows → a fact sheet (every shown value an E fact; counts, sums, means, ratios, r, ρ and n
 * D figures with their arithmetic; ranks, limits, keys and periods listed as not measurements),
 * the plain rendering, the worded disclosures, and the result table with each cell's evidence IRI.
 * The caller grades the text (plain or drafted by a model) against the sheet with gradeText, as
 * for every answer: a value shown is verified, a rank is list numbering, a computed figure derived.
 */
import type { AdmittedEvidence } from '../evidence/types.ts';
import type { Derived, FactSheet, NonMeasure } from '../answer/factsheet.ts';
import { formatValue } from '../answer/factsheet.ts';
import { publisherName } from '../answer/render.ts';
import { programNameOf } from '../connectors/registry.ts';
import type { PopulationAnswer } from './answer-types.ts';
import { scopeLabel } from './geo.ts';
import { correlationTable, rankingTable, subsetTable, type ResultTable, type TableCell } from './table.ts';
import type { PopulationRead, PopulationRow } from './types.ts';
import { allOf, caveatText, classWords, count, grainWord, ratioWarningText, readDisclosures, unweightedText } from './wording.ts';

export interface ComposedPopulation {
  sheet: FactSheet;
  text: string;
  disclosures: string[];
  table?: ResultTable;
}

/** A catalog title as a reader reads it: "B19013_001E: Median household income … (in 2009 inflation-adjusted dollars) (median …)" → the label with the vintage's dollars. */
export function measureWords(read: PopulationRead): string {
  let t = read.measure.label.replace(/^[A-Z0-9_]+:\s*/, '');
  // "RACE — Total population (ACS DEMOGRAPHIC AND HOUSING ESTIMATES)": the last part of a profile label, without its table concept
  if (t.includes(' — ')) t = t.slice(t.lastIndexOf(' — ') + 3);
  if (read.measure.label.includes(' — ')) t = t.replace(/\s*\([^()]*\)$/, '');
  const year = read.period.end?.slice(0, 4);
  if (year) t = t.replace(/\b(19|20)\d\d inflation-adjusted/gi, `${year} inflation-adjusted`);
  const m = /^(.*\S)\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)$/.exec(t);
  if (m && m[2]!.toLowerCase().startsWith(m[1]!.toLowerCase().slice(0, 20))) t = m[1]!;
  return /^[A-Z][a-z]/.test(t) ? t.charAt(0).toLowerCase() + t.slice(1) : t;
}

const where = (r: PopulationRead) => (r.scope.kind === 'nation' ? '' : ` in ${scopeLabel(r.scope)}`);

class Sheet {
  readonly facts: FactSheet['facts'] = [];
  readonly derived: Derived[] = [];
  readonly nonMeasures: NonMeasure[] = [];
  constructor(items: readonly AdmittedEvidence[]) {
    for (const e of items) if (typeof e.value === 'number') this.facts.push({ id: `E${this.facts.length + 1}`, evidence: e as AdmittedEvidence });
    for (const e of items) {
      this.non(e.period.label, 'period label');
      if (e.period.end) { this.non(e.period.end, 'period end date'); this.non(e.period.end.slice(0, 4), 'calendar year of the period end'); }
      if (e.period.start) this.non(e.period.start.slice(0, 4), 'calendar year of the period start');
      this.non(e.entity.key, `${e.entity.keyType} of ${e.entity.label}`);
      this.names(e.entity.label, 'name'); this.names(e.measureLabel, 'measure name'); this.names(e.period.label, 'period name');
    }
  }
  non(text: string | undefined, what: string): void { if (text && !this.nonMeasures.some((n) => n.text === text)) this.nonMeasures.push({ text, what }); }
  /** Numbers inside a name name things ("ACS 5-year", "FY 2026", "501(c)(3)"); they are not measurements. */
  names(t: string | undefined, what: string): void { for (const m of (t ?? '').matchAll(/(?<![\d.])\d+(?:[.,]\d+)*(?![\d.])/g)) this.non(m[0], `part of the ${what} "${t}"`); }
  derive(value: number, unit: string, arithmetic: string, label: string, operands: string[] = [], currency?: string): Derived {
    const d: Derived = { id: `D${this.derived.length + 1}`, value, unit, arithmetic, operands, label, ...(currency ? { currency } : {}) };
    this.derived.push(d);
    return d;
  }
  fact(item: number | undefined): string | undefined {
    return item === undefined ? undefined : this.facts.find((f) => f.evidence.index === this.itemIndex(item))?.id;
  }
  itemIndex = (_: number): number => -1;
  done(layout: FactSheet['layout'] = 'list'): FactSheet { return { facts: this.facts, derived: this.derived, nonMeasures: this.nonMeasures, layout }; }
}

const fmt = (v: number, r: PopulationRead) => formatValue(v, r.measure.unit, r.measure.currency);
const rounded = (v: number, places: number) => Number(v.toFixed(places));

/** `rowIri`: the IRI of a row in a materialized population graph, for a table cell no admitted item shows. */
export function composePopulation(pa: PopulationAnswer, items: readonly AdmittedEvidence[], evidenceIri: (index: number) => string, rowIri?: (read: PopulationRead, row: PopulationRow) => string | undefined): ComposedPopulation {
  const sheet = new Sheet(items);
  sheet.itemIndex = (k) => items[k]!.index;
  const iriOf = (readIndex: number) => (_: PopulationRead, row: PopulationRow) => {
    const k = pa.itemOf[`${readIndex}:${row.key}`];
    return k === undefined ? rowIri?.(pa.reads[readIndex]!, row) : evidenceIri(items[k]!.index);
  };
  const disclosures = pa.reads.flatMap(readDisclosures);
  const read = pa.reads[0];
  const r = pa.result;
  const lines: string[] = [];
  let table: ResultTable | undefined;
  // a program of its own (SAIPE) is credited by name, not as the publisher's default survey ("the Census Bureau (ACS)")
  const by = (x: PopulationRead) => {
    const program = x.notes.find((n): n is Extract<typeof n, { code: 'model_based' }> => n.code === 'model_based')?.program;
    return program ? programNameOf(x.source, program) : publisherName(x.source);
  };

  if (r.kind === 'ranking' && read) {
    const rk = r.ranking;
    const n = sheet.derive(rk.ranked, 'count', `count of the usable members of the population read (attempt ${read.attemptN}, ${read.source}/${read.operation}): ${rk.ranked} of ${read.completeness.read} rows`, `${grainWord(read.grain)} ranked`);
    sheet.non(String(rk.limit), 'number of entries asked');
    const word = rk.order === 'desc' ? 'highest' : 'lowest';
    const top = rk.entries[0]!;
    const tiedTop = rk.entries.filter((e) => e.rank === 1);
    lines.push(`${allOf(tiedTop.map((e) => e.row.label))} ${tiedTop.length > 1 ? 'share' : 'has'} the ${word} ${measureWords(read)} among ${n.value.toLocaleString('en-US')} ${grainWord(read.grain)}${where(read)} (${read.period.label}): ${fmt(top.row.value!, read)}, according to ${by(read)}.`);
    if (rk.entries.length > 1) {
      lines.push(`The ${rk.limit.toLocaleString('en-US')} ${word}${rk.extendedForTies ? ` (${count(rk.extendedForTies, 'more entry', 'more entries')} tied with the last)` : ''}:`);
      if (rk.extendedForTies) sheet.non(String(rk.extendedForTies), 'entries shown past the limit because they tie');
      for (const e of rk.entries) lines.push(`${e.rank}. ${e.row.label}: ${fmt(e.row.value!, read)}${e.tied ? ' (tied)' : ''}`);
    }
    table = rankingTable(read, rk, iriOf(0));
    table.derived.push({ id: n.id, op: 'count', value: n.value, n: n.value, unit: 'count', of: ['value'] });
  } else if (r.kind === 'aggregate' && read) {
    const a = r.aggregate;
    const members = read.memberClass ? classWords(read.memberClass) : grainWord(read.grain);
    const rows = `${read.completeness.usable} usable of ${read.completeness.read} rows read (attempt ${read.attemptN}, ${read.source}/${read.operation})`;
    if (a.op === 'count') {
      const d = sheet.derive(a.value, 'count', `count of members: ${rows}`, `number of ${members}`);
      lines.push(`There are ${d.value.toLocaleString('en-US')} ${members}${where(read)} in ${by(read)} (${read.period.label}), counted by code over every member.`);
    } else {
      const d = sheet.derive(a.op === 'mean' ? rounded(a.value, 2) : a.value, a.unit, a.op === 'sum' ? `sum of ${a.n} values: ${rows}` : `sum ${a.sum} / ${a.n} members: ${rows}`, `${a.op} of ${measureWords(read)}`, [], a.currency);
      const n = sheet.derive(a.n, 'count', `count of the members summed: ${rows}`, `${grainWord(read.grain)} with a value`);
      const combined = a.op === 'sum' && /^total\b/i.test(measureWords(read)) ? measureWords(read) : `${a.op === 'sum' ? 'total' : 'average'} ${measureWords(read)}`;
      lines.push(`The ${combined} of ${n.value.toLocaleString('en-US')} ${grainWord(read.grain)}${where(read)} with a reported value is ${formatValue(d.value, a.unit, a.currency)} (${read.period.label}), computed by code from ${by(read)}.`);
      if (a.unweighted) disclosures.push(unweightedText(a.unweighted, read.grain, read.scope.kind === 'nation' ? null : scopeLabel(read.scope)));
    }
  } else if (r.kind === 'filtered_subset' && read) {
    const s = r.subset;
    const tested = sheet.derive(s.tested, 'count', `members tested: ${s.tested} of ${read.completeness.usable} usable (attempt ${read.attemptN})`, `${grainWord(read.grain)} tested`);
    sheet.names(s.threshold.text, 'threshold');
    // the threshold is the question's own number, stated in the question's words: listed on the sheet as not a measurement
    for (const m of s.threshold.text.matchAll(/(?:-|−)?\$?\d[\d,]*(?:\.\d+)?(?:\s?(?:%|percent\b|thousand\b|million\b|billion\b|trillion\b|bn\b|mn\b|[kmbt]\b))?/gi)) sheet.non(m[0].trim(), 'the threshold the question asks (its own number, not a measurement)');
    const asked = s.threshold.text.trim();
    if (s.complete) {
      const c = sheet.derive(s.matches.length, 'count', `count of the members whose ${read.measure.recordMeasure} is ${s.threshold.op} ${s.threshold.value}: every one of ${s.tested} tested`, 'matches');
      lines.push(`${c.value.toLocaleString('en-US')} of ${tested.value.toLocaleString('en-US')} ${grainWord(read.grain)}${where(read)} have ${measureWords(read)} ${asked}, the threshold asked (${read.period.label}, ${by(read)}):`);
    } else {
      lines.push(`Some ${grainWord(read.grain)}${where(read)} with ${measureWords(read)} ${asked} (the threshold asked), found by testing ${tested.value.toLocaleString('en-US')} members in ${by(read)}'s order until enough matched (examples, not every match):`);
    }
    const shown = s.matches.filter((m) => pa.itemOf[`0:${m.key}`] !== undefined);
    for (const m of shown) lines.push(`- ${m.label}: ${fmt(m.value!, read)}${m.period ? ` (${m.period.label})` : ''}`);
    if (shown.length < s.matches.length) { sheet.non(String(shown.length), 'matches listed in the text'); lines.push(`(the first ${shown.length} are listed; the table holds them all)`); }
    table = subsetTable(read, s, iriOf(0));
  } else if (r.kind === 'correlation' && pa.reads.length === 2) {
    const [x, y] = pa.reads as [typeof pa.reads[0], typeof pa.reads[0]];
    const c = r.correlation;
    const n = sheet.derive(c.n, 'count', `members aligned on FIPS with a value in both: ${c.n} (only in the first ${c.onlyX}, only in the second ${c.onlyY}, value excluded in the second ${c.excludedInY}, in the first ${c.excludedInX})`, 'aligned members');
    const pr = sheet.derive(rounded(c.pearson, 3), 'pure', `Pearson's r over the ${c.n} aligned pairs (simple-statistics sampleCorrelation), rounded to 0.001; exact ${c.pearson}`, "Pearson's r");
    const sr = sheet.derive(rounded(c.spearman, 3), 'pure', `Spearman's rho over the ${c.n} aligned pairs (ranks with ties averaged), rounded to 0.001; exact ${c.spearman}`, "Spearman's rho");
    const dir = Math.abs(c.pearson) < 0.1 ? 'almost no linear association' : `a ${Math.abs(c.pearson) >= 0.5 ? 'strong' : Math.abs(c.pearson) >= 0.3 ? 'moderate' : 'weak'} ${c.pearson < 0 ? 'negative' : 'positive'} association`;
    lines.push(`Across ${n.value.toLocaleString('en-US')} ${grainWord(x.grain)}${where(x)} aligned on FIPS, ${measureWords(x)} (${x.period.label}, ${by(x)}) and ${measureWords(y)} (${y.period.label}, ${by(y)}) show ${dir}: Pearson's r = ${pr.value.toFixed(3)}, Spearman's ρ = ${sr.value.toFixed(3)}.`);
    disclosures.push(...c.caveats.map(caveatText));
    table = correlationTable(x, y, c, (rd, row) => iriOf(pa.reads.indexOf(rd as typeof x))(rd, row));
    table.derived = [{ id: pr.id, op: 'pearson', value: pr.value, n: c.n, unit: null, of: ['x', 'y'] }, { id: sr.id, op: 'spearman', value: sr.value, n: c.n, unit: null, of: ['x', 'y'] }, { id: n.id, op: 'count', value: c.n, n: c.n, unit: 'count', of: ['x', 'y'] }];
  } else if (r.kind === 'ratio') {
    const q = r.ratio;
    const num = q.numerator; const den = q.denominator;
    const facts = (c: typeof num) => c.evidence.map((k) => sheet.fact(Number(k))).filter((x): x is string => !!x);
    const numD = num.measure.startsWith('count of') ? sheet.derive(num.value, 'count', `count of members (attempt ${pa.reads[0]?.attemptN})`, num.measure) : undefined;
    const denD = den.measure.startsWith('count of') ? sheet.derive(den.value, 'count', `count of members (attempt ${pa.reads[1]?.attemptN})`, den.measure) : undefined;
    const opnd = [...(numD ? [numD.id] : facts(num)), ...(denD ? [denD.id] : facts(den))];
    // two decimals, or three significant digits for a ratio below 0.01 (0.000501, never a bare 0)
    const places = q.value !== 0 && Math.abs(q.value) < 0.01 ? Math.ceil(-Math.log10(Math.abs(q.value))) + 2 : 2;
    const d = sheet.derive(rounded(q.value, places), q.unit, `${opnd[0]} / ${opnd[1]}${q.scale !== 1 ? ` × ${q.scale}` : ''} = ${num.value} / ${den.value}${q.scale !== 1 ? ` × ${q.scale}` : ''} = ${q.value}, rounded to ${places} decimal places`, 'ratio', opnd);
    if (q.scale !== 1) { sheet.non(q.scale.toLocaleString('en-US'), 'the ratio\'s scale'); sheet.non(String(q.scale), 'the ratio\'s scale'); }
    const label = (c: typeof num, rd?: PopulationRead) => (c.measure.startsWith('count of') ? c.measure.replace(/^count of /, '') : rd ? measureWords(rd) : c.label ?? c.measure);
    // a share of like counts is a percentage of the denominator's members
    if (pa.reads.length === 0) {
      // one entity's two keyed values: the formula with both components, each with its period and publisher
      const share = `${d.value.toLocaleString('en-US', { maximumFractionDigits: places })}${q.unit === '%' ? '%' : ''}`;
      const [ne, de] = [items[Number(num.evidence[0])], items[Number(den.evidence[0])]];
      const by = [...new Set([ne, de].map((e) => (e ? publisherName(e.source) : 'no source recorded')))];
      const formula = `${formatValue(num.value, num.unit, num.currency)} / ${formatValue(den.value, den.unit, den.currency)}${q.scale !== 1 ? ` × ${q.scale.toLocaleString('en-US')}` : ''}`;
      const source = by.length === 1 ? `${by[0]}'s figures` : `${by[0]} (numerator) and ${by[1]} (denominator)`;
      const kw = (c: typeof num) => c.label ?? c.measure;
      lines.push(q.unit === '%'
        ? `For ${num.about.label} in ${num.period.label}, ${kw(num)} is ${share} of ${kw(den)}: ${formula}, computed by code from ${source}.`
        : `For ${num.about.label} in ${num.period.label}, the ratio of ${kw(num)} to ${kw(den)} is ${share}${q.scale !== 1 ? ` per ${q.scale.toLocaleString('en-US')}` : ''}: ${formula}, computed by code from ${source}.`);
    } else if (q.unit === '%') lines.push(`For ${num.about.label}: ${label(num, pa.reads[0])} are ${d.value.toLocaleString('en-US', { maximumFractionDigits: places })}% of ${label(den, pa.reads[1])}, computed by code from ${formatValue(num.value, num.unit, num.currency)} (${num.period.label}) and ${formatValue(den.value, den.unit, den.currency)} (${den.period.label}).`);
    else lines.push(`For ${num.about.label}: ${d.value.toLocaleString('en-US', { maximumFractionDigits: places })} ${label(num, pa.reads[0])} per ${q.scale === 1 ? '' : `${q.scale.toLocaleString('en-US')} `}${label(den, pa.reads[1])}, computed by code from ${formatValue(num.value, num.unit, num.currency)} (${num.period.label}) and ${formatValue(den.value, den.unit, den.currency)} (${den.period.label}).`);
    disclosures.push(...q.warnings.map(ratioWarningText));
  } else if (r.kind === 'topical') {
    const t = r.topical;
    lines.push(`The search for "${t.keyword}" ranks these opportunities as relevant (examples by relevance, not a count of all opportunities):`);
    sheet.names(t.keyword, 'search words');
    for (const h of t.hits) {
      sheet.names(h.title, 'title'); sheet.names(h.number, 'opportunity number'); sheet.non(h.openDate ?? undefined, 'opening date'); sheet.non(h.closeDate ?? undefined, 'closing date'); sheet.non(h.id, 'opportunity id'); h.cfda.forEach((c) => sheet.non(c, 'assistance listing number'));
      const ceiling = h.awardCeiling !== undefined && h.awardCeiling !== null ? `; award ceiling ${formatValue(h.awardCeiling, 'USD', 'USD')}` : '';
      lines.push(`${h.rank}. ${h.title} (${h.number}), ${h.agency ?? 'agency not stated'}${h.openDate ? `, open ${h.openDate}` : ''}${h.closeDate ? ` to ${h.closeDate}` : ''}${ceiling}`);
    }
    if (t.trimmed) disclosures.push('the recorded search page is a TRIMMED sample of the publisher\'s response: a live search may rank more matches');
    if (t.more) disclosures.push(`the search reported more matches than the ${t.hits.length} read (${count(t.pagesRead, 'page')} within the declared limits)`);
    if (t.detailUnread > 0) disclosures.push(`${count(t.detailUnread, 'opportunity', 'opportunities')} not read in detail (award amounts not shown)`);
    disclosures.push('relevant examples ranked by the publisher\'s search, not a population: no count or statistic over all opportunities is implied');
    const cell = (column: string, value: TableCell['value'], grade: TableCell['grade'], ev?: number): TableCell => ({ column, value, grade, ...(ev !== undefined ? { evidence: evidenceIri(items[ev]!.index) } : {}) });
    // the award ceiling's measure key as the connector's detail read recorded it (no ceiling read: none stated)
    const ceilingMeasure = t.hits.map((h) => (h.ceilingItem !== undefined ? items[h.ceilingItem]?.measure : undefined)).find((m) => m !== undefined);
    table = {
      shape: 'topical',
      columns: [{ id: 'rank', role: 'rank', unit: null }, { id: 'entity', role: 'entity', unit: null }, { id: 'key', role: 'key', unit: null, keyType: 'opportunity_id' }, { id: 'agency', role: 'text', unit: null }, { id: 'open', role: 'date', unit: null }, { id: 'close', role: 'date', unit: null }, { id: 'award_ceiling', role: 'value', unit: 'USD', currency: 'USD', ...(ceilingMeasure ? { measure: ceilingMeasure } : {}) }],
      rows: t.hits.map((h) => [cell('rank', h.rank, 'exempt'), cell('entity', h.title, 'label', h.item), cell('key', h.id, 'label', h.item), cell('agency', h.agency, 'label', h.item), cell('open', h.openDate, 'label', h.item), cell('close', h.closeDate, 'label', h.item), cell('award_ceiling', h.awardCeiling ?? null, 'verified', h.ceilingItem)]),
      derived: [], populations: [],
    };
  }
  return { sheet: sheet.done(), text: lines.join('\n'), disclosures: [...new Set(disclosures)], ...(table ? { table } : {}) };
}
