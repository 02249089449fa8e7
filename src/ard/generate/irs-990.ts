/**
 * IRS Form 990 e-file measure list: every numeric field (amounts, counts, ratios) that the IRSx
 * metadata (variables.csv) maps from an e-file xpath, per form and schedule. Text, address,
 * boolean and checkbox fields are not measures and are skipped. Where one db_name appears at
 * several xpaths (schema versions), the first row is kept.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseCsv } from './csv.ts';
import { generatedEntry, safeSegment, type GeneratedMeasure, type Provenance } from './common.ts';
import type { ArdEntry } from '../catalog.ts';

const PUB = 'irs-990-efile';
const PROV: Provenance = {
  file: 'irs/efile-metadata-irsx/variables.csv',
  origin: 'https://github.com/jsfenfen/990-xml-metadata/blob/4ad69cc0f68dedb1137ccae34c4c84f88295b0a9/variables.csv',
  title: 'IRSx e-file variable metadata: xpath, db_name, IRS type, line number and description per form and schedule (MANIFEST §3c)',
};

const TYPES: Record<string, { unit: string; valueType: GeneratedMeasure['valueType'] }> = {
  USAmountType: { unit: 'USD', valueType: 'integer' }, USAmountNNType: { unit: 'USD', valueType: 'integer' }, USAmountNegType: { unit: 'USD', valueType: 'integer' },
  IntegerNNType: { unit: 'count', valueType: 'integer' }, CountType: { unit: 'count', valueType: 'integer' }, Count2Type: { unit: 'count', valueType: 'integer' },
  // RatioType holds the forms' percentages as fractions of 1 (every one is a "…Pct" field; the
  // recorded Schedule A PublicSupportCY170Pct is 0.73390): unit `fraction`. LargeRatioType and the
  // 990PF distribution ratio are not known to stay at that scale: `ratio`.
  RatioType: { unit: 'fraction', valueType: 'decimal' }, LargeRatioType: { unit: 'ratio', valueType: 'decimal' }, IRS990PFPartVDistriRatioType: { unit: 'ratio', valueType: 'decimal' },
  DecimalNNType: { unit: 'number', valueType: 'decimal' },
};

export async function generateIrs990(samples: string, generator: string, at: string): Promise<ArdEntry[]> {
  const out = new Map<string, ArdEntry>();
  for (const r of parseCsv(await readFile(join(samples, PROV.file), 'utf8'))) {
    const t = TYPES[r.irs_type ?? ''];
    if (!t || !r.db_name || !r.parent_sked) continue;
    const measureId = `${safeSegment(r.parent_sked)}/${safeSegment(r.db_name)}`;
    if (out.has(measureId)) continue;
    const desc = (r.description ?? '').replace(/\s+/g, ' ').trim() || r.xpath!;
    const isGrant = r.parent_sked === 'IRS990ScheduleI' || /GrantOrContributionPdDurYr|GrantOrContriPaidDuringYear/.test(r.xpath ?? '');
    const form = r.parent_sked.replace(/^IRS/, '').replace('Schedule', ' Schedule ');
    out.set(measureId, generatedEntry(PUB, {
      measureId, title: `${desc.length > 120 ? `${desc.slice(0, 117)}...` : desc} (${form}${r.line_number ? `, ${r.line_number}` : ''})`,
      description: `Form ${form} field ${r.xpath}${r.line_number ? ` (${r.line_number})` : ''}: ${desc}. IRS type ${r.irs_type}; schema versions ${r.version_start || '?'}–${r.version_end || 'current'}.`,
      dataset: 'form-990-efile', unit: t.unit, valueType: t.valueType,
      servedBy: isGrant ? ['efile-return', 'schedule-i-grants'] : ['efile-return'], taxonomy: r.parent_sked, tags: ['form 990', form.trim()],
      questions: [`What did the organization report for "${desc.slice(0, 80)}" on its ${form}?`, `Which nonprofits reported the largest ${desc.slice(0, 60).toLowerCase()}?`],
    }, PROV, generator, at));
  }
  return [...out.values()];
}
