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
      case 'ZodObject':
        return { kind: 'object', fields: def.shape?.() ?? {}, rest: def.catchall };
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
    const field = option._def.typeName === 'ZodObject' ? option._def.shape?.()[key] : undefined;
    return field ? (tagsOf(field) ?? []) : [];
  },
  typeName: (schema) => schema._def.typeName.replace(/^Zod/, '').toLowerCase(),
  isObject: (schema) => zod3View.resolve(schema) === schema && zod3View.node(schema).kind === 'object',
};

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
