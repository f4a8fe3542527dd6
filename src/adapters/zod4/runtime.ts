import type { $ZodType } from 'zod/v4/core';
import type { RuntimeAdapter } from '../types.js';

export function isZod4(value: unknown): value is $ZodType {
  return typeof value === 'object' && value !== null && typeof (value as $ZodType)._zod?.def === 'object';
}

/** Zod 4 at run time: an object's keys, and the position finder, loaded when first needed. */
export const zod4Runtime: RuntimeAdapter = {
  owns: isZod4,
  // Params and extension keys are plain objects (the build refuses a wrapped one).
  keysOf: (schema) => Object.keys(((schema as $ZodType)._zod.def as { shape?: object }).shape ?? {}),
  validate: (schema, value) => (schema as $ZodType)['~standard'].validate(value),
  locate: () => import('./locate.js').then((module) => module.schemaAt),
};
