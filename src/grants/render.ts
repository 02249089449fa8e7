/**
 * Grant results and disclosures → English, in one place. Every number written here is a field of
 * the typed result (an amount, a count from a rollup or a list), so a grader can tie each figure
 * back to a row; nothing here computes a new total across payment statuses.
 */
import type { ShapeFailure, Unmappable } from './execute.ts';
import type { Coverage, Disclosure, EdgeRow, GrantFailure, GrantQuestion, GrantResult, OrgRef, Total, TotalRow } from './traverse.ts';

export const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
// the organization asked for, not the units counted with it (a disclosure names those)
const names = (orgs: readonly OrgRef[]) => [...new Set((orgs.some((o) => !o.unit) ? orgs.filter((o) => !o.unit) : orgs).map((o) => o.name))].join(' / ');
/** Names in a disclosure: the first six, and how many more. */
const listed = (xs: readonly string[]) => (xs.length <= 6 ? xs.join('; ') : `${xs.slice(0, 6).join('; ')}; and ${xs.length - 6} more`);
/** One candidate of an ambiguous name, as an option or a disclosure names it. */
export const renderCandidate = (o: OrgRef): string => orgLabel(o);
const orgLabel = (o: OrgRef) => `${o.name}${o.ein ? ` (EIN ${o.ein.slice(0, 2)}-${o.ein.slice(2)})` : ''}${o.state ? `, ${o.state}` : ''}`;
const years = (ys: readonly number[]) => (ys.length === 0 ? '' : ys.length === 1 ? `tax year ${ys[0]}` : `tax years ${ys[0]}–${ys[ys.length - 1]}`);

const OP_WORDS: Record<'>' | '>=' | '<' | '<=', string> = { '>': 'more than', '>=': 'at least', '<': 'less than', '<=': 'at most' };

