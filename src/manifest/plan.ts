/**
 * The coercion plan: plain JSON compiled at build time from a contract's Zod schemas and read at
 * run time by `applyPlan`. A position that needs nothing is absent. See docs/guide/coercion.md.
 */
export interface Plan {
  readonly root: PlanNode;
  /** Shared nodes, referred to by `{ ref }`: recursive schemas. */
  readonly defs?: { readonly [name: string]: PlanNode };
}

export type StructureKind = 'object' | 'array';

export interface PlanNode {
  /** Follow a shared definition. */
  readonly ref?: string;
  /** A string here is JSON-parsed, and kept parsed when the result is of one of these kinds. */
  readonly parse?: readonly StructureKind[];
  /** A string here stays a string, but one that parses as an array these checks accept is refused. */
  readonly refuse?: readonly ListCheck[];
  /** Object fields, by key. */
  readonly fields?: { readonly [key: string]: PlanNode };
  /** Object keys not in `fields` (a catch-all), and record values. */
  readonly rest?: PlanNode;
  /** Array elements; tuple items past `tuple`. */
  readonly items?: PlanNode;
  /** Tuple items by position; `null` where an item needs nothing. */
  readonly tuple?: readonly (PlanNode | null)[];
  /** A discriminated union: the key, and the node for each variant's tags. */
  readonly tag?: string;
  readonly variants?: readonly { readonly tags: readonly unknown[]; readonly node: PlanNode }[];
  /** A union: the one member that takes an object, or an array, when exactly one does. */
  readonly object?: PlanNode;
  readonly array?: PlanNode;
  /** Both sides of an intersection, in order. */
  readonly all?: readonly PlanNode[];
}

/** Whether an array member of a union accepts a parsed array, as data, or deferred to its parser. */
export type ListCheck =
  | {
      readonly minItems?: number;
      readonly maxItems?: number;
      readonly item: ValueCheck;
    }
  | {
      /** Where the member is in the contract: `input`, `params` or `extend`, then `_zod.def` keys. */
      readonly defer: readonly (string | number)[];
    };

export type ValueCheck =
  | { readonly any: true }
  | { readonly anyOf: readonly ValueCheck[] }
  | { readonly values: readonly (string | number | boolean | null)[] }
  | { readonly type: 'boolean' | 'null' }
  | {
      readonly type: 'string';
      readonly minLength?: number;
      readonly maxLength?: number;
      readonly patterns?: readonly { readonly source: string; readonly flags: string }[];
    }
  | {
      readonly type: 'number';
      readonly integer?: boolean;
      readonly minimum?: number;
      readonly maximum?: number;
      readonly exclusiveMinimum?: number;
      readonly exclusiveMaximum?: number;
      readonly multipleOf?: number;
    };
