/** The evidence shapes (shapes/evidence-shapes.ttl), compiled once per process by the caller. */
import { fileURLToPath } from 'node:url';
import { loadShapeFiles, type CompiledShapes } from '../ard/shacl.ts';

export const EVIDENCE_SHAPES_FILE = fileURLToPath(new URL('../../shapes/evidence-shapes.ttl', import.meta.url));

export function loadEvidenceShapes(): Promise<CompiledShapes> {
  return loadShapeFiles([EVIDENCE_SHAPES_FILE]);
}
