import type { $ZodType, $ZodTypeDef } from 'zod/v4/core';
import { getOwn } from '../../shared/run/own-property.js';
import { type CoercedFacts, DATE_TIME_TEXT, ZOD_MISREADINGS } from '../coerced-facts.js';
import type { TypeFacts } from '../type-facts.js';

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

/** What toolprep knows of one Zod 4 type; `hint` says what to take instead where JSON cannot carry it. */
export type Zod4Facts = TypeFacts<
  $ZodType,
  Zod4Def,
  { readonly hint?: string; readonly coerced?: CoercedFacts }
>;

const innerType = (schema: $ZodType): $ZodType | undefined => defOf(schema).innerType;

/**
 * One row per `def.type` of Zod 4 (TypeScript holds it to Zod's own list of types); a type not in
 * it is read as `UNKNOWN_TYPE`.
 */
export const ZOD4_TYPES: Readonly<Record<string, Zod4Facts>> = {
  string: { kind: 'text', null: 'refused', json: 'string' },
  template_literal: { kind: 'text', null: 'refused' },
  number: { kind: 'scalar', null: 'refused', json: 'number', coerced: { misreads: ZOD_MISREADINGS.number } },
  // In Zod's list of types, though `z.int()` makes a `number`.
  int: { kind: 'scalar', null: 'refused' },
  boolean: {
    kind: 'scalar',
    null: 'refused',
    json: 'boolean',
    coerced: { misreads: ZOD_MISREADINGS.boolean },
  },
  null: { kind: 'scalar', null: 'taken', json: 'null' },
  any: { kind: 'any', null: 'taken', json: 'any' },
  unknown: { kind: 'any', null: 'taken', json: 'any' },
  bigint: {
    kind: 'scalar',
    null: 'refused',
    hint: 'take z.string() or z.number().int() and convert it in the handler',
  },
  // A coerced date is given text (`new Date(input)`) and gives a Date: JSON on the input side only.
  date: {
    kind: 'scalar',
    null: 'refused',
    hint: 'take an ISO string with z.iso.datetime() and convert it in the handler',
    coerced: { input: DATE_TIME_TEXT },
  },
  symbol: { kind: 'scalar', null: 'refused' },
  undefined: { kind: 'scalar', null: 'refused' },
  void: { kind: 'scalar', null: 'refused' },
  never: { kind: 'scalar', null: 'refused' },
  nan: { kind: 'scalar', null: 'refused' },
  file: { kind: 'scalar', null: 'refused' },
  function: { kind: 'scalar', null: 'refused' },
  map: { kind: 'scalar', null: 'refused', hint: 'take z.record() instead of z.map()' },
  set: { kind: 'scalar', null: 'refused', hint: 'take z.array() instead of z.set()' },
  // Takes any value (the function decides), and gives another.
  transform: {
    kind: 'any',
    null: 'taken',
    hint: 'a transform has no output shape; drop `output` or describe what the tool returns',
  },
  custom: { kind: 'any', null: 'taken', hint: 'describe the value with a representable Zod schema' },
  // They hold a schema without taking what it takes (a promise awaits a value first; a success takes
  // anything and says whether it parsed): positions step into it, nothing else reads through them.
  promise: { kind: 'scalar', null: 'taken', inner: innerType },
  success: { kind: 'scalar', null: 'taken', inner: innerType },
  literal: { kind: 'values', values: (def) => def.values ?? [], null: 'listed' },
  enum: { kind: 'values', values: (def) => Object.values(def.entries ?? {}), null: 'refused' },
  object: { kind: 'object' },
  record: { kind: 'record' },
  array: { kind: 'array' },
  tuple: { kind: 'tuple' },
  union: { kind: 'union' },
  intersection: { kind: 'intersection' },
  optional: { kind: 'wrapper', takes: 'same', inner: innerType },
  nonoptional: { kind: 'wrapper', takes: 'same', inner: innerType },
  default: { kind: 'wrapper', takes: 'same', inner: innerType },
  prefault: { kind: 'wrapper', takes: 'same', inner: innerType },
  readonly: { kind: 'wrapper', takes: 'same', inner: innerType, missing: 'inner' },
  nullable: { kind: 'wrapper', takes: 'same or null', inner: innerType },
  catch: { kind: 'wrapper', takes: 'anything', inner: innerType },
  // Takes what its input side takes, less what its output side refuses.
  pipe: { kind: 'wrapper', takes: 'within', inner: (schema) => defOf(schema).in },
  // Takes exactly what its target takes, but the target may hold the lazy itself: read as `within`,
  // so that walks that keep no record of where they have been (strings, list checks) stop at it.
  lazy: {
    kind: 'wrapper',
    takes: 'within',
    inner: (schema) => (schema._zod as { innerType?: $ZodType }).innerType,
  },
} satisfies Record<$ZodTypeDef['type'], Zod4Facts>;

/**
 * A type this table does not know (from a newer Zod): a scalar that may take `null`, so no inverse
 * step deletes one for it; no wrapper, so nothing reads through it but positions, which step into
 * whatever schema it holds.
 */
const UNKNOWN_TYPE: Zod4Facts = {
  kind: 'scalar',
  null: 'taken',
  inner: (schema) => defOf(schema).innerType ?? defOf(schema).in,
};

/** The facts of a schema's type: the one place a type Zod has and this table lacks is decided. */
export function factsOf(schema: $ZodType): Zod4Facts {
  return getOwn(ZOD4_TYPES, defOf(schema).type) ?? UNKNOWN_TYPE;
}

/** What the schema's coercing parser does beside its type, if it coerces. */
export function coercedFactsOf(schema: $ZodType): CoercedFacts | undefined {
  return defOf(schema).coerce ? factsOf(schema).coerced : undefined;
}

/** The schema a wrapper wraps, if the schema is one. */
export function wrappedBy(schema: $ZodType): $ZodType | undefined {
  const facts = factsOf(schema);
  return facts.kind === 'wrapper' ? facts.inner(schema) : undefined;
}

/** The schema inside one that holds one (a wrapper, a promise): where positions look. */
export function heldBy(schema: $ZodType): $ZodType | undefined {
  const facts = factsOf(schema);
  return 'inner' in facts ? facts.inner?.(schema) : undefined;
}
