import type { $ZodType } from 'zod/v4/core';
import type { RuntimeAdapter } from '../types.js';
import { isZod4 } from './identify.js';

/**
 * Zod 4 at run time (`toolprep/runtime/zod4`): an object's keys, its parser, and the position
 * finder, loaded when first needed. Zod 4 from every entry point: `zod`, `zod/mini`, and
 * `zod/v4`, `zod/v4-mini` of zod 3.25.
 */
export const zod4: RuntimeAdapter = {
  name: 'zod4',
  owns: isZod4,
  // Params and extension keys are plain objects (the build refuses a wrapped one).
  keysOf: (schema) => Object.keys(((schema as $ZodType)._zod.def as { shape?: object }).shape ?? {}),
  validate: (schema, value) => (schema as $ZodType)['~standard'].validate(value),
  locate: () => import('./locate.js').then((module) => module.schemaAt),
};
