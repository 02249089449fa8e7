/**
 * Census ACS measure list: every estimate variable (…E, and …PE percent estimates of profile tables)
 * in the real variables.json files under publisher-samples/census/variables/. Margins of error and
 * annotations (…M, …EA, …MA) are companions of an estimate, not measures, and predicate-only
 * pseudo-variables (for, in, ucgid) are skipped.
 *
 * Units come from the labels: a …PE variable is a percent, a label or concept naming dollars is
 * USD, everything else is a count of the universe the concept names. This is a heuristic
 * (documented in ard-okf/README.md). The files were cached by jtleider/censusdata (CENSUSDATA).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generatedEntry, type GeneratedMeasure, type Provenance } from './common.ts';
import type { ArdEntry } from '../catalog.ts';

const PUB = 'census-acs';
const SERVED = ['acs-state', 'acs-county', 'acs-place', 'acs-all-states', 'acs-all-counties'];
export const CENSUSDATA = 'https://github.com/jtleider/censusdata/tree/5b8e8ea500f1c5d5ba5dcfc1e2becf4c95da6f03';

const FILES: { group: string; prov: Provenance; product: string }[] = [
  { group: 'acs5-2009', product: '2009 ACS 5-year detailed tables', prov: { file: 'census/variables/acs5_2009_detail_variables.json', origin: 'https://api.census.gov/data/2009/acs/acs5/variables.json', title: 'variables.json of /data/2009/acs/acs5 (MANIFEST §2a)' } },
  { group: 'acs5-2019-profile', product: '2019 ACS 5-year data profiles', prov: { file: 'census/variables/acs5_2019_profile_variables.json', origin: 'https://api.census.gov/data/2019/acs/acs5/profile/variables.json', title: 'variables.json of /data/2019/acs/acs5/profile (MANIFEST §2a)' } },
  { group: 'acs1-2019-profile', product: '2019 ACS 1-year data profiles', prov: { file: 'census/variables/acs1_2019_profile_variables.json', origin: 'https://api.census.gov/data/2019/acs/acs1/profile/variables.json', title: 'variables.json of /data/2019/acs/acs1/profile (MANIFEST §2a)' } },
  { group: 'acsse-2019', product: '2019 ACS 1-year supplemental estimates', prov: { file: 'census/variables/acsse_2019_variables.json', origin: 'https://api.census.gov/data/2019/acs/acsse/variables.json', title: 'variables.json of /data/2019/acs/acsse (MANIFEST §2a)' } },
];

interface CensusVariable { label: string; concept?: string; predicateType?: string; group?: string; predicateOnly?: boolean }

/** "Estimate!!Total:!!Below poverty level" → "Total: Below poverty level" (2019+ labels end parts with ':'). */
export function cleanLabel(label: string): string {
  return label.split('!!').map((p) => p.replace(/:$/, '').trim()).filter((p, i) => !(i === 0 && /^(Estimate|Percent)$/i.test(p))).join(' — ');
}

function unitFor(id: string, v: CensusVariable): { unit: string; valueType: GeneratedMeasure['valueType'] } {
  if (id.endsWith('PE')) return { unit: 'percent', valueType: 'percent' };
  const text = `${v.label} ${v.concept ?? ''}`;
  if (/dollars|\$|income|earnings|rent|value/i.test(text) && /median|mean|aggregate|dollars|\$/i.test(text)) return { unit: 'USD', valueType: v.predicateType === 'float' ? 'decimal' : 'integer' };
  return { unit: 'count', valueType: v.predicateType === 'float' ? 'decimal' : 'integer' };
}

export async function generateCensusAcs(samples: string, generator: string, at: string): Promise<ArdEntry[]> {
  const out: ArdEntry[] = [];
  for (const f of FILES) {
    const vars = (JSON.parse(await readFile(join(samples, f.prov.file), 'utf8')) as { variables: Record<string, CensusVariable> }).variables;
    for (const [id, v] of Object.entries(vars).sort(([a], [b]) => a.localeCompare(b))) {
      if (v.predicateOnly || !/^[A-Z0-9]+_[0-9A-Z]+(E|PE)$/.test(id)) continue;
      const label = cleanLabel(v.label) || id;
      const concept = (v.concept ?? '').replace(/\s+/g, ' ').trim();
      const title = concept ? `${label} (${concept.toLowerCase()})` : label;
      const { unit, valueType } = unitFor(id, v);
      out.push(generatedEntry(PUB, {
        measureId: `${f.group}/${id}`, title: `${id}: ${title}`,
        description: `${f.product}, table ${v.group ?? id.split('_')[0]}: ${v.label.replace(/!!/g, ' > ')}${concept ? ` — ${concept}` : ''}.`,
        dataset: 'acs', unit, valueType, servedBy: SERVED, taxonomy: v.group ?? id.split('_')[0]!, tags: ['acs', f.group],
        questions: [`What is the ${label.toLowerCase()} (${id}) for Illinois?`, `Which county has the highest ${label.toLowerCase()}?`],
      }, f.prov, generator, at));
    }
  }
  return out;
}
