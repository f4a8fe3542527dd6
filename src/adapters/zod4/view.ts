import type { $ZodType } from 'zod/v4/core';
import { getOwn } from '../../shared/run/own-property.js';
import type { SchemaNode, SchemaView } from '../types.js';
import { isZod4 } from './def.js';
import { resolveZod4 } from './resolve.js';

/** The parts of a Zod 4 definition (classic and mini alike) that toolprep reads. */
export interface Zod4Def {
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

export function defOf(schema: $ZodType): Zod4Def {
  return schema._zod.def as unknown as Zod4Def;
}

/** Types that take any value, a string included. */
const ANYTHING = new Set(['any', 'unknown', 'transform', 'custom']);
const TEXT = new Set(['string', 'template_literal']);

/** Zod 4, classic and mini (`zod`, `zod/mini`, `zod/v4`), read through `_zod.def`. */
export const zod4View: SchemaView<$ZodType> = {
  library: 'zod 4',
  owns: isZod4,
  resolve: resolveZod4,
  node(schema): SchemaNode<$ZodType> {
    const def = defOf(schema);
    switch (def.type) {
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
      case 'literal':
      case 'enum': {
        const values = def.values ?? Object.values(def.entries ?? {});
        return { kind: values.some((value) => typeof value === 'string') ? 'text' : 'scalar' };
      }
      default:
        return { kind: TEXT.has(def.type) ? 'text' : ANYTHING.has(def.type) ? 'any' : 'scalar' };
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
};

/** Types whose parser refuses `null`. Any type not named here or below may take it. */
const REFUSE_NULL = new Set([
  'string',
  'number',
  'int',
  'boolean',
  'bigint',
  'symbol',
  'undefined',
  'void',
  'never',
  'date',
  'object',
  'array',
  'tuple',
  'record',
  'map',
  'set',
  'enum',
  'template_literal',
  'nan',
  'file',
  'function',
]);

function takesNull(schema: $ZodType, seen: Set<$ZodType>): boolean {
  if (seen.has(schema)) return true;
  seen.add(schema);
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
      return takesNull(def.innerType as $ZodType, seen);
    case 'pipe':
      return takesNull(def.in as $ZodType, seen);
    case 'lazy':
      return takesNull((schema._zod as unknown as { innerType: $ZodType }).innerType, seen);
    case 'literal':
      return (def.values ?? []).includes(null);
    case 'union':
      return (def.options ?? []).some((option) => takesNull(option, seen));
    case 'intersection':
      return takesNull(def.left as $ZodType, seen) && takesNull(def.right as $ZodType, seen);
    default:
      return !REFUSE_NULL.has(def.type);
  }
}

/** Wrappers through which a schema takes the strings it wraps and no other. */
const STRING_PRESERVING = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional']);

function stringValues(schema: $ZodType): readonly string[] | undefined {
  const def = defOf(schema);
  if (STRING_PRESERVING.has(def.type)) return stringValues(def.innerType as $ZodType);
  if (def.type !== 'enum' && def.type !== 'literal') return undefined;
  const values = def.values ?? Object.values(def.entries ?? {});
  const strings = values.filter((value): value is string => typeof value === 'string');
  return strings.length > 0 ? strings : undefined;
}
