/**
 * Shared paging loop: read pages until the publisher says there are no more, the declared row cap
 * is reached, or a page cannot be had; report whether every page was read. A page that fails after
 * at least one succeeded ends the loop with a note instead of discarding what was read.
 */
import type { RawResponse } from '../http/client.ts';
import { PublisherError } from '../http/errors.ts';

export interface PageOutcome<T> { records: T[]; more: boolean }

export async function readPages<T>(fetchPage: (n: number) => Promise<RawResponse>, parse: (raw: RawResponse, n: number) => PageOutcome<T>, options: { first: number; maxPages: number; maxRows?: number }): Promise<{ records: T[]; responses: RawResponse[]; complete: boolean; notes: string[] }> {
  const records: T[] = [];
  const responses: RawResponse[] = [];
  const notes: string[] = [];
  let n = options.first;
  for (let i = 0; i < options.maxPages; i++, n++) {
    let raw: RawResponse;
    try { raw = await fetchPage(n); } catch (e) {
      if (responses.length === 0 || !(e instanceof PublisherError) || e.kind === 'cancelled') throw e;
      notes.push(`stopped before page ${n}: ${e.message}`);
      return { records, responses, complete: false, notes };
    }
    responses.push(raw);
    const page = parse(raw, n);
    records.push(...page.records);
    if (!page.more) return { records, responses, complete: true, notes };
    if (options.maxRows !== undefined && records.length >= options.maxRows) {
      notes.push(`stopped at the publisher's declared boundary of ${options.maxRows} rows; narrow the criteria to see the rest`);
      return { records, responses, complete: false, notes };
    }
  }
  notes.push(`stopped after ${options.maxPages} page(s) as asked; more pages exist`);
  return { records, responses, complete: false, notes };
}