export function renderDisclosure(d: Disclosure): string {
  switch (d.code) {
    case 'match_method':
      return d.method === 'ein'
        ? `"${d.asked}" matched the ${d.role}'s EIN${d.einSource === 'registry' ? ' from the identity registry' : d.einSource === 'question' ? ' given in the question' : ''} (key match)`
        : d.method === 'name_exact'
          ? `"${d.asked}" matched ${plural(d.orgs, `${d.role} record`)} by name as filed (no EIN used; a name match is weaker than a key match, and grants filed under another form of the name are not included)`
          : `"${d.asked}" matched ${plural(d.orgs, `${d.role} record`)} by the words of its name only (no EIN; weakest match — check the name)`;
    case 'name_keyed_added': return `${plural(d.orgs, 'recipient record')} filed without an EIN but under exactly the name "${d.asked}" ${d.orgs === 1 ? 'is' : 'are'} included (name match)`;
    case 'partial_coverage': return `among the ${plural(d.funders, 'funder')} whose filings the graph holds (${plural(d.filings, 'filing')}, ${years(d.taxYears)}); grants reported in other filings are not counted`;
    case 'approved_not_paid': return `${usd(d.amount)} in ${plural(d.grants, 'grant')} approved for future payment is reported separately: it was not paid in the year and is not in any paid total`;
    case 'recipients_keyed': return 'recipients are the same organization when the filers gave the same EIN, or, without an EIN, the same name and state';
    case 'cause_method': return `"${d.cause}" read as NTEE ${d.groups.join('; ')}: ${plural(d.byNtee, 'grant')} selected by the recipient's NTEE code (IRS Business Master File), ${plural(d.byPurpose, 'grant')} by purpose text naming ${d.words.slice(0, 6).join(', ')}${d.words.length > 6 ? ', …' : ''} (recipients with no NTEE code in the graph)`;
    case 'state_as_filed': return 'each grant counts in the state of the recipient address its filer gave for it';
    case 'largest_shown': return `the largest ${d.shown.toLocaleString('en-US')} of ${plural(d.total, d.role)}${d.status === 'approved_future' ? ' with grants approved for future payment' : ''} are listed; the total and the count cover all ${d.total.toLocaleString('en-US')}`;
    case 'rows_shown': return `${plural(d.shown, 'row')} shown of ${d.total.toLocaleString('en-US')}`;
    case 'ingest_unfinished': return `an ingest that began ${d.since} has not finished: totals may not yet count every filing it wrote (run the ingest again to finish it)`;
    case 'synthetic_graph': return 'SYNTHETIC benchmark graph: no figure here is a real grant';
    case 'tax_year_filter': return `only grants reported for tax year ${d.taxYear}`;
    case 'ambiguous_chosen': return `"${d.asked}" matches ${plural(d.others.length + 1, `${d.role} record`)} that are not one organization; answered for ${d.chosen}, the one with the most paid grant money in the graph (others: ${d.others.join('; ')}; ask with on_ambiguity=ask to choose)`;
    case 'paid_only': return `only grants paid are ranked; ${plural(d.approvedGrants, 'grant')} approved for future payment (not paid) are not`;
    case 'ranked_by_count': return 'ranked by the number of grants paid, not by amount (ties by amount)';
    case 'average_derived': return 'the average is derived by Assay: the paid total divided by the number of paid grants (both shown, as the filings report them), rounded to the cent; no filing states it, and grants approved for future payment are not in it';
    case 'combined_derived': return d.combine === 'sum'
      ? 'the combined total is derived by Assay: the two paid totals shown, added'
      : 'the difference is derived by Assay: the larger paid total shown minus the smaller';
    case 'unnamed_recipient': return `${d.names.map((x) => `"${x}"`).join(', ')} ${d.names.length === 1 ? 'is' : 'are'} what the filer wrote in place of a recipient: such a line names no organization and may total several grants listed in an attachment to the return, so it is not one organization's grant`;
    case 'no_state_filed': return `${plural(d.grants, 'paid grant')} to recipients filed with no state are in no state's row`;
    case 'threshold_filter': return `only the ${d.role}s whose paid grants${d.over === 'recipient' ? ' to it' : d.over === 'state' ? ' to organizations in the state' : ' from it'} total ${OP_WORDS[d.op]} ${usd(d.value)} are listed: ${d.kept.toLocaleString('en-US')} of ${plural(d.of, d.role)} (paid grants only; each ${d.role}'s total summed over the tax years the graph holds)`;
    case 'unnamed_left_out': return `${d.names.map((x) => `"${x}"`).join(', ')} — what ${d.names.length === 1 ? 'a filer' : 'filers'} wrote in place of a recipient, naming no organization and perhaps totalling several grants listed in an attachment — ${d.names.length === 1 ? 'is' : 'are'} left out of this ranking of ${d.ranking === 'recipients' ? 'recipients' : 'single grants'} (${usd(d.amount)} in ${plural(d.grants, 'paid grant line')}; still in the totals)`;
    case 'units_included': return `${d.parentHeld ? `the grants to ${plural(d.units.length, 'unit')} of ${d.asked} filed as ${d.units.length === 1 ? 'a recipient of its' : 'recipients of their'} own are counted with it` : `no recipient is filed as "${d.asked}" itself: the answer is its ${plural(d.units.length, 'unit')} filed as recipients`} (filed as "${d.asked} - …" with no EIN of their own: ${listed(d.units.map((u) => u.name))})`;
    case 'units_other_state': return `${plural(d.units.length, 'recipient')} filed as a unit of "${d.asked}" but in another state than ${d.states.length ? d.states.join(' / ') : 'it'} ${d.units.length === 1 ? 'is' : 'are'} left out, since another organization of that name may be meant: ${listed(d.units.map((u) => `${u.name}${u.state ? `, ${u.state}` : ''}`))}`;
  }
}

const READING: Record<GrantQuestion['direction'], string> = {
  forward: 'a funder\'s grants', reverse: 'a recipient\'s funders', pair: 'one funder\'s grants to one recipient', intersection: 'the recipients two funders share',
  top_recipients_of: 'a funder\'s largest recipients', ranking: 'a ranking', geographic: 'grants to one state', cause: 'grants for a cause',
  largest_grants: 'the largest single grants in the graph', average: 'the average grant in the graph', two_funders: 'two funders\' grants', common_funders: 'the funders two recipients share',
  states_of: 'a funder\'s grants by state', funders_in_state: 'the funders of one state\'s organizations', funders_by_count: 'a recipient\'s funders by number of grants',
};

