/**
 * Binders for organizations and schools: ProPublica Nonprofit Explorer (990 filings by EIN) and the
 * College Scorecard (a school by IPEDS UNITID).
 *
 * A ProPublica organization response holds every filing with data; the period check picks the
 * tax year asked (the filing's `tax_prd_yr`, its period end disclosed) or, for "latest", the newest
 * filing the response holds. A Scorecard `latest.*` field is the newest value the Scorecard has for
 * that field (its year varies by field and is not stated): it answers "latest" questions only, and a
 * named year ends as no data rather than being read from the latest field.
 *
 * IRS 990 e-file returns are addressed by object id, which no identity bundle carries (the EIN →
 * object id step is the yearly e-file index): that operation stays unbound here, with its reason.
 */
import type { Binder } from './types.ts';
import { measurePart } from './types.ts';

const propublicaOrganization: Binder = {
  entityType: 'organization',
  bind({ measureKey, key }) {
    if (key.keyType !== 'ein') return { error: `organization takes an EIN, not a ${key.keyType}` };
    const measure = measurePart(measureKey, 'propublica-nonprofits');
    if (!/^filing\/[a-z_]+$/.test(measure)) return { error: `${measureKey} is not a ProPublica filing field` };
    return [{ fetchArgs: { ein: key.value }, measure }];
  },
};

const scorecardSchool: Binder = {
  entityType: 'school',
  bind({ measureKey, key }) {
    if (key.keyType !== 'ipeds_unitid') return { error: `school takes an IPEDS UNITID, not a ${key.keyType}` };
    // catalog `latest/cost.tuition.in_state` is the Scorecard dot path `latest.cost.tuition.in_state`
    const field = measurePart(measureKey, 'college-scorecard').replace('/', '.');
    if (!/^[a-z0-9_]+(\.[a-z0-9_]+)+$/.test(field)) return { error: `${measureKey} is not a Scorecard field path` };
    return [{ fetchArgs: { unitid: key.value, fields: field }, measure: field, ...(field.startsWith('latest.') ? { reading: 'the Scorecard\'s latest value for the field (its year varies by field)' } : {}) }];
  },
};

export const ORGANIZATION_BINDERS: ReadonlyArray<[string, Binder]> = [
  ['propublica-nonprofits/organization', propublicaOrganization],
  ['college-scorecard/school', scorecardSchool],
];
