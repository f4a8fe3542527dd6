import { getOwn } from '../../shared/run/own-property.js';
import type { SchemaNode, SchemaView } from '../types.js';
import { isZod3, nativeEnumValues, wrappedBy, type Zod3Schema } from './def.js';

const TEXT = new Set(['ZodString']);
const ANYTHING = new Set(['ZodAny', 'ZodUnknown']);

/** Zod 3 (`zod@3`, and `zod/v3` of zod 3.25), read through `_def`. */
export const zod3View: SchemaView<Zod3Schema> = {
  library: 'zod 3',
  owns: isZod3,
  resolve(schema) {
    for (let inner = wrappedBy(schema); inner; inner = wrappedBy(schema)) schema = inner;
    return schema;
  },
  node(schema): SchemaNode<Zod3Schema> {
    const def = schema._def;
    switch (def.typeName) {
      case 'ZodObject': {
        // Every Zod 3 object has a catch-all, `z.never()` unless one was given: the key policy
        // (strip, strict, passthrough) says what undeclared keys meet then.
        const catchall = def.catchall?._def.typeName === 'ZodNever' ? undefined : def.catchall;
        const closed = catchall === undefined && def.unknownKeys === 'strict';
        return { kind: 'object', fields: def.shape?.() ?? {}, rest: catchall, closed };
      }
      case 'ZodRecord':
        return { kind: 'record', values: def.valueType as Zod3Schema };
      case 'ZodArray':
        return { kind: 'array', element: def.type as Zod3Schema };
      case 'ZodTuple':
        return { kind: 'tuple', items: def.items ?? [], rest: def.rest ?? undefined };
      case 'ZodUnion':
        return { kind: 'union', options: def.options ?? [] };
      case 'ZodDiscriminatedUnion':
        return { kind: 'union', options: def.options ?? [], discriminator: def.discriminator };
      case 'ZodIntersection':
        return { kind: 'intersection', sides: [def.left as Zod3Schema, def.right as Zod3Schema] };
      case 'ZodEffects':
        // Only a preprocess is left once wrappers are looked through: it takes anything.
        return { kind: 'any' };
      default: {
        const values = takenValues(schema);
        if (values) return { kind: values.some((value) => typeof value === 'string') ? 'text' : 'scalar' };
        return { kind: TEXT.has(def.typeName) ? 'text' : ANYTHING.has(def.typeName) ? 'any' : 'scalar' };
      }
    }
  },
  tags(option, key) {
    const field = option._def.typeName === 'ZodObject' ? getOwn(option._def.shape?.(), key) : undefined;
    return field ? (tagsOf(field) ?? []) : [];
  },
  typeName: (schema) => schema._def.typeName.replace(/^Zod/, '').toLowerCase(),
  isObject: (schema) => zod3View.resolve(schema) === schema && zod3View.node(schema).kind === 'object',
  takesNull: (schema) => takesNull(schema, new Set()),
  stringValues,
  optionalKeys: (object) =>
    Object.entries(object._def.shape?.() ?? {})
      .filter(([, field]) => (field as unknown as { isOptional(): boolean }).isOptional())
      .map(([key]) => key),
};

/** Types whose parser refuses `null`. Any type not named here or below may take it. */
const REFUSE_NULL = new Set([
  'ZodString',
  'ZodNumber',
  'ZodBoolean',
  'ZodBigInt',
  'ZodSymbol',
  'ZodUndefined',
  'ZodVoid',
  'ZodNever',
  'ZodDate',
  'ZodObject',
  'ZodArray',
  'ZodTuple',
  'ZodRecord',
  'ZodMap',
  'ZodSet',
  'ZodEnum',
  'ZodNativeEnum',
  'ZodNaN',
  'ZodFunction',
  'ZodPromise',
]);

function takesNull(schema: Zod3Schema, seen: Set<Zod3Schema>): boolean {
  if (seen.has(schema)) return true;
  seen.add(schema);
  const def = schema._def;
  switch (def.typeName) {
    case 'ZodNullable':
    case 'ZodCatch':
      return true;
    case 'ZodLiteral':
      return def.value === null;
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion':
      return (def.options ?? []).some((option) => takesNull(option, seen));
    case 'ZodIntersection':
      return takesNull(def.left as Zod3Schema, seen) && takesNull(def.right as Zod3Schema, seen);
    default: {
      // Optional, default, readonly, branded, lazy, a pipe's input, a refinement or transform:
      // what they wrap decides (a preprocess wraps nothing: it may take null).
      const inner = wrappedBy(schema);
      return inner ? takesNull(inner, seen) : !REFUSE_NULL.has(def.typeName);
    }
  }
}

/** Wrappers through which a schema takes the strings it wraps and no other. */
const STRING_PRESERVING = new Set(['ZodOptional', 'ZodNullable', 'ZodDefault', 'ZodReadonly', 'ZodBranded']);

function stringValues(schema: Zod3Schema): readonly string[] | undefined {
  const def = schema._def;
  if (STRING_PRESERVING.has(def.typeName)) {
    const inner = wrappedBy(schema);
    return inner ? stringValues(inner) : undefined;
  }
  const values = takenValues(schema);
  const strings = values?.filter((value): value is string => typeof value === 'string');
  return strings && strings.length > 0 ? strings : undefined;
}

/** The values a literal or an enum is limited to; undefined for another schema. */
function takenValues(schema: Zod3Schema): readonly unknown[] | undefined {
  const def = schema._def;
  if (def.typeName === 'ZodLiteral') return [def.value];
  if (def.typeName === 'ZodEnum') return def.values as readonly unknown[];
  if (def.typeName === 'ZodNativeEnum') return nativeEnumValues(def.values as Record<string, unknown>);
  return undefined;
}

/** The tags a discriminator field takes, as Zod 3 reads them for a discriminated union. */
function tagsOf(schema: Zod3Schema): unknown[] | undefined {
  const def = schema._def;
  const values = takenValues(schema);
  if (values) return [...values];
  if (def.typeName === 'ZodNull') return [null];
  if (def.typeName === 'ZodUndefined') return [undefined];
  const inner = wrappedBy(schema);
  if (!inner) return undefined;
  const tags = tagsOf(inner);
  if (def.typeName === 'ZodOptional') return tags && [undefined, ...tags];
  if (def.typeName === 'ZodNullable') return tags && [null, ...tags];
  return tags;
}