export function renderShapeFailure(f: ShapeFailure): string {
  switch (f.code) {
    case 'unmappable': return renderUnmappable(f.reason);
    case 'year_not_filterable':
      return `${READING[f.reading]} is read from totals kept over every tax year the grant graph holds for it (${f.years.join(', ')}), not per year, so it cannot be given for tax year ${f.taxYear} alone; ask without the year, or for a funder's grants in ${f.taxYear}`;
    case 'smallest_graph_wide':
      return 'the grant graph finds its largest single grants by reading funders in order of their totals (no grant of a funder can exceed its total), but nothing bounds where the smallest are: only a scan of every grant would answer; ask for one funder\'s or one recipient\'s smallest grants ("What was the smallest grant the Joyce Foundation made?")';
    case 'cause_unclassified':
      return `no grant ${f.funder ? `of ${f.funder}'s ` : ''}in the grant graph is placed under "${f.cause}" by its recipient's NTEE code or by its purpose text; a purpose written as "program support" or "general support" places a grant under no cause, so this is not a finding that nothing went to ${f.cause}`;
  }
}

/** Why a grant question has no reading the grant graph answers, and what to ask instead. */
export function renderUnmappable(u: Unmappable): string {
  switch (u.code) {
    case 'median': return 'the grant graph gives an average grant (the paid total divided by the paid count, derived) and the largest or smallest single grants, not a median; ask for the average grant or the largest grants';
    case 'ranked_by_average': return 'the grant graph does not rank organizations by their average grant; ask for one funder\'s or one recipient\'s average grant, or rank funders by total or by number of grants';
    case 'too_many_funders': return `two funders can be set side by side; this question names ${u.count}`;
    case 'no_name': return u.role === 'funder' ? 'a question about the grants an organization made must name the organization' : 'a question about who funds an organization must name the organization';
    case 'measure_in_state': {
      const what = u.measure === 'average' ? 'average grant' : `${u.measure} grants`;
      return u.scope === 'funder'
        ? `the ${u.measure} of one funder's grants to one state is not a reading the grant graph has; ask for ${u.name ?? 'the funder'}'s grants to organizations in that state, or for its ${u.measure === 'average' ? 'average grant' : `${u.measure} grants`} overall`
        : u.scope === 'recipient'
          ? `a recipient's ${what} within a state is not a reading the grant graph has; ask without the place`
          : `the ${what} to one state's organizations is not a reading the grant graph has; ask for the grants to organizations in that state, or for the graph's ${what}`;
    }
    case 'not_a_state': return `"${u.place}" is not a US state or territory the grant graph's state rollups are keyed by; name a state ("Michigan" or "MI")`;
    case 'difference': return 'the grant graph finds the recipients two funders share (or the funders two recipients share), not the recipients of one funder that the other did not fund; ask "Which organizations do both … fund?" and each funder\'s grants';
    case 'intersection_arity': return `an intersection names two ${u.of}; this question names ${u.count}`;
    case 'no_direction': return 'the question says neither whose grants nor in which direction';
    case 'measure_direction_open': return `"${u.name}" may be the grants' funder or their recipient; ask "the ${u.measure === 'average' ? 'average grant' : 'largest grants'} from ${u.name}" or "to ${u.name}"`;
  }
}

export function renderFailure(f: GrantFailure): string {
  switch (f.code) {
    case 'empty_graph': return 'the grant graph holds no filings yet; run `assay grants ingest <files…>` first';
    case 'layout_outdated': return f.found !== null && f.found > f.expected
      ? `the grant graph was written by a newer Assay (layout ${f.found}; this build reads layout ${f.expected}); answer with that Assay, or clear the graph and ingest its files again`
      : f.storeOnly
        ? `the grant graph was written by an earlier Assay (layout ${f.found}; this build reads layout ${f.expected}, which counts the units a recipient was filed under, such as "University of Chicago - Urban Labs", as part of it, and leaves placeholders such as "SEE ATTACHED SCHEDULE" out of rankings); upgrade it in place from what it holds, no file needed: \`assay grants ingest\` (any ingest does it)`
        : `the grant graph was written by an earlier Assay (layout ${f.found ?? 1}; this build reads layout ${f.expected}, which keeps the recipient address filed for each grant, and only the files hold it); ingest its files again to upgrade it in place: \`assay grants ingest ${f.files && f.files.length > 0 ? f.files.join(' ') : '<files…>'}\`${f.total !== undefined && f.files && f.total > f.files.length ? ` and ${plural(f.total - f.files.length, 'other file')} the graph was read from` : ''}`;
    case 'not_in_graph': {
      const held = `${plural(f.coverage.filings, 'filing')}${f.coverage.complete ? '' : '; coverage is partial'}`;
      return f.role === 'funder'
        ? `no funder named "${f.asked}" is among the ${plural(f.coverage.funders, 'funder')} whose filings the grant graph holds (${held}); its own Form 990 or 990-PF would answer it: the IRS e-file index gives the return of its EIN, whose Schedule I or 990-PF grants list \`assay grants ingest <return.xml>\` adds to the graph`
        : `no recipient named "${f.asked}" appears in the filings of the ${plural(f.coverage.funders, 'funder')} the grant graph holds (${held})`;
    }
    case 'ambiguous_org': return `"${f.asked}" matches several ${f.role}s in the grant graph: ${f.candidates.map(orgLabel).join('; ')}`;
    case 'only_unnamed': return `${f.funder} filed its paid grants (${usd(f.amount)} in ${plural(f.grants, 'line')}) to ${f.names.map((x) => `"${x}"`).join(', ')}, what a filer writes in place of the recipients when its return lists them in an attachment; the graph holds no attachment, so it names none of them and cannot rank its recipients or single grants; ask for its total instead`;
    case 'unknown_cause': return `"${f.cause}" names no NTEE major group this build knows, so grants cannot be selected by cause`;
    case 'no_grants': return `the graph holds no ${f.what}${f.recipientMatch && f.recipientMatch !== 'ein' ? ` filed under that recipient's name or its units' (matched by name, not EIN: grants filed under another name are not counted)` : ''}`;
  }
}

