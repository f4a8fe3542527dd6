import type { JsonSchema } from '@toolprep/build';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

// Formats and unknown keywords are annotations to a model; the property is about structure.
const draft2020 = new Ajv2020({ strict: false, validateFormats: false });
const draft07 = new Ajv({ strict: false, validateFormats: false });

/** Compiles a document with Ajv for its own dialect (2020-12 or draft-07). */
export function compileSchema(document: JsonSchema): (value: unknown) => boolean {
  const ajv = String(document.$schema).includes('draft-07') ? draft07 : draft2020;
  const validate = ajv.compile(document as object);
  return (value) => validate(value) as boolean;
}
