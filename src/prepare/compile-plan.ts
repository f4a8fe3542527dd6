import type { $ZodType } from 'zod/v4/core';
import {
  acceptsRawString,
  defOf,
  discriminatorValues,
  listMembers,
  resolveWithPath,
  type StructureKind,
  structureKinds,
  unionMembers,
} from '../contract/zod-def.js';
import type { Plan, PlanNode } from '../manifest/plan.js';
import { compileListCheck } from './compile-check.js';

type Path = (string | number)[];

interface CompileContext {
  /** Schemas being compiled, with the definition name given once one refers back to itself. */
  readonly inProgress: Map<$ZodType, { name?: string }>;
  readonly defs: Record<string, PlanNode>;
  names: number;
}

/**
 * Compiles the coercion plan for the schemas a tool's arguments pass through, in the order the
 * runner applies them (extension keys, params, input). Positions that need nothing are absent;
 * recursive schemas become shared definitions. `roots` name each schema's place in the contract,
 * so that a check that cannot be compiled to data can be deferred to the member's own parser.
 */
export function compilePlan(roots: readonly { key: string; schema: $ZodType }[]): Plan {
  const context: CompileContext = { inProgress: new Map(), defs: {}, names: 0 };
  const nodes = roots.flatMap(({ key, schema }) => compileNode(schema, [key], context) ?? []);
  const root: PlanNode =
    nodes.length === 1
      ? (nodes[0] as PlanNode)
      : { parse: ['object'], ...(nodes.length > 0 ? { all: nodes } : {}) };
  return Object.keys(context.defs).length > 0 ? { root, defs: context.defs } : { root };
}

function compileNode(schema: $ZodType, path: Path, context: CompileContext): PlanNode | undefined {
  const { schema: resolved, path: resolvedPath } = resolveWithPath(schema, path);
  const entry = context.inProgress.get(resolved);
  if (entry) {
    entry.name ??= `def${context.names++}`;
    return { ref: entry.name };
  }
  const self: { name?: string } = {};
  context.inProgress.set(resolved, self);
  const node = compileResolved(resolved, resolvedPath, context);
  context.inProgress.delete(resolved);
  if (self.name === undefined) return node;
  context.defs[self.name] = node ?? {};
  return { ref: self.name };
}

function compileResolved(schema: $ZodType, path: Path, context: CompileContext): PlanNode | undefined {
  const def = defOf(schema);
  const child = (childSchema: $ZodType | undefined | null, ...steps: (string | number)[]) =>
    childSchema ? compileNode(childSchema, [...path, ...steps], context) : undefined;
  switch (def.type) {
    case 'object': {
      const fields: Record<string, PlanNode> = {};
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const node = child(field, 'shape', key);
        if (node) fields[key] = node;
      }
      return withParts(
        { parse: ['object'] },
        { fields: nonEmpty(fields), rest: child(def.catchall, 'catchall') },
      );
    }
    case 'record':
      return withParts({ parse: ['object'] }, { rest: child(def.valueType, 'valueType') });
    case 'array':
      return withParts({ parse: ['array'] }, { items: child(def.element, 'element') });
    case 'tuple': {
      const tuple = (def.items ?? []).map((item, index) => child(item, 'items', index) ?? null);
      const rest = child(def.rest, 'rest');
      // `tuple` is kept whenever `items` is, so that the rest node never reaches the leading items.
      return withParts(
        { parse: ['array'] },
        { tuple: rest || tuple.some(Boolean) ? tuple : undefined, items: rest },
      );
    }
    case 'intersection': {
      const sides = [child(def.left, 'left'), child(def.right, 'right')].filter((side) => side !== undefined);
      return withParts(parseOf(structureKinds(schema)), { all: sides.length > 0 ? sides : undefined });
    }
    case 'union':
      return compileUnion(schema, path, context);
    default:
      return undefined;
  }
}

function compileUnion(union: $ZodType, path: Path, context: CompileContext): PlanNode | undefined {
  const members = unionMembers(union, path);
  let base: PlanNode = {};
  if (acceptsRawString(union)) {
    const lists = listMembers(members);
    if (lists.length > 0)
      base = { refuse: lists.map((member) => compileListCheck(member.schema, member.path)) };
  } else {
    base = parseOf(structureKinds(union));
  }
  const { discriminator, options = [] } = defOf(union);
  if (discriminator !== undefined) {
    const variants = options.flatMap((option, index) => {
      const node = compileNode(option, [...path, 'options', index], context);
      return node ? [{ tags: discriminatorValues(option, discriminator), node }] : [];
    });
    return withParts(base, variants.length > 0 ? { tag: discriminator, variants } : {});
  }
  const takerOf = (kind: StructureKind) => {
    const takers = members.filter((member) => structureKinds(member.schema).has(kind));
    const [only] = takers;
    return takers.length === 1 && only ? compileNode(only.schema, only.path, context) : undefined;
  };
  return withParts(base, { object: takerOf('object'), array: takerOf('array') });
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
