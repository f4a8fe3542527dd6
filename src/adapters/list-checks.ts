import type { ListCheck, ValueCheck } from '../manifest/plan.js';
import { keepsValues, type TypeFacts } from './type-facts.js';

/** A list check compiled to data: what `listCheckOf` gives where it is exact. */
export type DataListCheck = Exclude<ListCheck, { defer: unknown }>;

/**
 * What the list-check compiler needs of a library beyond its table of type facts: where its
 * definitions hold an array's element and bounds, a union's options, and its leaves' own checks.
 */
export interface ListCheckLibrary<Schema, Def> {
  readonly factsOf: (schema: Schema) => TypeFacts<Schema, Def>;
  readonly defOf: (schema: Schema) => Def;
  /** An array's element, and its length bounds (undefined where a check is no bound of its length). */
  readonly array: (def: Def) => {
    readonly element: Schema | undefined;
    readonly bounds: { readonly minItems?: number; readonly maxItems?: number } | undefined;
  };
  /** A plain union's options; undefined for a discriminated one. */
  readonly plainOptions: (def: Def) => readonly Schema[] | undefined;
  /** Whether the parser coerces what it is given (`z.coerce.…()`). */
  readonly coerces: (def: Def) => boolean;
  /** A leaf's check from its own checks, where they are exact; undefined where they are not. */
  readonly leaf: (def: Def, json: 'string' | 'number' | 'boolean') => ValueCheck | undefined;
}

/**
 * Compiles "would this array member accept that parsed array" to data where that is exact, and
 * otherwise returns undefined: the check is then deferred to the member's own parser.
 */
export function listCheckOf<Schema, Def>(
  member: Schema,
  library: ListCheckLibrary<Schema, Def>,
): DataListCheck | undefined {
  let schema = member;
  for (let inner = listedThrough(schema, library); inner; inner = listedThrough(schema, library))
    schema = inner;
  if (library.factsOf(schema).kind !== 'array') return undefined;
  const { element, bounds } = library.array(library.defOf(schema));
  const item = element === undefined ? undefined : valueCheckOf(element, library);
  return bounds && item ? { ...bounds, item } : undefined;
}

/** What a wrapper that keeps the values it wraps (`null` aside) wraps: an array through it is one. */
function listedThrough<Schema, Def>(
  schema: Schema,
  library: ListCheckLibrary<Schema, Def>,
): Schema | undefined {
  const facts = library.factsOf(schema);
  return facts.kind === 'wrapper' && keepsValues(facts.takes) ? facts.inner(schema) : undefined;
}

function valueCheckOf<Schema, Def>(
  schema: Schema,
  library: ListCheckLibrary<Schema, Def>,
): ValueCheck | undefined {
  const def = library.defOf(schema);
  const facts = library.factsOf(schema);
  switch (facts.kind) {
    case 'wrapper': {
      if (facts.takes === 'anything') return { any: true };
      if (facts.takes === 'within') return undefined;
      const wrapped = facts.inner(schema);
      const inner = wrapped === undefined ? undefined : valueCheckOf(wrapped, library);
      return facts.takes === 'same' ? inner : inner && { anyOf: [{ type: 'null' }, inner] };
    }
    case 'values':
      return { values: facts.values(def) as (string | number | boolean | null)[] };
    case 'union': {
      const options = library.plainOptions(def)?.map((option) => valueCheckOf(option, library));
      return options?.every((option) => option !== undefined)
        ? { anyOf: options as ValueCheck[] }
        : undefined;
    }
    case 'text':
    case 'any':
    case 'scalar':
      switch (facts.json) {
        case 'any':
          return { any: true };
        case 'null':
          return { type: 'null' };
        // A coercing boolean takes any value; a coercing string or number, values no data check describes.
        case 'boolean':
          return library.coerces(def) ? { any: true } : library.leaf(def, 'boolean');
        case 'string':
        case 'number':
          return library.coerces(def) ? undefined : library.leaf(def, facts.json);
        default:
          return undefined;
      }
    default:
      return undefined;
  }
}
