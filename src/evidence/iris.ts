/**
 * IRIs minted for runs, attempts, evidence, responses and entities, all under the base IRI.
 *   run node            <base>run/<id>
 *   run graph           <base>graph/runs/<id>        (one named graph per question)
 *   attempt             <base>run/<id>/attempt/<n>
 *   evidence            <base>evidence/<id>/<n>     (in <base>graph/evidence)
 *   publisher response  <base>response/<sha256>     (content-addressed: one node per body)
 *   connector agent     <base>agent/connector/<source>
 *   entity              <base>entity/<keyType>/<key>
 */
import { ensureSlash, graphIri } from '../rdf/vocab.ts';

const seg = (s: string) => encodeURIComponent(s);

export function runIris(baseIri: string, runId: string) {
  const base = ensureSlash(baseIri);
  const run = `${base}run/${seg(runId)}`;
  return {
    run,
    runGraph: graphIri(base, `runs/${seg(runId)}`),
    evidenceGraph: graphIri(base, 'evidence'),
    plan: `${run}/plan`,
    answer: `${run}/answer`,
    attempt: (n: number) => `${run}/attempt/${n}`,
    figure: (n: number) => `${run}/answer/figure/${n}`,
    evidence: (n: number) => `${base}evidence/${seg(runId)}/${n}`,
    response: (sha256: string) => `${base}response/${seg(sha256)}`,
    agent: (source: string) => `${base}agent/connector/${seg(source)}`,
    entity: (keyType: string, key: string) => `${base}entity/${seg(keyType)}/${seg(key)}`,
  };
}
export type RunIris = ReturnType<typeof runIris>;

/** Run ids are minted by Assay; anything else is refused before it reaches an IRI or a query. */
export const RUN_ID = /^[A-Za-z0-9_-]{6,64}$/;
