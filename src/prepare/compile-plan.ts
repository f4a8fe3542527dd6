import {
  absentWhenNull,
  acceptsRawString,
  foldMembers,
  keysNoMemberTakesNullAt,
  listMembers,
  refusesNullBeyond,
  refusesOtherKinds,
  scalarKinds,
  structureKinds,
  unionMembers,
} from '../adapters/structure.js';
import type { SchemaBuilder, SchemaNode, SchemaView } from '../adapters/types.js';
import type { ListCheck, Plan, PlanNode, Position, RepairName, StructureKind } from '../manifest/plan.js';
import { deferredPositions, planChildren, REPAIR_NAMES, positionStep as step } from '../manifest/plan.js';
import { setOwn } from '../shared/run/own-property.js';

/** One schema a tool's arguments pass through, where it sits in the contract, and its library. */
export interface PlanRoot {
  readonly key: 'extend' | 'params' | 'input';
  readonly schema: unknown;
  readonly builder: SchemaBuilder;
}

/** The inverse steps to compile into the plan: those of the profiles the config chose. */
export interface InverseSteps {
  readonly nullAbsent: boolean;
  readonly caseFold: boolean;
}

/** The repairs the config turned on (`repairs`), each compiled into every plan that has a place for it. */
type RepairSettings = { readonly [Repair in RepairName]: boolean };

const ALL_REPAIRS: RepairSettings = { scalarText: true, nullAbsent: true, loneValue: true, caseFold: true };

export interface PlanSteps {
  /** What the chosen profiles' calls undo: compiled in, run only in a call through them. */
  readonly inverse?: InverseSteps;
  /** What every call repairs. Default: every repair. */
  readonly repairs?: RepairSettings;
}

interface CompileContext {
  readonly root: PlanRoot;
  /** Where `nullAbsent` and `caseFold` positions are compiled: for the repairs or the profiles. */
  readonly inverse: InverseSteps;
  readonly repairs: RepairSettings;
  /** The keys the other roots declare: at the top, the arguments hold them beside this root's. */
  readonly siblingKeys: readonly string[];
  /** Schemas being compiled, with the definition name given once one refers back to itself. */
  readonly inProgress: Map<unknown, { name?: string }>;
  readonly defs: Record<string, PlanNode>;
  readonly names: { next: number };
}

/**
 * Compiles the coercion plan for the schemas a tool's arguments pass through, in the order the
 * runner applies them (extension keys, params, input). Positions that need nothing are absent;
 * recursive schemas become shared definitions. A check that cannot be compiled to data is deferred
 * to the member's own parser, found at run time by its position in the arguments; a plan with such
 * a check says so (`defers`).
 */
export function compilePlan(roots: readonly PlanRoot[], steps: PlanSteps = {}): Plan {
  const repairs = steps.repairs ?? ALL_REPAIRS;
  const inverse = {
    nullAbsent: repairs.nullAbsent || (steps.inverse?.nullAbsent ?? false),
    caseFold: repairs.caseFold || (steps.inverse?.caseFold ?? false),
  };
  const defs: Record<string, PlanNode> = {};
  const names = { next: 0 };
  const keysOfRoot = roots.map((root) => topKeys(root.builder.view, root.schema));
  const nodes = roots.flatMap((root, index) => {
    const siblingKeys = keysOfRoot.flatMap((keys, other) => (other === index ? [] : keys));
    return (
      compileNode(root.schema, [root.key], {
        root,
        inverse,
        repairs,
        siblingKeys,
        inProgress: new Map(),
        defs,
        names,
      }) ?? []
    );
  });
  const root: PlanNode =
    nodes.length === 1
      ? (nodes[0] as PlanNode)
      : { parse: ['object'], ...(nodes.length > 0 ? { all: nodes } : {}) };
  const plan: Plan = Object.keys(defs).length > 0 ? { root, defs } : { root };
  const held = repairsHeld(plan, repairs);
  // Recorded, so that a server loads the position finder for this tool only, and searches no plan.
  const defers = deferredPositions(plan).length > 0;
  return {
    ...plan,
    ...(held.length > 0 ? { repairs: held } : {}),
    ...(defers ? { defers: true as const } : {}),
  };
}

/** The repairs every call runs that the plan holds a position for, in their order. */
function repairsHeld(plan: Plan, repairs: RepairSettings): RepairName[] {
  const found = new Set<RepairName>();
  const visit = (node: PlanNode): void => {
    if (node.scalar) found.add('scalarText');
    if (node.lone) found.add('loneValue');
    if (node.nullAbsent || node.nullAbsentBeyond) found.add('nullAbsent');
    if (node.fold) found.add('caseFold');
    for (const { child } of planChildren(node)) visit(child);
  };
  visit(plan.root);
  for (const definition of Object.values(plan.defs ?? {})) visit(definition);
  return REPAIR_NAMES.filter((repair) => repairs[repair] && found.has(repair));
}

