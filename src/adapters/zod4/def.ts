import type { $ZodType } from 'zod/v4/core';

/** Whether a value is a Zod 4 schema, from any of its entry points. */
export function isZod4(value: unknown): value is $ZodType {
  return typeof value === 'object' && value !== null && typeof (value as $ZodType)._zod?.def === 'object';
}
