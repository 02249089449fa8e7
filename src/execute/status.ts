/**
 * Status questions ("Is the Red Cross a 501(c)(3)?", "Is Apple a large accelerated filer?"): a
 * keyed read of the entity's own record and one field of it, read through the declared code table
 * of src/validate/status.ts.
 *
 * Checks per record, all decisive: entity (the record carries the bound key; another entity prunes
 * the source), sentinel (a blank field is no data, never false), polarity (only a code the table
 * maps to the boolean asked answers; a descriptive label is rejected, not coerced). A `false` from
 * the table is admitted like a `true`, with the code shown. A missing record is no data.
 */
import type { EntityRecord, OperationResult } from '../connectors/records.ts';
import { polarityCheck, type StatusAsk } from '../validate/status.ts';
import type { Check } from '../validate/structural.ts';
import type { BoundRead, Examined } from './record-search.ts';

const SUBJECT_KINDS = /^(organization|company|filer:.*)$/;

export function examineStatus(ask: StatusAsk, attribute: string | null) {
  return (result: OperationResult, read: BoundRead): Examined => {
    const subjects = result.records.filter((r): r is EntityRecord => r.type === 'entity' && SUBJECT_KINDS.test(r.kind));
    const mine = subjects.filter((r) => r.keys[read.key.keyType] === read.key.value);
    const checks: Check[] = [];
    if (mine.length === 0) {
      // a one-entity response about someone else answers a different question; a population file
      // (a state extract) without the key simply has no record of this entity: no data, not false
      if (subjects.length === 1) {
        checks.push({ name: 'entity', passed: false, detail: `the response describes ${subjects[0]!.label} (${read.key.keyType} ${subjects[0]!.keys[read.key.keyType] ?? 'absent'}), not ${read.bundle.label} (${read.key.keyType} ${read.key.value})` });
        return { reject: checks[0]!.detail, checks, prune: true, code: 'different_question' };
      }
      return { reject: `no record of ${read.bundle.label} (${read.key.keyType} ${read.key.value}) in the response${subjects.length > 1 ? ` (${subjects.length} other records read)` : ''}: no data, not false`, checks, prune: false, code: 'not_found' };
    }
    const rec = mine[0]!;
    checks.push({ name: 'entity', passed: true, detail: `${read.key.keyType} ${read.key.value} equals the resolved key of ${read.bundle.label}` });
    const reading = ask.read(rec);
    checks.push({ name: 'measure', passed: true, detail: `status field ${reading.field} of ${result.source}/${result.operation}` });
    if (reading.kind === 'missing') {
      checks.push({ name: 'sentinel', passed: false, detail: `${reading.field} is blank in the record: no data, not false` });
      return { reject: checks[checks.length - 1]!.detail, checks, prune: false, code: 'missing' };
    }
    checks.push({ name: 'sentinel', passed: true, detail: `${reading.field} = "${reading.code}" as published` });
    const polarity = polarityCheck(ask, reading);
    checks.push(polarity);
    if (!polarity.passed || reading.kind !== 'boolean') return { reject: `polarity: ${polarity.detail}`, checks, prune: false, code: 'polarity' };
    const taxPeriod = typeof rec.attributes.taxPeriod === 'string' ? rec.attributes.taxPeriod : null;
    const item = {
      attemptN: read.attemptN, source: result.source, operation: result.operation,
      measure: `${result.source}/status/${ask.id}`, measureLabel: `${ask.asked} (${reading.field})`, attribute,
      value: reading.truth, unit: 'boolean',
      // a status is read as of the publisher's response, not for a fiscal period
      period: { label: `as of the ${result.source} record${taxPeriod ? ` (latest tax period ${taxPeriod})` : ''}`, basis: 'calendar' },
      entity: { label: rec.label, keyType: read.key.keyType, key: read.key.value, keys: { ...rec.keys }, ...(read.bundle.qid ? { qid: read.bundle.qid } : {}) },
      raw: rec.raw,
      status: { asked: ask.asked, field: reading.field, code: reading.code, meaning: reading.meaning },
      assurance: { match: read.byName ? 'name' as const : 'key' as const, planVerdict: read.candidate.verdict === 'composed' ? 'composed' as const : 'exact' as const, warnings: [...(read.byName && read.note ? [read.note] : []), ...(read.disclosures ?? []), ...(read.namesakes > 1 ? [`${read.namesakes} registry entities are named "${read.asked}"; this is ${rec.label} (${read.key.keyType} ${read.key.value}), the first whose record was read`] : []), ...result.notes] },
    };
    return { admit: [item], checks, complete: true, total: 1, notes: [] };
  };
}
