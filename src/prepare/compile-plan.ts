import {
  acceptsRawString,
  listMembers,
  type StructureKind,
  structureKinds,
  unionMembers,
} from '../adapters/structure.js';
import type { SchemaBuilder } from '../adapters/types.js';
import type { ListCheck, Plan, PlanNode, Position } from '../manifest/plan.js';
import { positionStep as step } from '../manifest/plan.js';

/** One schema a tool's arguments pass through, where it sits in the contract, and its library. */
export interface PlanRoot {
  readonly key: 'extend' | 'params' | 'input';
  readonly schema: unknown;
  readonly builder: SchemaBuilder;
}

interface CompileContext {
  readonly root: PlanRoot;
  /** Schemas being compiled, with the definition name given once one refers back to itself. */
  readonly inProgress: Map<unknown, { name?: string }>;
  readonly defs: Record<string, PlanNode>;
  readonly names: { next: number };
}

/**
 * Compiles the coercion plan for the schemas a tool's arguments pass through, in the order the
 * runner applies them (extension keys, params, input). Positions that need nothing are absent;
 * recursive schemas become shared definitions. A check that cannot be compiled to data is deferred
 * to the member's own parser, found at run time by its position in the arguments.
 */
export function compilePlan(roots: readonly PlanRoot[]): Plan {
  const defs: Record<string, PlanNode> = {};
  const names = { next: 0 };
  const nodes = roots.flatMap(
    (root) => compileNode(root.schema, [root.key], { root, inProgress: new Map(), defs, names }) ?? [],
  );
  const root: PlanNode =
    nodes.length === 1
      ? (nodes[0] as PlanNode)
      : { parse: ['object'], ...(nodes.length > 0 ? { all: nodes } : {}) };
  return Object.keys(defs).length > 0 ? { root, defs } : { root };
}

function compileNode(schema: unknown, position: Position, context: CompileContext): PlanNode | undefined {
  const resolved = context.root.builder.view.resolve(schema);
  const entry = context.inProgress.get(resolved);
  if (entry) {
    entry.name ??= `def${context.names.next++}`;
    return { ref: entry.name };
  }
  const self: { name?: string } = {};
  context.inProgress.set(resolved, self);
  const node = compileResolved(resolved, position, context);
  context.inProgress.delete(resolved);
  if (self.name === undefined) return node;
  context.defs[self.name] = node ?? {};
  return { ref: self.name };
}

function compileResolved(schema: unknown, position: Position, context: CompileContext): PlanNode | undefined {
  const { view } = context.root.builder;
  const node = view.node(schema);
  const child = (childSchema: unknown, childStep: string) =>
    childSchema === undefined ? undefined : compileNode(childSchema, [...position, childStep], context);
  switch (node.kind) {
    case 'object': {
      const fields: Record<string, PlanNode> = {};
      for (const [key, field] of Object.entries(node.fields)) {
        const compiled = child(field, step.field(key));
        if (compiled) fields[key] = compiled;
      }
      return withParts(
        { parse: ['object'] },
        { fields: nonEmpty(fields), rest: child(node.rest, step.values) },
      );
    }
    case 'record':
      return withParts({ parse: ['object'] }, { rest: child(node.values, step.values) });
    case 'array':
      return withParts({ parse: ['array'] }, { items: child(node.element, step.items) });
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
      return compileUnion(schema, node.options, node.discriminator, position, context);
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
): PlanNode | undefined {
  const { view } = context.root.builder;
  const members = unionMembers(view, union, position);
  let base: PlanNode = {};
  if (acceptsRawString(view, union)) {
    const lists = listMembers(view, members);
    if (lists.length > 0) base = { refuse: lists.map((member) => listCheck(member, context)) };
  } else {
    base = parseOf(structureKinds(view, union));
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
  const takerOf = (kind: StructureKind) => {
    const takers = members.filter((member) => structureKinds(view, member.schema).has(kind));
    const [only] = takers;
    return takers.length === 1 && only ? compileNode(only.schema, only.position, context) : undefined;
  };
  return withParts(base, { object: takerOf('object'), array: takerOf('array') });
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
