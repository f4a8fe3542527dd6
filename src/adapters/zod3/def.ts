import type { ZodFirstPartyTypeKind } from 'zod/v3';
import { getOwn } from '../../shared/run/own-property.js';
import { type CoercedFacts, DATE_TIME_TEXT, ZOD_MISREADINGS } from '../coerced-facts.js';
import type { TypeFacts } from '../type-facts.js';

/** The parts of a Zod 3 schema (`zod@3`, and `zod/v3` of zod 3.25) that toolprep reads, by `_def`. */
export interface Zod3Schema {
  readonly _def: Zod3Def;
}

export interface Zod3Def {
  readonly typeName: string;
  readonly innerType?: Zod3Schema;
  /** ZodArray: the element; ZodBranded, ZodPromise: the inner schema. */
  readonly type?: Zod3Schema;
  /** ZodEffects: the schema it refines, transforms or preprocesses into. */
  readonly schema?: Zod3Schema;
  readonly effect?: { readonly type: 'refinement' | 'transform' | 'preprocess' };
  readonly in?: Zod3Schema;
  readonly out?: Zod3Schema;
  readonly getter?: () => Zod3Schema;
  readonly shape?: () => Record<string, Zod3Schema>;
  readonly catchall?: Zod3Schema;
  readonly unknownKeys?: 'strip' | 'strict' | 'passthrough';
  readonly items?: readonly Zod3Schema[];
  readonly rest?: Zod3Schema | null;
  readonly keyType?: Zod3Schema;
  readonly valueType?: Zod3Schema;
  readonly options?: readonly Zod3Schema[];
  readonly optionsMap?: Map<unknown, Zod3Schema>;
  readonly discriminator?: string;
  readonly left?: Zod3Schema;
  readonly right?: Zod3Schema;
  readonly value?: unknown;
  /** ZodCatch: what a failed parse gives instead. */
  readonly catchValue?: (context: { error: unknown; input: unknown }) => unknown;
  readonly values?: readonly unknown[] | Record<string, unknown>;
  readonly checks?: readonly {
    readonly kind: string;
    readonly value?: unknown;
    readonly inclusive?: boolean;
    readonly regex?: RegExp;
    readonly position?: number;
  }[];
  readonly minLength?: { readonly value: number } | null;
  readonly maxLength?: { readonly value: number } | null;
  readonly exactLength?: { readonly value: number } | null;
  readonly coerce?: boolean;
}

/** What toolprep knows of one Zod 3 type, the build's words for it included. */
export type Zod3Facts = TypeFacts<
  Zod3Schema,
  Zod3Def,
  {
    /** Zod 4's words for a type JSON Schema cannot show (`Date`): the same rules for both. */
    readonly unrepresentable?: string;
    /** The same, for a type JSON Schema can show only on the input side. */
    readonly outputUnrepresentable?: string;
    /** What to take instead where JSON cannot carry it. */
    readonly hint?: string;
    /** The schemas it holds besides the one it wraps, in the order zod-to-json-schema meets them. */
    readonly holds?: (def: Zod3Def) => readonly (Zod3Schema | null | undefined)[];
    /** The tags it gives a discriminated union, beside a literal's or an enum's values. */
    readonly tags?: readonly unknown[];
    /** What its coercing parser (`z.coerce.…()`, `_def.coerce`) does beside the type itself. */
    readonly coerced?: CoercedFacts;
  }
>;

/** ZodEffects is three types in one, told apart by its effect: a row each. */
type Zod3Type =
  | Exclude<`${ZodFirstPartyTypeKind}`, 'ZodEffects'>
  | `ZodEffects:${'refinement' | 'transform' | 'preprocess'}`;

const innerType = (schema: Zod3Schema): Zod3Schema | undefined => schema._def.innerType;
const refined = (schema: Zod3Schema): Zod3Schema | undefined => schema._def.schema;
const keysAndValues = (def: Zod3Def) => [def.keyType, def.valueType];

/** A lazy schema's target, got once: a Zod 3 getter may make a new schema on every call. */
const lazyTargets = new WeakMap<Zod3Schema, Zod3Schema | undefined>();

function targetOf(lazy: Zod3Schema): Zod3Schema | undefined {
  if (!lazyTargets.has(lazy)) lazyTargets.set(lazy, lazy._def.getter?.());
  return lazyTargets.get(lazy);
}

/**
 * One row per type of Zod 3 (TypeScript holds it to Zod's own list of types); a type not in it is
 * read as `UNKNOWN_TYPE`.
 */