function compileNode(schema: unknown, position: Position, context: CompileContext): PlanNode | undefined {
  const { view } = context.root.builder;
  const fold = context.inverse.caseFold ? foldMembers(view, schema) : undefined;
  if (fold) return { fold };
  const resolved = view.resolve(schema);
  const { kind } = view.node(resolved);
  if (kind === 'scalar' || kind === 'text' || kind === 'any') {
    const scalar = context.repairs.scalarText ? [...scalarKinds(view, schema)].sort() : [];
    return scalar.length > 0 ? { scalar } : undefined;
  }
  const entry = context.inProgress.get(resolved);
  if (entry) {
    entry.name ??= `def${context.names.next++}`;
    return { ref: entry.name };
  }
  const self: { name?: string } = {};
  context.inProgress.set(resolved, self);
  const node = compileResolved(resolved, position, context, schema);
  context.inProgress.delete(resolved);
  if (self.name === undefined) return node;
  context.defs[self.name] = node ?? {};
  return { ref: self.name };
}

/** `written`: the schema as the contract writes it at this position, its wrappers included. */
function compileResolved(
  schema: unknown,
  position: Position,
  context: CompileContext,
  written: unknown,
): PlanNode | undefined {
  const { view } = context.root.builder;
  // No wrapper on the way takes anything: a value of another kind is refused here, and repairable.
  const refusesOthers = refusesOtherKinds(view, written);
  const node = view.node(schema);
  const child = (childSchema: unknown, childStep: string) =>
    childSchema === undefined ? undefined : compileNode(childSchema, [...position, childStep], context);
  switch (node.kind) {
    case 'object': {
      const rest = child(node.rest, step.values);
      const fields: Record<string, PlanNode> = {};
      for (const [key, field] of Object.entries(node.fields)) {
        const compiled = child(field, step.field(key));
        // Beside a catch-all, every declared key is listed (as {} when it needs nothing), so that
        // the catch-all's node never walks a declared field.
        if (compiled || rest) setOwn(fields, key, compiled ?? {});
      }
      return withParts(
        { parse: ['object'] },
        {
          fields: nonEmpty(fields),
          rest,
          ...(context.inverse.nullAbsent ? objectNullSteps(view, schema, node, position, context) : {}),
        },
      );
    }
    case 'record':
      return withParts(
        { parse: ['object'] },
        {
          rest: child(node.values, step.values),
          nullAbsentBeyond: context.inverse.nullAbsent && refusesNullBeyond(view, node) ? [] : undefined,
        },
      );
    case 'array':
      return withParts(
        { parse: ['array'] },
        {
          items: child(node.element, step.items),
          lone: refusesOthers ? loneCheck(written, position, context) : undefined,
        },
      );
    case 'tuple': {
      const tuple = node.items.map((item, index) => child(item, step.item(index)) ?? null);
      const rest = child(node.rest, step.items);
      // `tuple` is kept whenever `items` is, so that the rest node never reaches the leading items.
      return withParts(
        { parse: ['array'] },
        { tuple: rest || tuple.some(Boolean) ? tuple : undefined, items: rest },
      );
    }
    case 'intersection': {
      const sides = node.sides.flatMap((side, index) => child(side, step.side(index as 0 | 1)) ?? []);
      return withParts(parseOf(structureKinds(view, schema)), { all: sides.length > 0 ? sides : undefined });
    }
    case 'union':
      return compileUnion(schema, node.options, node.discriminator, position, context, refusesOthers);
    default:
      return undefined;
  }
}

function compileUnion(
  union: unknown,
  options: readonly unknown[],
  discriminator: string | undefined,
  position: Position,
  context: CompileContext,
  refusesOthers: boolean,
): PlanNode | undefined {
  const { view } = context.root.builder;
  const members = unionMembers(view, union, position);
  let base: PlanNode = {};
  if (acceptsRawString(view, union)) {
    const lists = listMembers(view, members);
    if (lists.length > 0) base = { refuse: lists.map((member) => listCheck(member, context)) };
  } else {
    base = parseOf(structureKinds(view, union));
    const scalar = context.repairs.scalarText && refusesOthers ? [...scalarKinds(view, union)].sort() : [];
    if (scalar.length > 0) base = { ...base, scalar };
  }
  if (discriminator !== undefined) {
    const variants = options.flatMap((option, index) => {
      const tags = view.tags(option, discriminator);
      const variantStep = tags.length > 0 ? step.variant(tags[0]) : step.member(index);
      const node = compileNode(option, [...position, variantStep], context);
      return node ? [{ tags, node }] : [];
    });
    return withParts(base, variants.length > 0 ? { tag: discriminator, variants } : {});
  }
  const takersOf = (kind: StructureKind) =>
    members.filter((member) => structureKinds(view, member.schema).has(kind));
  const takerOf = (kind: StructureKind) => {
    const [only, ...others] = takersOf(kind);
    return only && others.length === 0 ? compileNode(only.schema, only.position, context) : undefined;
  };
  const objectTakers = takersOf('object');
  return withParts(base, {
    object: takerOf('object'),
    array: takerOf('array'),
    nullAbsent:
      context.inverse.nullAbsent && objectTakers.length > 1
        ? nonEmptyList(
            keysNoMemberTakesNullAt(
              view,
              objectTakers.map((member) => member.schema),
            ),
          )
        : undefined,
  });
}

