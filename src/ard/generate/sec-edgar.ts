/**
 * SEC EDGAR measure list: every XBRL concept in the concept index derived from six real
 * companyfacts responses (us-gaap, dei, srt, ecd, ffd, invest), the non-abstract numeric concepts of
 * the official SRT 2024 taxonomy, and the ifrs-full concepts of a real IFRS filer's companyfacts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseCsv } from './csv.ts';
import { generatedEntry, safeSegment, type GeneratedMeasure, type Provenance } from './common.ts';
import type { ArdEntry } from '../catalog.ts';

const PUB = 'sec-edgar';
const SERVED = ['companyfacts', 'companyconcept', 'frames'];
const EDGARTOOLS = 'https://github.com/dgunning/edgartools/tree/ca5a70094da7fc34890161dae9c256bb1f4c3d26/tests/cassettes';

const SOURCES: Record<string, Provenance> = {
  index: { file: 'sec-edgar/derived/xbrl_concept_index_from_companyfacts.DERIVED.csv', origin: EDGARTOOLS, title: 'Union of the concepts in six real companyfacts responses (Apple, Alphabet, NVIDIA, Marvell, Tesla, Snowflake) with the SEC-served labels and definitions (MANIFEST §1d)' },
  srt: { file: 'sec-edgar/derived/srt-2024_concepts_labels_docs.DERIVED.csv', origin: 'https://github.com/dgunning/edgartools/tree/420d1462de5486010728ca3c6ce3cc02a4f69192/data/xbrl/srt/srt-2024/elts', title: 'Official FASB SRT 2024 taxonomy: names, labels, documentation, types (MANIFEST §1d)' },
  ifrs: { file: 'sec-edgar/companyfacts/CIK0001997711.ifrs-filer.json', origin: 'https://github.com/dgunning/edgartools/blob/0aa5a2a8/tests/fixtures/entity/lpa_facts.json', title: 'companyfacts of an IFRS filer (Logistic Properties of the Americas), ifrs-full concepts (MANIFEST §1a)' },
};

function questions(label: string): [string, string] {
  const l = label.toLowerCase();
  return [`What was the company's ${l} in its last fiscal year?`, `Which companies reported the highest ${l} in 2023?`];
}

function unitFor(units: string): { unit: string; valueType: GeneratedMeasure['valueType'] } {
  const first = units.split('|')[0] || 'pure';
  return { unit: first, valueType: 'decimal' };
}

const SRT_UNITS: Record<string, string> = {
  'xbrli:monetaryItemType': 'USD', 'xbrli:sharesItemType': 'shares', 'dtr-types:perShareItemType': 'USD/shares',
  'dtr-types:percentItemType': 'pure', 'xbrli:pureItemType': 'pure', 'xbrli:integerItemType': 'pure', 'xbrli:decimalItemType': 'pure',
  'dtr-types:areaItemType': 'sqft', 'dtr-types:volumeItemType': 'volume', 'dtr-types:energyItemType': 'energy', 'dtr-types:massItemType': 'mass',
};

export async function generateSecEdgar(samples: string, generator: string, at: string): Promise<ArdEntry[]> {
  const out = new Map<string, ArdEntry>();
  const add = (m: GeneratedMeasure, prov: Provenance) => { if (!out.has(m.measureId)) out.set(m.measureId, generatedEntry(PUB, m, prov, generator, at)); };

  for (const r of parseCsv(await readFile(join(samples, SOURCES.index!.file), 'utf8'))) {
    const label = r.label?.trim() || r.tag!;
    add({
      measureId: `${safeSegment(r.taxonomy!)}/${safeSegment(r.tag!)}`, title: `${label} (${r.taxonomy})`,
      description: r.description?.trim() || `XBRL concept ${r.taxonomy}:${r.tag}.`, dataset: 'xbrl-financial-data',
      ...unitFor(r.units ?? ''), servedBy: SERVED, taxonomy: r.taxonomy!, tags: ['xbrl', r.taxonomy!], questions: questions(label),
    }, SOURCES.index!);
  }
  for (const r of parseCsv(await readFile(join(samples, SOURCES.srt!.file), 'utf8'))) {
    const unit = SRT_UNITS[r.type ?? ''];
    if (r.abstract === 'true' || r.substitutionGroup !== 'xbrli:item' || !unit) continue;
    const label = r.standard_label?.trim() || r.name!;
    add({
      measureId: `srt/${safeSegment(r.name!)}`, title: `${label} (srt)`, description: r.documentation?.trim() || label,
      dataset: 'xbrl-financial-data', unit, valueType: 'decimal', servedBy: SERVED, taxonomy: 'srt', tags: ['xbrl', 'srt'], questions: questions(label),
    }, SOURCES.srt!);
  }
  const facts = JSON.parse(await readFile(join(samples, SOURCES.ifrs!.file), 'utf8')) as { facts: Record<string, Record<string, { label: string | null; description: string | null; units: Record<string, unknown> }>> };
  for (const [tax, concepts] of Object.entries(facts.facts)) {
    if (tax !== 'ifrs-full') continue;
    for (const [tag, c] of Object.entries(concepts)) {
      const label = c.label?.trim() || tag;
      add({
        measureId: `${tax}/${safeSegment(tag)}`, title: `${label} (${tax})`, description: c.description?.trim() || label,
        dataset: 'xbrl-financial-data', ...unitFor(Object.keys(c.units).join('|')), servedBy: SERVED, taxonomy: tax, tags: ['xbrl', tax, 'ifrs'], questions: questions(label),
      }, SOURCES.ifrs!);
    }
  }
  return [...out.values()];
}
