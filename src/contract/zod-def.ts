import type { $ZodType } from 'zod/v4/core';

/**
 * Reads Zod 4 schemas (classic and mini) through `_zod.def`, without importing Zod. The coercion
 * reference and the plan compiler both classify positions with these, so they cannot drift apart.
 */
export interface ZodDef {
  readonly type: string;
  readonly innerType?: $ZodType;
  readonly in?: $ZodType;
  readonly shape?: Record<string, $ZodType>;
  readonly catchall?: $ZodType;
  readonly element?: $ZodType;
  readonly items?: readonly $ZodType[];
  readonly rest?: $ZodType | null;
  readonly valueType?: $ZodType;
  readonly options?: readonly $ZodType[];
  readonly discriminator?: string;
  readonly left?: $ZodType;
  readonly right?: $ZodType;
  readonly values?: readonly unknown[];
  readonly entries?: Record<string, unknown>;
  readonly checks?: readonly { readonly _zod: { readonly def: Record<string, unknown> } }[];
  readonly coerce?: boolean;
}

export function defOf(schema: $ZodType): ZodDef {
  return schema._zod.def as unknown as ZodDef;
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

/** One step from a schema towards the one it wraps, as a path segment and the inner schema. */
function unwrapStep(schema: $ZodType): { step: string; inner: $ZodType } | undefined {
  const def = defOf(schema);
  if (WRAPPERS.has(def.type) && def.innerType) return { step: 'innerType', inner: def.innerType };
  if (def.type === 'lazy')
    return { step: '~lazy', inner: (schema._zod as unknown as { innerType: $ZodType }).innerType };
  // A pipe is fed what its input side takes.
  if (def.type === 'pipe' && def.in) return { step: 'in', inner: def.in };
  return undefined;
}

/** The schema that decides what a position takes (wrappers, lazies and pipes looked through), with its path. */
export function resolveWithPath(
  schema: $ZodType,
  path: readonly (string | number)[],
): { schema: $ZodType; path: (string | number)[] } {
  const resolvedPath = [...path];
  let current = schema;
  for (let step = unwrapStep(current); step; step = unwrapStep(current)) {
    resolvedPath.push(step.step);
    current = step.inner;
  }
  return { schema: current, path: resolvedPath };
}

export function resolveSchema(schema: $ZodType): $ZodType {
  return resolveWithPath(schema, []).schema;
}

/** Types that take any value: a string included. */
const ACCEPTS_ANYTHING = new Set(['any', 'unknown', 'transform', 'custom']);

/** True when the schema takes some raw string: the member rule for unions. */
export function acceptsRawString(schema: $ZodType, seen = new Set<$ZodType>()): boolean {
  const resolved = resolveSchema(schema);
  if (seen.has(resolved)) return false;
  seen.add(resolved);
  const def = defOf(resolved);
  switch (def.type) {
    case 'string':
    case 'template_literal':
      return true;
    case 'literal':
      return (def.values ?? []).some((value) => typeof value === 'string');
    case 'enum':
      return Object.values(def.entries ?? {}).some((value) => typeof value === 'string');
    case 'union':
      return (def.options ?? []).some((option) => acceptsRawString(option, seen));
    case 'intersection':
      return acceptsRawString(def.left as $ZodType, seen) && acceptsRawString(def.right as $ZodType, seen);
    default:
      return ACCEPTS_ANYTHING.has(def.type);
  }
}

export type StructureKind = 'object' | 'array';

/** The structures (object, array) a schema takes, looking through unions. */
export function structureKinds(schema: $ZodType, seen = new Set<$ZodType>()): Set<StructureKind> {
  const resolved = resolveSchema(schema);
  const kinds = new Set<StructureKind>();
  if (seen.has(resolved)) return kinds;
  seen.add(resolved);
  const def = defOf(resolved);
  if (def.type === 'object' || def.type === 'record') kinds.add('object');
  else if (def.type === 'array' || def.type === 'tuple') kinds.add('array');
  else if (ACCEPTS_ANYTHING.has(def.type)) {
    kinds.add('object');
    kinds.add('array');
  } else if (def.type === 'union') {
    for (const option of def.options ?? []) for (const kind of structureKinds(option, seen)) kinds.add(kind);
  } else if (def.type === 'intersection') {
    for (const side of [def.left, def.right])
      for (const kind of structureKinds(side as $ZodType, seen)) kinds.add(kind);
  }
  return kinds;
}

/** The union's members, nested unions spread, each with its path from the union. */
export function unionMembers(
  schema: $ZodType,
  path: readonly (string | number)[] = [],
): { schema: $ZodType; path: (string | number)[] }[] {
  return (defOf(schema).options ?? []).flatMap((option, index) => {
    const optionPath = [...path, 'options', index];
    const resolved = resolveWithPath(option, optionPath);
    const def = defOf(resolved.schema);
    return def.type === 'union' && def.discriminator === undefined
      ? unionMembers(resolved.schema, resolved.path)
      : [{ schema: option, path: optionPath }];
  });
}

/** The members that take a list: the ones a list written as text is checked against. */
export function listMembers<T extends { schema: $ZodType }>(members: readonly T[]): T[] {
  return members.filter((member) => ['array', 'tuple'].includes(defOf(resolveSchema(member.schema)).type));
}

/** The values a discriminated union's option takes under its key. */
export function discriminatorValues(option: $ZodType, key: string): readonly unknown[] {
  const propValues = (option._zod as unknown as { propValues?: Record<string, Set<unknown>> }).propValues;
  return [...(propValues?.[key] ?? [])];
}
