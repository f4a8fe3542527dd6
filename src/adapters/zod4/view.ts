import type { $ZodType } from 'zod/v4/core';
import type { SchemaNode, SchemaView } from '../types.js';
import { resolveZod4 } from './resolve.js';
import { isZod4 } from './runtime.js';

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
        return { kind: 'object', fields: def.shape ?? {}, rest: def.catchall };
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
    return [...(propValues?.[key] ?? [])];
  },
  typeName: (schema) => defOf(schema).type,
  isObject: (schema) => zod4View.resolve(schema) === schema && zod4View.node(schema).kind === 'object',
};
