/**
 * Shared helpers for the measure-list generators: the ARD entry shape of a generated measure,
 * provenance fields, and writing a generated manifest.
 *
 * Every generated concept records where it came from: OKF `sources` name the sample file (relative
 * to the shared publisher-samples folder) and the upstream origin given in its MANIFEST.md, and
 * `generatedFrom` repeats both so the RDF form carries them (assay:generatedFrom, prov:wasDerivedFrom).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ENTRY_TYPES, type MeasureData } from '../extension-schema.ts';
import { measureUrn, type ArdEntry, type ArdManifest } from '../catalog.ts';

export interface Provenance {
  /** Path of the metadata file under publisher-samples/, e.g. `census/variables/acs5_2009_detail_variables.json`. */
  file: string;
  /** Upstream origin as the MANIFEST gives it: a URL (repository at a commit, or the API URL). */
  origin: string;
  /** One line from the MANIFEST describing what the file is. */
  title: string;
}

export interface GeneratedMeasure {
  measureId: string;
  title: string;
  description: string;
  dataset: string;
  unit: string;
  valueType: MeasureData['valueType'];
  servedBy: string[];
  taxonomy: string;
  tags: string[];
  questions: [string, string];
}

export function generatedEntry(publisherId: string, m: GeneratedMeasure, prov: Provenance, generator: string, at: string): ArdEntry {
  const data: MeasureData = {
    type: 'Metric',
    title: m.title,
    description: m.description,
    tags: m.tags,
    sources: [
      { id: 'sample', resource: `publisher-samples/${prov.file}`, title: prov.title },
      { id: 'origin', resource: prov.origin, title: 'Upstream origin recorded in publisher-samples/MANIFEST.md' },
    ],
    generated: { by: generator, at },
    status: 'stable',
    measureId: m.measureId,
    dataset: m.dataset,
    unit: m.unit,
    valueType: m.valueType,
    servedBy: m.servedBy,
    taxonomy: m.taxonomy,
    generatedFrom: { file: `publisher-samples/${prov.file}`, origin: prov.origin },
  };
  return {
    identifier: measureUrn(publisherId, m.measureId),
    displayName: m.title.length > 200 ? `${m.title.slice(0, 197)}...` : m.title,
    type: ENTRY_TYPES.measure,
    description: m.description,
    tags: m.tags,
    representativeQueries: m.questions,
    data: data as unknown as Record<string, unknown>,
  };
}

export async function writeManifest(path: string, displayName: string, entries: ArdEntry[]): Promise<void> {
  const manifest: ArdManifest = { specVersion: '1.0', host: { displayName }, entries };
  await mkdir(dirname(path), { recursive: true });
  // One entry per line keeps diffs of regenerated lists readable and the file compact.
  const body = entries.map((e) => `    ${JSON.stringify(e)}`).join(',\n');
  await writeFile(path, `{\n  "specVersion": "1.0",\n  "host": ${JSON.stringify(manifest.host)},\n  "entries": [\n${body}\n  ]\n}\n`);
}

/** An id segment safe for measure ids and URNs: letters, digits, dot, underscore, hyphen. */
export function safeSegment(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]/g, '_');
}

export function sentence(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length === 0 ? t : t;
}
