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

export function isZod3(value: unknown): value is Zod3Schema {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Zod3Schema)._def?.typeName === 'string' &&
    !('_zod' in value)
  );
}

/** Wrappers that accept exactly what they wrap, for a value JSON can hold. */
export const TRANSPARENT = new Set(['ZodOptional', 'ZodDefault', 'ZodReadonly', 'ZodBranded']);

/** A lazy schema's target, got once: a Zod 3 getter may make a new schema on every call. */
const lazyTargets = new WeakMap<Zod3Schema, Zod3Schema | undefined>();

function targetOf(lazy: Zod3Schema): Zod3Schema | undefined {
  if (!lazyTargets.has(lazy)) lazyTargets.set(lazy, lazy._def.getter?.());
  return lazyTargets.get(lazy);
}

/** The schema a wrapper wraps, or undefined: what looking through a wrapper means in Zod 3. */
export function wrappedBy(schema: Zod3Schema): Zod3Schema | undefined {
  const def = schema._def;
  switch (def.typeName) {
    case 'ZodOptional':
    case 'ZodNullable':
    case 'ZodDefault':
    case 'ZodCatch':
    case 'ZodReadonly':
      return def.innerType;
    case 'ZodBranded':
      return def.type;
    case 'ZodLazy':
      return targetOf(schema);
    case 'ZodPipeline':
      return def.in;
    case 'ZodEffects':
      // A preprocess takes whatever it is given; a refinement or a transform takes what it wraps.
      return def.effect?.type === 'preprocess' ? undefined : def.schema;
    default:
      return undefined;
  }
}

/** The values a native enum takes (a numeric enum's reverse mappings are not values). */
export function nativeEnumValues(values: Record<string, unknown>): unknown[] {
  return Object.keys(values)
    .filter((key) => typeof values[values[key] as string] !== 'number')
    .map((key) => values[key]);
}
