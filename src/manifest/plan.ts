/**
 * The coercion plan: plain JSON compiled at build time from a contract's schemas and read at run
 * time by `applyPlan`. A position that needs nothing is absent. Everything in it speaks of the
 * argument value (property names, items, variant tags), never of a schema library's own layout, so
 * a library's release cannot change what a committed plan means. See docs/reference/manifest.md.
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
  /**
   * Inverse step `nullAbsent` (only in a call through a profile): these keys are deleted where
   * their value is `null`, since the contract's field there refuses `null` and may be left out.
   */
  readonly nullAbsent?: readonly string[];
  /**
   * Inverse step `nullAbsent`: a key not among these (the object's declared keys) is deleted where
   * its value is `null`, since the object refuses such a key or its catch-all refuses `null`.
   */
  readonly nullAbsentBeyond?: readonly string[];
  /**
   * Inverse step `caseFold` (only in a call through a profile that needs it): a string here that
   * is none of these members but equals exactly one of them ignoring case becomes that member.
   */
  readonly fold?: readonly string[];
}

/** Whether an array member of a union accepts a parsed array, as data, or deferred to its parser. */
export type ListCheck =
  | {
      readonly minItems?: number;
      readonly maxItems?: number;
      readonly item: ValueCheck;
    }
  | {
      /** Where the member is in the contract; its own parser decides. */
      readonly defer: Position;
    };

/**
 * A place in a contract's schemas, named by where it is in the arguments: the root (`input`,
 * `params` or `extend`), then one step per level: `.name` a property, `[]` an array's items (or a
 * tuple's rest), `[2]` a tuple's item, `{}` a record's values (or the keys an object leaves
 * undeclared), `="create"` a discriminated union's variant by its tag (as JSON), `|1` a union's
 * second member as written, `&0` and `&1` the two sides of an intersection.
 */
export type Position = readonly string[];

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

/** Position steps, written one way wherever a position is made. */
export const positionStep = {
  field: (name: string): string => `.${name}`,
  items: '[]',
  item: (index: number): string => `[${index}]`,
  values: '{}',
  member: (index: number): string => `|${index}`,
  variant: (tag: unknown): string => `=${JSON.stringify(tag)}`,
  side: (index: 0 | 1): string => `&${index}`,
} as const;
