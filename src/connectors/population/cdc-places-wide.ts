/**
 * CDC PLACES wide county file ("County Data (GIS Friendly Format)"): every measure of every county
 * in one CSV download, one row per county, `<MEASURE>_CrudePrev` / `_AdjPrev` columns with their
 * 95% confidence intervals. Parsed by the PLACES connector's `placesWide`.
 *
 * CDC republishes this dataset under one Socrata id with each release, and the file carries no
 * year column: which release a response holds is the release named by the download (Socrata names
 * the file after the dataset title, "…GIS_Friendly_Format___2022_release.csv"). A replayed sample
 * keeps that name; a live response whose release cannot be told is labelled as the release current
 * when it was retrieved, never as a year asked.
 */
import type { RawResponse } from '../../http/client.ts';
import { placesWide } from '../cdc-places.ts';
import { pointer, type OperationResult } from '../records.ts';
import { policyFor, requestFor } from '../request.ts';
import type { OperationImpl, RequestBuilder } from '../types.ts';

/** The release the long county table read by `all-counties-measure` holds (ard-okf/cdc-places.json). */
export const PLACES_LONG_RELEASE = 2023;

export const buildPlacesWideRequest: RequestBuilder = (decl, args) => ({ request: requestFor(decl, args), policy: policyFor(decl, 'csv', { header: 'X-App-Token' }) });

/** The release a wide-file response holds, from the download's name; null when it cannot be told. */
export function releaseOf(raw: Pick<RawResponse, 'origin'>): number | null {
  const m = /_(\d{4})_release\b/.exec(raw.origin?.sample ?? '');
  return m ? Number(m[1]) : null;
}

export function wideRelease(result: OperationResult): number | null {
  const r = result.responses[0];
  return r ? releaseOf(r) : null;
}

export const placesWideOperation: OperationImpl = {
  params: [],
  async run(args, ctx, decl) {
    const { request, policy } = buildPlacesWideRequest(decl, args);
    const raw = await ctx.http.request(request, policy, ctx);
    const release = releaseOf(raw);
    const label = release ? `PLACES ${release} release` : `PLACES county release current on ${raw.retrievedAt.slice(0, 10)}`;
    const records = placesWide(raw.text, raw, decl.id, label);
    const counties = new Set(records.map((r) => (r.type === 'observation' ? r.geography?.fips : undefined))).size;
    const notes = [`${label}: ${counties} counties, every measure (crude and age-adjusted prevalence)`];
    if (raw.origin?.derived || raw.origin?.trimmed) notes.push(`replayed from a ${raw.origin.derived ? 'DERIVED' : 'TRIMMED'} cassette (${raw.origin.sample}): ${raw.origin.note ?? ''}`);
    return { source: 'cdc-places', operation: decl.id, records, responses: [pointer(raw)], complete: true, notes };
  },
};
