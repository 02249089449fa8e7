/**
 * Topical search: the records a search operation ranks as relevant to the question's words
 * (Grants.gov search2 for grant opportunities), paginated within declared limits, then the detail
 * of the first few (fetchOpportunity: award ceiling, close date). The result is a set of relevant
 * examples and says so: never a count of all matching records, never a population statistic.
 */
import { topicalSources } from '../connectors/registry.ts';
import type { EntityRecord, Observation, OperationResult } from '../connectors/records.ts';
import type { FetchChoice } from '../execute/engine.ts';

/** Page size asked, pages read at most, and how many hits get their detail read. */
export const TOPICAL_LIMITS = { rows: 25, maxPages: 2, detail: 3 } as const;

export interface TopicalHit {
  rank: number;
  id: string;
  number: string;
  title: string;
  agency: string | null;
  status: string | null;
  openDate: string | null;
  closeDate: string | null;
  cfda: string[];
  /** From the detail read, when it was read: award amounts as published. */
  awardCeiling?: number | null;
  /** Evidence position (in the outcome's items) of the hit, and of its award ceiling. */
  item?: number;
  ceilingItem?: number;
}

export interface TopicalResult {
  keyword: string;
  hits: TopicalHit[];
  /** Pages read; whether the search reported more hits than were read. */
  pagesRead: number;
  more: boolean;
  /** The last page read replays a TRIMMED sample: incomplete by construction, whatever its hit count says (not "more matches reported"). */
  trimmed?: boolean;
  /** Hits whose detail could not be read (not recorded offline, publisher failure). */
  detailUnread: number;
}

/** The operations a topical search uses, by source: declared by each connector (`topical`). */
export const TOPICAL_SOURCES = topicalSources();

/**
 * The words a search is asked for: the topic of the question's phrase, without the record nouns
 * that say what kind of records are searched ("education grant opportunities" → "education") and
 * the fillers around them ("about", "related to", "open").
 */
export function topicWords(phrase: string | null): string | null {
  if (!phrase) return null;
  const out = phrase.replace(/\b(grants?|opportunit(?:y|ies)|funding|programs?|search(?:es)?|look(?:ing)?|about|related(?:\s+to)?|on|for|regarding|concerning|currently|open|posted|available|federal)\b/gi, ' ').replace(/\s+/g, ' ').trim();
  return out.length >= 2 ? out : null;
}

export interface SearchPage { hits: EntityRecord[]; complete: boolean; result: OperationResult }

export function pageChoice(source: string, operation: string, keyword: string, page: number): FetchChoice<SearchPage> {
  const args = { keyword, agencies: '', rows: String(TOPICAL_LIMITS.rows), start: String(page * TOPICAL_LIMITS.rows) };
  return {
    kind: 'fetch', source, operation, bindings: { keyword, page: String(page) }, args, label: `search "${keyword}", page ${page + 1}`,
    examine(result) {
      const hits = result.records.filter((r): r is EntityRecord => r.type === 'entity');
      return { admit: { hits, complete: result.complete, result }, checks: [{ name: 'entity', passed: true, detail: `${hits.length} ranked matches (a sample by relevance, not a population)` }] };
    },
  };
}

export function detailChoice(source: string, operation: string, id: string): FetchChoice<{ id: string; ceiling?: Observation; result: OperationResult }> {
  return {
    kind: 'fetch', source, operation, bindings: { opportunity_id: id }, args: { opportunity_id: id }, label: `opportunity ${id}`,
    examine(result) {
      const ceiling = result.records.find((r): r is Observation => r.type === 'observation' && r.measure === 'synopsis/awardCeiling');
      return { admit: { id, ...(ceiling ? { ceiling } : {}), result }, checks: [{ name: 'entity', passed: true, detail: `detail of opportunity ${id}` }], more: true };
    },
  };
}

export function hitOf(r: EntityRecord, rank: number): TopicalHit {
  const a = r.attributes;
  return {
    rank, id: r.keys.opportunity_id!, number: r.keys.opportunity_number ?? '', title: r.label,
    agency: (a.agencyCode as string) ?? null, status: (a.status as string) ?? null,
    openDate: (a.openDate as string) ?? null, closeDate: (a.closeDate as string) ?? null,
    cfda: Array.isArray(a.cfda) ? a.cfda.map(String) : [],
  };
}