export const ZOD3_TYPES: Readonly<Record<string, Zod3Facts>> = {
  ZodString: { kind: 'text', null: 'refused', json: 'string' },
  ZodNumber: {
    kind: 'scalar',
    null: 'refused',
    json: 'number',
    coerced: { misreads: ZOD_MISREADINGS.number },
  },
  ZodBoolean: {
    kind: 'scalar',
    null: 'refused',
    json: 'boolean',
    coerced: { misreads: ZOD_MISREADINGS.boolean },
  },
  ZodNull: { kind: 'scalar', null: 'taken', json: 'null', tags: [null] },
  ZodAny: { kind: 'any', null: 'taken', json: 'any' },
  ZodUnknown: { kind: 'any', null: 'taken', json: 'any' },
  ZodNever: { kind: 'scalar', null: 'refused' },
  ZodUndefined: { kind: 'scalar', null: 'refused', unrepresentable: 'Undefined', tags: [undefined] },
  ZodVoid: { kind: 'scalar', null: 'refused', unrepresentable: 'Void' },
  ZodNaN: { kind: 'scalar', null: 'refused', unrepresentable: 'NaN' },
  ZodSymbol: { kind: 'scalar', null: 'refused', unrepresentable: 'Symbols' },
  ZodFunction: { kind: 'scalar', null: 'refused', unrepresentable: 'Function types' },
  ZodBigInt: {
    kind: 'scalar',
    null: 'refused',
    unrepresentable: 'BigInt',
    hint: 'take z.string() or z.number().int() and convert it in the handler',
  },
  // A coerced date is given text (`new Date(input)`) and gives a Date: JSON on the input side only.
  ZodDate: {
    kind: 'scalar',
    null: 'refused',
    unrepresentable: 'Date',
    hint: 'take an ISO string with z.string().datetime() and convert it in the handler',
    coerced: { input: DATE_TIME_TEXT },
  },
  // Zod 4 shows a promise as what it resolves to; Zod 3's parser refuses any value that is not a
  // promise, which no JSON argument is.
  ZodPromise: {
    kind: 'scalar',
    null: 'refused',
    unrepresentable: 'Promises',
    hint: 'take the value itself: arguments arrive as JSON, never as a promise',
  },
  ZodMap: {
    kind: 'scalar',
    null: 'refused',
    unrepresentable: 'Map',
    hint: 'take z.record() instead of z.map()',
    holds: keysAndValues,
  },
  ZodSet: {
    kind: 'scalar',
    null: 'refused',
    unrepresentable: 'Set',
    hint: 'take z.array() instead of z.set()',
    holds: (def) => [def.valueType],
  },
  ZodLiteral: { kind: 'values', values: (def) => [def.value], null: 'listed' },
  ZodEnum: { kind: 'values', values: (def) => def.values as readonly unknown[], null: 'refused' },
  ZodNativeEnum: {
    kind: 'values',
    values: (def) => nativeEnumValues(def.values as Record<string, unknown>),
    null: 'refused',
  },
  ZodObject: { kind: 'object', holds: (def) => [...Object.values(def.shape?.() ?? {}), def.catchall] },
  ZodRecord: { kind: 'record', holds: keysAndValues },
  ZodArray: { kind: 'array', holds: (def) => [def.type] },
  ZodTuple: { kind: 'tuple', holds: (def) => [...(def.items ?? []), def.rest] },
  ZodUnion: { kind: 'union', holds: (def) => def.options ?? [] },
  ZodDiscriminatedUnion: { kind: 'union', holds: (def) => def.options ?? [] },
  ZodIntersection: { kind: 'intersection', holds: (def) => [def.left, def.right] },
  ZodOptional: { kind: 'wrapper', takes: 'same', inner: innerType, missing: 'kept' },
  ZodDefault: { kind: 'wrapper', takes: 'same', inner: innerType, missing: 'filled' },
  ZodReadonly: { kind: 'wrapper', takes: 'same', inner: innerType, missing: 'inner' },
  ZodBranded: { kind: 'wrapper', takes: 'same', inner: (schema) => schema._def.type, missing: 'inner' },
  ZodNullable: { kind: 'wrapper', takes: 'same or null', inner: innerType },
  ZodCatch: { kind: 'wrapper', takes: 'anything', inner: innerType, missing: 'filled' },
  // Takes exactly what its target takes, but the target may hold the lazy itself: read as `within`,
  // so that walks that keep no record of where they have been (strings, list checks) stop at it.
  ZodLazy: { kind: 'wrapper', takes: 'within', inner: targetOf },
  // Takes what its input side takes, less what its output side refuses.
  ZodPipeline: {
    kind: 'wrapper',
    takes: 'within',
    inner: (schema) => schema._def.in,
    holds: (def) => [def.out],
  },
  // A refinement or a transform takes what its schema takes, less what its function refuses.
  'ZodEffects:refinement': { kind: 'wrapper', takes: 'within', inner: refined },
  'ZodEffects:transform': {
    kind: 'wrapper',
    takes: 'within',
    inner: refined,
    outputUnrepresentable: 'Transforms',
    hint: 'a transform has no output shape; drop `output` or describe what the tool returns',
  },
  // Takes whatever it is given, and hands it to its schema changed.
  'ZodEffects:preprocess': { kind: 'any', null: 'taken', holds: (def) => [def.schema] },
} satisfies Record<Zod3Type, Zod3Facts>;

/**
 * A type this table does not know: a scalar that may take `null`, so no inverse step deletes one
 * for it; no wrapper, so nothing reads through it.
 */
const UNKNOWN_TYPE: Zod3Facts = { kind: 'scalar', null: 'taken' };

/** The facts of a definition's type: the one place a type this table lacks is decided. */
export function factsOf({ typeName, effect }: Zod3Def): Zod3Facts {
  const type = typeName === 'ZodEffects' ? `ZodEffects:${effect?.type}` : typeName;
  return getOwn(ZOD3_TYPES, type) ?? UNKNOWN_TYPE;
}

/** What a definition's coercing parser does beside its type, if it coerces. */
export function coercedFactsOf(def: Zod3Def): CoercedFacts | undefined {
  return def.coerce ? factsOf(def).coerced : undefined;
}

/** The schema a wrapper wraps, if the schema is one: what looking through a wrapper means in Zod 3. */
export function wrappedBy(schema: Zod3Schema): Zod3Schema | undefined {
  const facts = factsOf(schema._def);
  return facts.kind === 'wrapper' ? facts.inner(schema) : undefined;
}

/** The values a native enum takes (a numeric enum's reverse mappings are not values). */
function nativeEnumValues(values: Record<string, unknown>): unknown[] {
  return Object.keys(values)
    .filter((key) => typeof values[values[key] as string] !== 'number')
    .map((key) => values[key]);
}
