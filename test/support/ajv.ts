import type { JsonSchema } from '@toolprep/build';
import { compileDocument } from '../../src/generate/document-validator.js';

/**
 * Compiles a document with Ajv for its own dialect (2020-12 or draft-07), as the superset proof
 * does: own keys only, and a `__proto__` field checked as any other.
 */
export function compileSchema(document: JsonSchema): (value: unknown) => boolean {
  return compileDocument(document);
}