/**
 * An object's `nullAbsent` steps: its keys that may be left out and refuse `null`, and (where it
 * refuses keys it does not declare, or its catch-all refuses `null`) every other key. At the top
 * of the arguments, the keys of the other roots (params, extension keys) are not this object's.
 */
function objectNullSteps<S>(
  view: SchemaView<S>,
  schema: S,
  node: Extract<SchemaNode<S>, { kind: 'object' }>,
  position: Position,
  context: CompileContext,
): Pick<PlanNode, 'nullAbsent' | 'nullAbsentBeyond'> {
  const nullAbsent = absentWhenNull(view, schema, node);
  const refusesBeyond = refusesNullBeyond(view, node);
  const atTop = position.slice(1).every((place) => /^[=|&]/.test(place));
  return {
    nullAbsent: nonEmptyList(nullAbsent),
    nullAbsentBeyond: refusesBeyond
      ? [...Object.keys(node.fields), ...(atTop ? context.siblingKeys : [])]
      : undefined,
  };
}

/** The keys a root schema declares at the top of the arguments (through unions and intersections). */
function topKeys<S>(view: SchemaView<S>, schema: S, seen = new Set<S>()): string[] {
  const resolved = view.resolve(schema);
  if (seen.has(resolved)) return [];
  seen.add(resolved);
  const node = view.node(resolved);
  if (node.kind === 'object') return Object.keys(node.fields);
  if (node.kind === 'union')
    return [...new Set(node.options.flatMap((option) => topKeys(view, option, seen)))];
  if (node.kind === 'intersection') return node.sides.flatMap((side) => topKeys(view, side, seen));
  return [];
}

/**
 * The member's check as data, or deferred to its own parser. A deferred position is found again
 * here exactly as the runtime will find it, so that a plan never names a place that is not there.
 */
function listCheck(member: { schema: unknown; position: Position }, context: CompileContext): ListCheck {
  const { builder, schema: rootSchema } = context.root;
  const exact = builder.listCheck(member.schema);
  if (exact) return exact;
  const found = builder.schemaAt(rootSchema, member.position.slice(1));
  if (found === undefined || builder.view.typeName(found) !== builder.view.typeName(member.schema)) {
    throw new Error(
      `[toolprep] the position ${member.position.join(' ')} does not lead back to its schema; this is a bug in toolprep`,
    );
  }
  return { defer: member.position };
}

/**
 * The repair `loneValue` at an array: whether the array would accept a one-item list, as data or
 * deferred to its own parser; none where it is reached as a union's member or an intersection's
 * side (only a value of its kind reaches it there) or takes no one-item list.
 */
function loneCheck(schema: unknown, position: Position, context: CompileContext): ListCheck | undefined {
  if (!context.repairs.loneValue || /^[|&]/.test(position.at(-1) ?? '')) return undefined;
  const check = listCheck({ schema, position }, context);
  if (!('defer' in check) && ((check.minItems ?? 0) > 1 || check.maxItems === 0)) return undefined;
  return check;
}

function parseOf(kinds: ReadonlySet<StructureKind>): PlanNode {
  return kinds.size > 0 ? { parse: [...kinds].sort() } : {};
}

/** The node with the parts that are present, or undefined when nothing at all is needed. */
function withParts(base: PlanNode, parts: Partial<Record<keyof PlanNode, unknown>>): PlanNode | undefined {
  const node: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(parts)) if (value !== undefined) node[key] = value;
  return Object.keys(node).length > 0 ? (node as PlanNode) : undefined;
}

function nonEmpty<T extends object>(record: T): T | undefined {
  return Object.keys(record).length > 0 ? record : undefined;
}

function nonEmptyList<T>(list: readonly T[]): readonly T[] | undefined {
  return list.length > 0 ? list : undefined;
}
