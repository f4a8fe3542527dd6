import type { $ZodType } from 'zod/v4/core';

// Apart from the type table (def.ts), which a server does not need before a deferred refusal: a
// run-time adapter loads this alone.

/** Whether a value is a Zod 4 schema, from any of its entry points. */
export function isZod4(value: unknown): value is $ZodType {
  return typeof value === 'object' && value !== null && typeof (value as $ZodType)._zod?.def === 'object';
}
