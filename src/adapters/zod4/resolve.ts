import type { $ZodType } from 'zod/v4/core';

/** Wrappers that accept exactly what they wrap, for a value JSON can hold. */
export const TRANSPARENT = new Set(['optional', 'nonoptional', 'readonly', 'default', 'prefault']);
/** Wrappers looked through for the structure they take: `nullable` and `catch` take more besides. */
const WRAPPERS = new Set([...TRANSPARENT, 'nullable', 'catch']);

/** The schema with every Zod 4 wrapper that takes what it wraps looked through (a pipe: its input). */
export function resolveZod4(schema: $ZodType): $ZodType {
  for (;;) {
    const def = schema._zod.def as { type: string; innerType?: $ZodType; in?: $ZodType };
    if (WRAPPERS.has(def.type) && def.innerType) schema = def.innerType;
    else if (def.type === 'lazy') schema = (schema._zod as unknown as { innerType: $ZodType }).innerType;
    else if (def.type === 'pipe' && def.in) schema = def.in;
    else return schema;
  }
}
