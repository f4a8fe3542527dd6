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
  /**
   * The repairs beyond the seeds' rule that this plan holds positions for and every call runs
   * (the config's `repairs`); absent when it holds none. A `nullAbsent` or `fold` position that is
   * not listed here was compiled for a profile and runs only in a call through it.
   */
  readonly repairs?: readonly RepairName[];
  /**
   * Present when some check here is deferred to an array member's own parser (`{ defer }`): a
   * server then loads the position finder with the contract, and finds every such member there.
   * Recorded by the build, so that the runtime never searches the plan for it.
   */
  readonly defers?: true;
}

export type StructureKind = 'object' | 'array';

/** The scalars a string may be the JSON text of, where a position takes them and no string. */
export type ScalarKind = 'boolean' | 'number';

/**
 * The repairs a plan may hold beside the seeds' rule (parse structure sent as JSON text, refuse a
 * list written as text), each turning a value the contract refuses into the one it accepts:
 * `scalarText` (`"true"`, `"42"` where only booleans or numbers are taken), `nullAbsent` (`null`
 * for a key that may be left out and takes no `null`), `loneValue` (one value where only a list
 * is taken), `caseFold` (an enum member in another case). See docs/guide/coercion.md.
 */
export const REPAIR_NAMES = ['scalarText', 'nullAbsent', 'loneValue', 'caseFold'] as const;
export type RepairName = (typeof REPAIR_NAMES)[number];

export interface PlanNode {
  /** Follow a shared definition. */
  readonly ref?: string;
  /** A string here is JSON-parsed, and kept parsed when the result is of one of these kinds. */
  readonly parse?: readonly StructureKind[];
  /**
   * Repair `scalarText`: a string here that is the JSON text of a scalar of these kinds (a finite
   * number, a boolean) becomes that scalar. Only where no string is taken.
   */
  readonly scalar?: readonly ScalarKind[];
  /**
   * Repair `loneValue`, at a position that takes only a list: a value here that is no list (and no
   * text that starts like JSON) becomes a one-item list, when this check accepts that list once
   * its item is repaired.
   */
  readonly lone?: ListCheck;
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
   * Repair (or a profile's inverse step) `nullAbsent`: these keys are deleted where their value is
   * `null`, since the contract's field there refuses `null` and may be left out.
   */
  readonly nullAbsent?: readonly string[];
  /**
   * `nullAbsent`: a key not among these (the object's declared keys) is deleted where its value is
   * `null`, since the object refuses such a key or its catch-all refuses `null`.
   */
  readonly nullAbsentBeyond?: readonly string[];
  /**
   * Repair (or a profile's inverse step) `caseFold`: a string here that is none of these members
   * but equals exactly one of them ignoring case becomes that member.
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

/** How a plan node reaches one of the nodes it holds. */
export type PlanStep =
  | { readonly kind: 'field'; readonly key: string }
  | { readonly kind: 'rest' | 'items' | 'object' | 'array' | 'side' }
  | { readonly kind: 'tuple'; readonly index: number }
  | { readonly kind: 'variant'; readonly tags: readonly unknown[] };

/** The nodes a plan node holds, each with its step: fields, catch-all, tuple, items, variants, union members, sides. */
export function planChildren(node: PlanNode): { readonly step: PlanStep; readonly child: PlanNode }[] {
  const children: { step: PlanStep; child: PlanNode }[] = [];
  for (const [key, child] of Object.entries(node.fields ?? {}))
    children.push({ step: { kind: 'field', key }, child });
  if (node.rest) children.push({ step: { kind: 'rest' }, child: node.rest });
  node.tuple?.forEach((child, index) => {
    if (child) children.push({ step: { kind: 'tuple', index }, child });
  });
  if (node.items) children.push({ step: { kind: 'items' }, child: node.items });
  for (const { tags, node: child } of node.variants ?? [])
    children.push({ step: { kind: 'variant', tags }, child });
  if (node.object) children.push({ step: { kind: 'object' }, child: node.object });
  if (node.array) children.push({ step: { kind: 'array' }, child: node.array });
  for (const child of node.all ?? []) children.push({ step: { kind: 'side' }, child });
  return children;
}

/** Every position a plan defers a check to, in its refusals of lists written as text and its `lone` checks. */
export function deferredPositions(plan: Plan): Position[] {
  const positions: Position[] = [];
  const add = (check: ListCheck | undefined) => {
    if (check && 'defer' in check) positions.push(check.defer);
  };
  const visit = (node: PlanNode): void => {
    for (const check of node.refuse ?? []) add(check);
    add(node.lone);
    for (const { child } of planChildren(node)) visit(child);
  };
  visit(plan.root);
  for (const definition of Object.values(plan.defs ?? {})) visit(definition);
  return positions;
}
