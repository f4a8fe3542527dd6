import type { Zod3Schema } from './def.js';

// Apart from the type table (def.ts), which a server does not need before a deferred refusal: a
// run-time adapter loads this alone.

/** Whether a value is a Zod 3 schema (zod@3, or `zod/v3` of zod 3.25), and not a Zod 4 one. */
export function isZod3(value: unknown): value is Zod3Schema {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Zod3Schema)._def?.typeName === 'string' &&
    !('_zod' in value)
  );
}
