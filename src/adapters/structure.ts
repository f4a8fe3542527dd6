import { type Position, positionStep } from '../manifest/plan.js';
import type { SchemaView } from './types.js';

/**
 * The questions the coercion rule asks of a schema, answered once for every library from its view:
 * the plan compiler and the run-time reference both ask them here, so they cannot drift apart.
 */

export type StructureKind = 'object' | 'array';

/** True when the schema takes some raw string: the member rule for unions. */
export function acceptsRawString<S>(view: SchemaView<S>, schema: S, seen = new Set<S>()): boolean {
  const resolved = view.resolve(schema);
  if (seen.has(resolved)) return false;
  seen.add(resolved);
  const node = view.node(resolved);
  switch (node.kind) {
    case 'text':
    case 'any':
      return true;
    case 'union':
      return node.options.some((option) => acceptsRawString(view, option, seen));
    case 'intersection':
      return node.sides.every((side) => acceptsRawString(view, side, seen));
    default:
      return false;
  }
}

/** The structures (object, array) a schema takes, looking through unions and intersections. */
export function structureKinds<S>(view: SchemaView<S>, schema: S, seen = new Set<S>()): Set<StructureKind> {
  const resolved = view.resolve(schema);
  const kinds = new Set<StructureKind>();
  if (seen.has(resolved)) return kinds;
  seen.add(resolved);
  const node = view.node(resolved);
  switch (node.kind) {
    case 'object':
    case 'record':
      kinds.add('object');
      break;
    case 'array':
    case 'tuple':
      kinds.add('array');
      break;
    case 'any':
      kinds.add('object');
      kinds.add('array');
      break;
    case 'union':
    case 'intersection':
      for (const member of node.kind === 'union' ? node.options : node.sides)
        for (const kind of structureKinds(view, member, seen)) kinds.add(kind);
  }
  return kinds;
}

/** The union's members, nested plain unions spread, each with its position. */
export function unionMembers<S>(
  view: SchemaView<S>,
  union: S,
  position: Position = [],
): { schema: S; position: Position }[] {
  const node = view.node(view.resolve(union));
  if (node.kind !== 'union') return [];
  return node.options.flatMap((option, index) => {
    const optionPosition = [...position, positionStep.member(index)];
    const inner = view.node(view.resolve(option));
    return inner.kind === 'union' && inner.discriminator === undefined
      ? unionMembers(view, option, optionPosition)
      : [{ schema: option, position: optionPosition }];
  });
}

/** The members that take a list: the ones a list written as text is checked against. */
export function listMembers<S, M extends { schema: S }>(view: SchemaView<S>, members: readonly M[]): M[] {
  return members.filter((member) => {
    const { kind } = view.node(view.resolve(member.schema));
    return kind === 'array' || kind === 'tuple';
  });
}
