import { getOwn } from '../../shared/run/own-property.js';
import { keepsValues, listedStringsOf, scalarKindsOf } from '../type-facts.js';
import type { SchemaNode, SchemaView } from '../types.js';
import { factsOf, wrappedBy, type Zod3Schema } from './def.js';
import { isZod3 } from './identify.js';

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
    const facts = factsOf(schema._def);
    switch (facts.kind) {
      case 'object': {
        // Every Zod 3 object has a catch-all, `z.never()` unless one was given: the key policy
        // (strip, strict, passthrough) says what undeclared keys meet then.
        const catchall = def.catchall?._def.typeName === 'ZodNever' ? undefined : def.catchall;
        const closed = catchall === undefined && def.unknownKeys === 'strict';
        return { kind: 'object', fields: def.shape?.() ?? {}, rest: catchall, closed };
      }
      case 'record':
        return { kind: 'record', values: def.valueType as Zod3Schema };
      case 'array':
        return { kind: 'array', element: def.type as Zod3Schema };
      case 'tuple':
        return { kind: 'tuple', items: def.items ?? [], rest: def.rest ?? undefined };
      case 'union':
        return { kind: 'union', options: def.options ?? [], discriminator: def.discriminator };
      case 'intersection':
        return { kind: 'intersection', sides: [def.left as Zod3Schema, def.right as Zod3Schema] };
      case 'values':
        return { kind: facts.values(def).some((value) => typeof value === 'string') ? 'text' : 'scalar' };
      case 'wrapper':
        // Read once `resolve` has looked it through: what is left wraps nothing toolprep can read.
        return { kind: 'scalar' };
      default:
        return { kind: facts.kind };
    }
  },
  tags(option, key) {
    const field = factsOf(option._def).kind === 'object' ? getOwn(option._def.shape?.(), key) : undefined;
    return field ? (tagsOf(field) ?? []) : [];
  },
  typeName: (schema) => schema._def.typeName.replace(/^Zod/, '').toLowerCase(),
  isObject: (schema) => zod3View.resolve(schema) === schema && zod3View.node(schema).kind === 'object',
  takesNull: (schema) => takesNull(schema, new Set()),
  stringValues,
  optionalKeys,
  scalarKinds: (schema) =>
    scalarKindsOf(
      schema,
      (one) => factsOf(one._def),
      (one) => one._def,
    ),
};

/** Each object's keys that may be left out, found once: a schema never changes. */
const optionalKeysOf = new WeakMap<Zod3Schema, readonly string[]>();

/**
 * Zod 3 says a field is optional by parsing `undefined` with it (`isOptional()`), which builds an
 * error for every key that is not: the reference would pay that on every call.
 */
function optionalKeys(object: Zod3Schema): readonly string[] {
  let keys = optionalKeysOf.get(object);
  if (!keys) {
    keys = Object.entries(object._def.shape?.() ?? {})
      .filter(([, field]) => (field as unknown as { isOptional(): boolean }).isOptional())
      .map(([key]) => key);
    optionalKeysOf.set(object, keys);
  }
  return keys;
}

function takesNull(schema: Zod3Schema, seen: Set<Zod3Schema>): boolean {
  if (seen.has(schema)) return true;
  seen.add(schema);
  const def = schema._def;
  const facts = factsOf(schema._def);
  switch (facts.kind) {
    case 'wrapper': {
      if (facts.takes === 'same or null' || facts.takes === 'anything') return true;
      const inner = facts.inner(schema);
      return inner ? takesNull(inner, seen) : true;
    }
    case 'values':
      return facts.null === 'listed' && facts.values(def).includes(null);
    case 'union':
      return (def.options ?? []).some((option) => takesNull(option, seen));
    case 'intersection':
      return takesNull(def.left as Zod3Schema, seen) && takesNull(def.right as Zod3Schema, seen);
    case 'object':
    case 'record':
    case 'array':
    case 'tuple':
      return false;
    default:
      return facts.null === 'taken';
  }
}

function stringValues(schema: Zod3Schema): readonly string[] | undefined {
  const strings = listedStrings(schema);
  return strings && strings.length > 0 ? strings : undefined;
}

/** The strings a schema lists when it takes no other string: see `listedStringsOf`. */
function listedStrings(schema: Zod3Schema): readonly string[] | undefined {
  const facts = factsOf(schema._def);
  if (facts.kind === 'wrapper') {
    const inner = keepsValues(facts.takes) ? facts.inner(schema) : undefined;
    return inner ? listedStrings(inner) : undefined;
  }
  const values = facts.kind === 'values' ? facts.values(schema._def) : [];
  return listedStringsOf(facts, values, schema._def.options ?? [], listedStrings);
}

/** The tags a discriminator field takes, as Zod 3 reads them for a discriminated union. */
function tagsOf(schema: Zod3Schema): unknown[] | undefined {
  const facts = factsOf(schema._def);
  if (facts.kind === 'values') return [...facts.values(schema._def)];
  if (facts.kind !== 'wrapper') return facts.tags && [...facts.tags];
  const inner = facts.inner(schema);
  const tags = inner && tagsOf(inner);
  if (facts.missing === 'kept') return tags && [undefined, ...tags];
  if (facts.takes === 'same or null') return tags && [null, ...tags];
  return tags;
}
