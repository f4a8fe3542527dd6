import { type Position, positionStep, type ScalarKind, type StructureKind } from '../manifest/plan.js';
import { getOwn } from '../shared/run/own-property.js';
import type { SchemaNode, SchemaView } from './types.js';

/**
 * The questions the coercion rule asks of a schema, answered once for every library from its view:
 * the plan compiler and the run-time reference both ask them here, so they cannot drift apart.
 */

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

/**
 * The repair `scalarText` at a position: the scalars (booleans, finite numbers) a string here is
 * taken as the JSON text of, when the position takes them and no raw string, through unions;
 * none under a wrapper that takes anything.
 */
export function scalarKinds<S>(view: SchemaView<S>, schema: S, seen = new Set<S>()): Set<ScalarKind> {
  const own = view.scalarKinds(schema);
  if (own !== undefined) return new Set(own);
  const resolved = view.resolve(schema);
  const kinds = new Set<ScalarKind>();
  if (seen.has(resolved)) return kinds;
  seen.add(resolved);
  const node = view.node(resolved);
  if (node.kind !== 'union' || acceptsRawString(view, resolved)) return kinds;
  for (const option of node.options) for (const kind of scalarKinds(view, option, seen)) kinds.add(kind);
  return kinds;
}

/**
 * Whether a structure at a position refuses a value of another kind: not when it is reached
 * through a wrapper that takes anything (a catch gives its fallback instead), where no repair of
 * such a value may be made.
 */
export function refusesOtherKinds<S>(view: SchemaView<S>, schema: S): boolean {
  // The view answers a structure's scalar kinds with undefined (its members decide) and with none
  // at all (an empty list) when a wrapper on the way takes anything: undefined is the plain case.
  return view.scalarKinds(schema) === undefined;
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

/**
 * The inverse step `nullAbsent` at an object: its keys that may be left out and whose field
 * refuses `null`. Deleting such a `null` only ever turns a value the contract refuses into one it
 * may accept.
 */
export function absentWhenNull<S>(
  view: SchemaView<S>,
  object: S,
  node: Extract<SchemaNode<S>, { kind: 'object' }>,
): string[] {
  const optional = new Set(view.optionalKeys(object));
  // A parser may read a key that is left out through the prototype (`__proto__`, `constructor`,
  // `hasOwnProperty`, …): such a key is never left out.
  return Object.entries(node.fields)
    .filter(([key, field]) => !(key in Object.prototype) && optional.has(key) && !view.takesNull(field))
    .map(([key]) => key);
}

/** Whether an object (or a record) refuses `null` at every key it does not declare. */
export function refusesNullBeyond<S>(view: SchemaView<S>, node: SchemaNode<S>): boolean {
  if (node.kind === 'record') return !view.takesNull(node.values);
  if (node.kind !== 'object') return false;
  return node.closed === true || (node.rest !== undefined && !view.takesNull(node.rest));
}

/**
 * For a union with several object members: the keys some member declares at which no member takes
 * `null`, so that the union refuses any value with `null` there (none when a member is not a plain
 * object or record).
 */
export function keysNoMemberTakesNullAt<S>(view: SchemaView<S>, members: readonly S[]): string[] {
  const nodes = members.map((member) => view.node(view.resolve(member)));
  if (!nodes.every((node) => node.kind === 'object' || node.kind === 'record')) return [];
  const keys = new Set(nodes.flatMap((node) => (node.kind === 'object' ? Object.keys(node.fields) : [])));
  const takesNullAt = (node: SchemaNode<S>, key: string): boolean => {
    const field = node.kind === 'object' ? getOwn(node.fields, key) : undefined;
    return field !== undefined ? view.takesNull(field) : !refusesNullBeyond(view, node);
  };
  return [...keys].filter((key) => nodes.every((node) => !takesNullAt(node, key)));
}

/**
 * The inverse step `caseFold` at a position: the strings it takes when it takes no other, unless
 * two of them differ only in case (a folded string could then be either).
 */
export function foldMembers<S>(view: SchemaView<S>, schema: S): readonly string[] | undefined {
  const values = view.stringValues(schema);
  if (!values) return undefined;
  return new Set(values.map((value) => value.toLowerCase())).size === new Set(values).size
    ? values
    : undefined;
}
