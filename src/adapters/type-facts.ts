import type { ScalarKind } from '../manifest/plan.js';

/**
 * The words of a schema library's table of type facts (`zod4/def.ts`, `zod3/def.ts`): one row per
 * type of the library, read by its view, its position finder, its builder and its list checks, so
 * that a new type is a new row. (Zod's own JSON Schema converter keeps one processor per
 * `def.type` in one table the same way.)
 */
export type TypeFacts<Schema, Def, Extra = unknown> = (
  | WrapperFacts<Schema>
  | ContainerFacts
  | ValuesFacts<Def>
  | LeafFacts<Schema>
) &
  Extra;

/** How a wrapper takes the values JSON can hold, against the schema it wraps. */
export type Takes =
  /** Exactly what it wraps: optional, default, readonly, … */
  | 'same'
  /** What it wraps, and `null`. */
  | 'same or null'
  /** Any value: one it would refuse gives its fallback instead (a catch). */
  | 'anything'
  /**
   * No more than what it wraps (a pipe's output side may refuse more): looked through for
   * structure and for `null`, never for the strings or the list check it would take.
   */
  | 'within';

/** A wrapper, looked through to the schema it wraps as `takes` says. */
interface WrapperFacts<Schema> {
  readonly kind: 'wrapper';
  readonly takes: Takes;
  readonly inner: (schema: Schema) => Schema | undefined;
  /**
   * What it does with a missing value, where an adapter asks: `kept` (still missing), `filled` (a
   * value instead), `inner` (what it wraps decides).
   */
  readonly missing?: 'kept' | 'filled' | 'inner';
}

/**
 * A structure, whose parts its definition holds under the kind's names. An object, record, array
 * or tuple refuses `null`; a union takes it if a member does, an intersection if both sides do.
 */
interface ContainerFacts {
  readonly kind: 'object' | 'record' | 'array' | 'tuple' | 'union' | 'intersection';
}

/** A literal or an enum: the values it lists, strings among them or not. */
interface ValuesFacts<Def> {
  readonly kind: 'values';
  readonly values: (def: Def) => readonly unknown[];
  /** `listed`: it takes `null` if it lists it. */
  readonly null: 'refused' | 'listed';
}

/** Any other type. */
interface LeafFacts<Schema> {
  /** `text`: takes some raw strings; `any`: any value; `scalar`: no string and no structure. */
  readonly kind: 'text' | 'any' | 'scalar';
  /** `refused` where its parser surely refuses `null`; `taken` where it may take it. */
  readonly null: 'refused' | 'taken';
  /** The JSON values it takes, narrowed by its own checks alone: what a list check compiles. */
  readonly json?: 'string' | 'number' | 'boolean' | 'null' | 'any';
  /** A schema it holds but does not take values through (a promise's): positions step into it. */
  readonly inner?: (schema: Schema) => Schema | undefined;
}

/**
 * Whether a wrapper takes the values of what it wraps and none but `null` besides: its strings and
 * its list check are then what it wraps.
 */
export function keepsValues(takes: Takes): boolean {
  return takes === 'same' || takes === 'same or null';
}

/**
 * The strings a schema lists when it takes no string it does not list (`SchemaView.stringValues`,
 * for the inverse step `caseFold`): a literal's or an enum's strings, none for `null`, and a
 * union's when each member lists its own (`z.union([z.literal('on'), z.null()])`); undefined for
 * anything else. `values` are the schema's own when it is a literal or an enum, `options` a
 * union's members, `listedOf` this reading of a member.
 */
export function listedStringsOf<Schema>(
  facts: { readonly kind: string; readonly json?: string },
  values: readonly unknown[],
  options: readonly Schema[],
  listedOf: (option: Schema) => readonly string[] | undefined,
): readonly string[] | undefined {
  if (facts.kind === 'values') return values.filter((value): value is string => typeof value === 'string');
  if (facts.json === 'null') return [];
  if (facts.kind !== 'union') return undefined;
  const listed = options.map(listedOf);
  return listed.every((strings) => strings !== undefined) ? listed.flat() : undefined;
}

/**
 * `SchemaView.scalarKinds` read from a library's table: through wrappers (none under one that
 * takes anything), a literal's or an enum's values when none is a string, a scalar leaf's JSON
 * kind unless its parser coerces; undefined for a structure or a union.
 */
export function scalarKindsOf<Schema, Def extends { readonly coerce?: boolean }>(
  schema: Schema,
  factsOf: (schema: Schema) => TypeFacts<Schema, Def>,
  defOf: (schema: Schema) => Def,
): readonly ScalarKind[] | undefined {
  // Bounded: a wrapper chain that leads back to itself (a broken lazy) takes no scalar text.
  for (let steps = 0; steps < 64; steps++) {
    const facts = factsOf(schema);
    switch (facts.kind) {
      case 'wrapper': {
        const inner = facts.takes === 'anything' ? undefined : facts.inner(schema);
        if (inner === undefined) return [];
        schema = inner;
        continue;
      }
      case 'values': {
        const values = facts.values(defOf(schema));
        if (values.some((value) => typeof value === 'string')) return [];
        return (['boolean', 'number'] as const).filter((kind) =>
          values.some((value) => typeof value === kind),
        );
      }
      case 'scalar':
        return !defOf(schema).coerce && (facts.json === 'boolean' || facts.json === 'number')
          ? [facts.json]
          : [];
      case 'text':
      case 'any':
        return [];
      default:
        return undefined;
    }
  }
  return [];
}
