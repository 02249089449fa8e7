/**
 * Topical: the records a search operation ranks as relevant to the question's words ("Find
 * education grant opportunities"), paginated within the declared limits, the first few read in
 * detail. Relevant examples are the complete answer to this shape; they are never counted as a
 * population (no "there are N opportunities").
 */
import { search } from '../../execute/engine.ts';
import { detailChoice, hitOf, pageChoice, topicWords, TOPICAL_LIMITS, TOPICAL_SOURCES, type SearchPage, type TopicalHit, type TopicalResult } from '../../population/topical.ts';
import { pointer } from '../../connectors/records.ts';
import { refusal } from './common.ts';
import type { Item, ShapeExecutor } from './types.ts';

export const topical: ShapeExecutor = {
  shapes: ['topical'],
  name: 'topical search',
  async execute(i) {
    // the intent's phrase names the records and their topic; the search is asked for the topic
    const keyword = topicWords(i.intent.attribute);
    if (!keyword) return refusal('not_understood', 'no_topic', 'the question names no topic to search for', { missing: 'the topic in words ("education", "tribal energy")' });
    // a search reads only the records it returns: the question must call its records by their name ("grants", "funding opportunities"),
    // which the interpreter keeps in a topical attribute (only src/understand reads the question)
    const asked = i.intent.attribute ?? '';
    const isSearch = (o: { kind: string; publisherId: string; operationId: string } | undefined | null) => {
      const t = o ? TOPICAL_SOURCES.get(o.publisherId) : undefined;
      return !!o && !!t && o.kind === 'search' && t.search === o.operationId && t.records.test(asked);
    };
    // the planned candidates first; then any discovered card's search operation; then the search a topical source declares
    // (a topical question names records and a topic, not a measure: discovery may rank no card serving the search)
    const declared = [...TOPICAL_SOURCES].filter(([, t]) => t.records.test(asked)).map(([source, t]) => i.ctx.runtime.declarations.operation(source, t.search)).find((d) => d !== undefined);
    const op: { key: string; publisherId: string; operationId: string } | undefined = i.planned.candidates.map((c) => c.operation).find(isSearch)
      ?? (i.planned.found ?? []).flatMap((c) => c.card.operations).find(isSearch)
      ?? (declared ? { key: `${declared.publisherId}/${declared.id}`, publisherId: declared.publisherId, operationId: declared.id } : undefined);
    if (!op) {
      const reads = [...TOPICAL_SOURCES].map(([source, t]) => `${source}/${t.search} (${t.recordsWord})`);
      return { kind: 'refused', attempts: [], failure: { boundary: 'no_access_path', code: 'no_search', message: `no search this build reads returns the records asked; the topical searches it reads: ${reads.join('; ')}`, params: { reads } }, context: { attribute: keyword, missing: 'a search operation returning the records asked' } };
    }
    const src = TOPICAL_SOURCES.get(op.publisherId)!;
    i.ctx.emit({ stage: 'execution_plan', by: 'executor', message: `topical: ${op.key} for "${keyword}", up to ${TOPICAL_LIMITS.maxPages} pages of ${TOPICAL_LIMITS.rows}, the first ${TOPICAL_LIMITS.detail} read in detail; relevant examples, not a population` });
    const pages: SearchPage[] = [];
    const attempts = [];
    for (let p = 0; p < TOPICAL_LIMITS.maxPages; p++) {
      const out = await search<SearchPage>(i.ctx, () => (async function* () { yield pageChoice(op.publisherId, op.operationId, keyword, p); })(), { nextAttempt: i.nextAttempt, mode: 'first' });
      attempts.push(...out.attempts);
      const page = out.admitted[0];
      if (!page) {
        if (p === 0) return { kind: 'refused', attempts, failure: out.reached[0] ?? { boundary: 'no_data', code: 'not_found', message: 'the search returned nothing' }, reached: out.reached, context: { attribute: keyword } };
        break;
      }
      pages.push(page);
      if (page.complete || page.hits.length < TOPICAL_LIMITS.rows) break;
    }
    const records = pages.flatMap((p) => p.hits);
    if (records.length === 0) return { kind: 'refused', attempts, failure: { boundary: 'no_data', code: 'no_matches', message: `the search for "${keyword}" returned no matches` }, context: { attribute: keyword } };
    const hits: TopicalHit[] = records.map((r, k) => hitOf(r, k + 1));
    const items: Item[] = [];
    const searchAttempt = attempts.find((a) => a.disposition === 'accepted')!;
    records.forEach((r, k) => {
      hits[k]!.item = items.length;
      items.push({
        attemptN: searchAttempt.n, source: r.source, operation: r.operation, measure: `${r.source}/search/${r.kind}`, measureLabel: r.kind, attribute: keyword,
        value: null, unit: 'count', period: { label: 'search results as retrieved', basis: 'calendar' }, entity: { label: r.label, keyType: 'opportunity_id', key: hits[k]!.id, keys: { ...r.keys } },
        raw: pointer(r.raw), record: { kind: r.kind, key: `opportunity_id=${hits[k]!.id}`, label: r.label, attributes: Object.fromEntries(Object.entries(r.attributes).map(([a, v]) => [a, Array.isArray(v) ? v.join(', ') : v])) },
        assurance: { match: 'key', planVerdict: 'exact', warnings: [...(r.raw.origin?.derived ? ['DERIVED sample'] : []), ...(r.raw.origin?.trimmed ? ['TRIMMED sample'] : [])] },
      });
    });
    let detailUnread = 0;
    if (src.detail) {
      const top = hits.slice(0, TOPICAL_LIMITS.detail);
      const out = await search(i.ctx, () => (async function* () { for (const h of top) yield detailChoice(op.publisherId, src.detail!, h.id); })(), { nextAttempt: i.nextAttempt, mode: 'all' });
      attempts.push(...out.attempts);
      for (const d of out.admitted) {
        const h = hits.find((x) => x.id === d.id)!;
        const c = d.ceiling;
        h.awardCeiling = c?.value ?? null;
        if (c && c.value !== null) {
          const a = out.attempts.find((x) => x.disposition === 'accepted' && x.bindings.opportunity_id === d.id)!;
          h.ceilingItem = items.length;
          items.push({ attemptN: a.n, source: c.source, operation: c.operation, measure: `${c.source}/${c.measure}`, measureLabel: c.label ?? c.measure, attribute: 'award ceiling', value: c.value, unit: c.unit, ...(c.currency ? { currency: c.currency } : {}), period: { label: c.period.label ?? 'synopsis', ...(c.period.end ? { end: c.period.end } : {}), basis: c.period.basis }, entity: { label: h.title, keyType: 'opportunity_id', key: h.id, keys: { opportunity_id: h.id } }, raw: pointer(c.raw), assurance: { match: 'key', planVerdict: 'exact', warnings: [] } });
        }
      }
      detailUnread = top.length - out.admitted.length;
    }
    const last = pages[pages.length - 1]!;
    const trimmed = !last.complete && last.result.responses.some((r) => r.origin?.trimmed);
    const result: TopicalResult = { keyword, hits, pagesRead: pages.length, more: !last.complete && !trimmed, ...(trimmed ? { trimmed } : {}), detailUnread };
    return { kind: 'evidence', attempts, items, notes: [], answer: 'population', population: { shape: 'topical', reads: [], result: { kind: 'topical', topical: result }, itemOf: {} } };
  },
};
