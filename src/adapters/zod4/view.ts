import type { $ZodType } from 'zod/v4/core';
import { getOwn } from '../../shared/run/own-property.js';
import { keepsValues, listedStringsOf, scalarKindsOf } from '../type-facts.js';
import type { SchemaNode, SchemaView } from '../types.js';
import { defOf, factsOf, wrappedBy } from './def.js';
import { isZod4 } from './identify.js';

/** Zod 4, classic and mini (`zod`, `zod/mini`, `zod/v4`), read through `_zod.def`. */
export const zod4View: SchemaView<$ZodType> = {
  library: 'zod 4',
  owns: isZod4,
  resolve(schema) {
    for (let inner = wrappedBy(schema); inner; inner = wrappedBy(schema)) schema = inner;
    return schema;
  },
  node(schema): SchemaNode<$ZodType> {
    const def = defOf(schema);
    const facts = factsOf(schema);
    switch (facts.kind) {
      case 'object':
        return {
          kind: 'object',
          fields: def.shape ?? {},
          rest: def.catchall,
          closed: def.catchall !== undefined && defOf(def.catchall).type === 'never',
        };
      case 'record':
        return { kind: 'record', values: def.valueType as $ZodType };
      case 'array':
        return { kind: 'array', element: def.element as $ZodType };
      case 'tuple':
        return { kind: 'tuple', items: def.items ?? [], rest: def.rest ?? undefined };
      case 'union':
        return { kind: 'union', options: def.options ?? [], discriminator: def.discriminator };
      case 'intersection':
        return { kind: 'intersection', sides: [def.left as $ZodType, def.right as $ZodType] };
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
    const propValues = (option._zod as unknown as { propValues?: Record<string, Set<unknown>> }).propValues;
    return [...(getOwn(propValues, key) ?? [])];
  },
  typeName: (schema) => defOf(schema).type,
  isObject: (schema) => zod4View.resolve(schema) === schema && zod4View.node(schema).kind === 'object',
  takesNull: (schema) => takesNull(schema, new Set()),
  stringValues,
  optionalKeys: (object) =>
    Object.entries(defOf(object).shape ?? {})
      // `optional`, or `defaulted` (zod 4.6): either way the key may be left out.
      .filter(([, field]) => (field._zod as { optin?: string }).optin !== undefined)
      .map(([key]) => key),
  scalarKinds: (schema) => scalarKindsOf(schema, factsOf, defOf),
};

function takesNull(schema: $ZodType, seen: Set<$ZodType>): boolean {
  if (seen.has(schema)) return true;
  seen.add(schema);
  const def = defOf(schema);
  const facts = factsOf(schema);
  switch (facts.kind) {
    case 'wrapper':
      if (facts.takes === 'same or null' || facts.takes === 'anything') return true;
      return takesNull(facts.inner(schema) as $ZodType, seen);
    case 'values':
      return facts.null === 'listed' && facts.values(def).includes(null);
    case 'union':
      return (def.options ?? []).some((option) => takesNull(option, seen));
    case 'intersection':
      return takesNull(def.left as $ZodType, seen) && takesNull(def.right as $ZodType, seen);
    case 'object':
    case 'record':
    case 'array':
    case 'tuple':
      return false;
    default:
      return facts.null === 'taken';
  }
}

function stringValues(schema: $ZodType): readonly string[] | undefined {
  const strings = listedStrings(schema);
  return strings && strings.length > 0 ? strings : undefined;
}

/** The strings a schema lists when it takes no other string: see `listedStringsOf`. */
function listedStrings(schema: $ZodType): readonly string[] | undefined {
  const facts = factsOf(schema);
  if (facts.kind === 'wrapper')
    return keepsValues(facts.takes) ? listedStrings(facts.inner(schema) as $ZodType) : undefined;
  const def = defOf(schema);
  return listedStringsOf(
    facts,
    facts.kind === 'values' ? facts.values(def) : [],
    def.options ?? [],
    listedStrings,
  );
}