function totalLine(label: string, t: Total): string {
  return `${label}: ${usd(t.amount)} in ${plural(t.grants, 'grant')}${t.counterparts !== undefined ? ` (${plural(t.counterparts, 'counterpart')})` : ''}`;
}

const edgeLine = (e: EdgeRow) => `${usd(e.amount)} → ${orgLabel({ ...e.recipient, state: e.state })}${e.purpose ? ` — ${e.purpose}` : ''} (tax year ${e.taxYear}${e.status === 'approved_future' ? ', approved for future payment' : ''})`;
const totalRowLine = (r: TotalRow) => `${usd(r.amount)} from ${orgLabel(r.org)} (${plural(r.grants, 'grant')}${r.status === 'approved_future' ? ', approved for future payment' : ''})`;

/** Plain text of a result: a headline, up to `top` rows, then the disclosures. */
export function renderResult(r: GrantResult, top = 10): string {
  const out: string[] = [];
  switch (r.kind) {
    case 'forward': {
      out.push(`${names(r.funder)} reported ${plural(r.totals.paid.grants, 'grant')} paid, totalling ${usd(r.totals.paid.amount)}${r.taxYear ? ` in tax year ${r.taxYear}` : ''}.`);
      if (r.totals.approvedFuture.grants > 0) out.push(`Separately, ${plural(r.totals.approvedFuture.grants, 'grant')} totalling ${usd(r.totals.approvedFuture.amount)} approved for future payment (not paid).`);
      out.push(...r.edges.slice(0, top).map((e) => `- ${edgeLine(e)}`));
      break;
    }
    case 'reverse': {
      const paid = r.funders.filter((f) => f.status === 'paid');
      out.push(`${names(r.recipient)} received ${usd(r.totals.paid.amount)} in ${plural(r.totals.paid.grants, 'paid grant')} from ${plural(r.totals.paid.counterparts ?? paid.length, 'funder')}${r.taxYear ? ` in tax year ${r.taxYear}` : ''}.`);
      out.push(...paid.slice(0, top).map((f) => `- ${totalRowLine(f)}`));
      const fut = r.funders.filter((f) => f.status === 'approved_future');
      if (fut.length) out.push(`Approved for future payment (not paid): ${fut.slice(0, top).map(totalRowLine).join('; ')}.`);
      break;
    }
    case 'pair': {
      out.push(`${names(r.funder)} paid ${names(r.recipient)} ${usd(r.totals.paid.amount)} in ${plural(r.totals.paid.grants, 'grant')}${r.taxYear ? ` in tax year ${r.taxYear}` : ''}.`);
      if (r.totals.approvedFuture.grants > 0) out.push(`Separately, ${plural(r.totals.approvedFuture.grants, 'grant')} totalling ${usd(r.totals.approvedFuture.amount)} approved for future payment (not paid).`);
      out.push(...r.edges.slice(0, top).map((e) => `- ${edgeLine(e)}`));
      break;
    }
    case 'intersection': {
      out.push(`${names(r.funders[0])} and ${names(r.funders[1])} both made grants to ${plural(r.recipients.length, 'organization')}.`);
      out.push(...r.recipients.slice(0, top).map((x) => `- ${orgLabel(x.recipient)}: ${usd(x.amounts[0].paid.amount)} paid by the first, ${usd(x.amounts[1].paid.amount)} paid by the second${x.amounts[0].approvedFuture.grants + x.amounts[1].approvedFuture.grants > 0 ? ' (plus amounts approved for future payment, listed separately in the data)' : ''}`));
      break;
    }
    case 'ranking': {
      if (r.subject === 'state') {
        out.push('Recipient states by grants paid:');
        out.push(...(r.stateRows ?? []).map((s, i) => `${i + 1}. ${s.state}: ${usd(s.amount)} (${plural(s.grants, 'grant')} to ${plural(s.counterparts, 'organization')})`));
      } else {
        out.push(r.subject === 'recipient_of' ? `Largest recipients of ${names(r.of ?? [])} by grants paid:` : `Largest ${r.subject === 'funder' ? 'funders' : 'recipients'} by grants paid:`);
        out.push(...r.rows.map((x, i) => `${i + 1}. ${orgLabel(x.org)}: ${usd(x.amount)} (${plural(x.grants, 'grant')})`));
      }
      break;
    }
    case 'geographic': {
      out.push(`${r.funder ? `${names(r.funder)} paid` : 'Grants paid to organizations in'} ${r.funder ? `${usd(r.totals.paid.amount)} in ${plural(r.totals.paid.grants, 'grant')} to organizations in ${r.state}` : `${r.state}: ${usd(r.totals.paid.amount)} in ${plural(r.totals.paid.grants, 'grant')}`}.`);
      if (r.totals.approvedFuture.grants > 0) out.push(`Separately, ${usd(r.totals.approvedFuture.amount)} approved for future payment (not paid).`);
      break;
    }
    case 'largest': {
      out.push(`Largest single grants paid${r.scope === 'graph' ? '' : r.scope === 'funder' ? ` by ${names(r.of ?? [])}` : ` to ${names(r.of ?? [])}`}${r.taxYear ? ` in tax year ${r.taxYear}` : ''}:`);
      out.push(...r.edges.slice(0, top).map((e, i) => `${i + 1}. ${usd(e.amount)} from ${orgLabel(e.funder)} → ${orgLabel(e.recipient)} (tax year ${e.taxYear})`));
      break;
    }
    case 'average': {
      out.push(`${r.scope === 'graph' ? 'All grants paid' : r.scope === 'funder' ? `Grants paid by ${names(r.of ?? [])}` : `Grants paid to ${names(r.of ?? [])}`}: ${usd(r.totals.paid.amount)} in ${plural(r.totals.paid.grants, 'grant')}; average ${usd(r.totals.paid.amount / r.totals.paid.grants)} (derived).`);
      break;
    }
    case 'two_funders': {
      for (const s of r.sides) out.push(`${names(s.funder)}${r.recipient ? ` → ${names(r.recipient)}` : ''}: ${usd(s.totals.paid.amount)} in ${plural(s.totals.paid.grants, 'grant')} paid.`);
      break;
    }
    case 'common_funders': {
      out.push(`${plural(r.funders.length, 'funder')} made grants to both ${names(r.recipients[0])} and ${names(r.recipients[1])}.`);
      out.push(...r.funders.slice(0, top).map((x) => `- ${orgLabel(x.funder)}: ${usd(x.amounts[0].paid.amount)} to the first, ${usd(x.amounts[1].paid.amount)} to the second`));
      break;
    }
    case 'cause': {
      out.push(`${r.funder ? `${names(r.funder)} paid` : 'Grants paid for'} ${r.funder ? `${usd(r.totals.paid.amount)} in ${plural(r.totals.paid.grants, 'grant')} for ${r.cause.cause}` : `${r.cause.cause}: ${usd(r.totals.paid.amount)} in ${plural(r.totals.paid.grants, 'grant')}`}.`);
      out.push(...r.edges.filter((e) => e.status === 'paid').slice(0, top).map((e) => `- ${edgeLine(e)} [by ${e.causeBy === 'ntee' ? 'NTEE code' : 'purpose text'}]`));
      break;
    }
  }
  const notes = r.disclosures.map(renderDisclosure);
  if (notes.length) out.push('', ...notes.map((n) => `Note: ${n}.`));
  return out.join('\n');
}

export function coverageLine(c: Coverage): string {
  return `${plural(c.filings, 'filing')} from ${plural(c.funders, 'funder')} (${years(c.taxYears)}), ${plural(c.documentCount, 'source document')}; coverage ${c.complete ? `declared complete${c.release ? ` (${c.release})` : ''}` : 'partial: the filings ingested'}${c.synthetic ? '; SYNTHETIC' : ''}`;
}
