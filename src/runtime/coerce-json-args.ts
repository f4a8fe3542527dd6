import { libraryOf, type SchemaLibrary } from '../adapters/libraries.js';
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
import type { RepairName } from '../manifest/plan.js';
import type { InverseStep } from '../manifest/profiles.js';
import { withOwn } from '../shared/run/own-property.js';
import { accepts } from './accepts.js';
import { foldCase, sameIgnoringCase, withoutAbsentNulls } from './inverse.js';
import {
  isOneValueText,
  jsonKind,
  listAsText,
  NOT_JSON,
  parseJsonText,
  structureKind,
  tooDeep,
} from './json-text.js';
import { listCheckAccepts } from './value-check.js';

export interface CoerceOptions {
  /** Deeper nesting, in the arguments or in JSON text, is refused. Default 64. */
  maxDepth?: number;
  /** The inverse steps to run, as for a call through a profile (see `applyPlan`). None by default. */
  inverse?: readonly InverseStep[];
  /** The repairs to make beside the seeds' rule, as the config's `repairs`. Default: every one. */
  repairs?: readonly RepairName[];
}

const EVERY_REPAIR: readonly RepairName[] = ['scalarText', 'nullAbsent', 'loneValue', 'caseFold'];

type Path = readonly (string | number)[];

interface Walk extends SchemaLibrary {
  readonly maxDepth: number;
  readonly nullAbsent: boolean;
  readonly caseFold: boolean;
  readonly scalarText: boolean;
  readonly loneValue: boolean;
}

/**
 * Repairs double-serialised structure in `args` by walking the schema at run time: the reference
 * for prepared plans, and the way to coerce a tool that was never prepared. Returns the repaired
 * value (the input is never mutated); throws a `CoercionRefusal` for a list written as text, or for
 * nesting deeper than `maxDepth`.
 */
export function coerceJsonArgs(args: unknown, schema: unknown, options: CoerceOptions = {}): unknown {
  const library = libraryOf(schema);
  if (!library) throw new TypeError('[toolprep] coerceJsonArgs: the schema is of no library toolprep reads');
  const inverse = options.inverse ?? [];
  const repairs = options.repairs ?? EVERY_REPAIR;
  return walk(schema, args, [], {
    ...library,
    maxDepth: options.maxDepth ?? 64,
    nullAbsent: inverse.includes('nullAbsent') || repairs.includes('nullAbsent'),
    caseFold: inverse.includes('caseFold') || repairs.includes('caseFold'),
    scalarText: repairs.includes('scalarText'),
    loneValue: repairs.includes('loneValue'),
  });
}

/**
 * `member`: the schema is reached as a union's member or an intersection's side, where only a
 * value of its kind is walked, so no one value becomes a list there (as in the plan).
 */
function walk(schema: unknown, value: unknown, path: Path, context: Walk, member = false): unknown {
  if (path.length > context.maxDepth) throw tooDeep(path, context.maxDepth);
  const { view } = context;
  if (context.caseFold) {
    const members = foldMembers(view, schema);
    if (members) return typeof value === 'string' ? foldCase(members, value) : value;
  }
  const resolved = view.resolve(schema);
  const node = view.node(resolved);
  if (node.kind === 'union')
    return walkUnion(resolved, value, path, context, refusesOtherKinds(view, schema));
  if (!['object', 'record', 'array', 'tuple', 'intersection'].includes(node.kind))
    return context.scalarText ? parseText(value, scalarKinds(view, schema), path, context.maxDepth) : value;
  const parsed = parseText(value, structureKinds(view, resolved), path, context.maxDepth);
  if (
    node.kind === 'array' &&
    context.loneValue &&
    !member &&
    refusesOtherKinds(view, schema) &&
    !Array.isArray(parsed) &&
    parsed != null &&
    !(typeof parsed === 'string' && !isOneValueText(parsed))
  )
    return loneValue(schema, node.element, parsed, path, context);
  const child = (childSchema: unknown, childValue: unknown, key: string | number) =>
    walk(childSchema, childValue, [...path, key], context);
  if (node.kind === 'intersection') {
    const [left, right] = node.sides;
    return walk(right, walk(left, parsed, path, context, true), path, context, true);
  }
  if (Array.isArray(parsed)) {
    if (node.kind === 'array') return mapArray(parsed, (item, index) => child(node.element, item, index));
    if (node.kind === 'tuple') {
      return mapArray(parsed, (item, index) => {
        const itemSchema = index < node.items.length ? node.items[index] : node.rest;
        return itemSchema === undefined ? item : child(itemSchema, item, index);
      });
    }
    return parsed;
  }
  if (typeof parsed !== 'object' || parsed === null) return parsed;
  const fields = node.kind === 'object' ? node.fields : {};
  const rest = node.kind === 'record' ? node.values : node.kind === 'object' ? node.rest : undefined;
  let record = parsed as Record<string, unknown>;
  if (context.nullAbsent && (node.kind === 'object' || node.kind === 'record'))
    record = withoutAbsentNulls(
      record,
      node.kind === 'object' ? absentWhenNull(view, resolved, node) : undefined,
      refusesNullBeyond(view, node) ? new Set(Object.keys(fields)) : undefined,
    );
  let result = record;
  const repair = (fieldSchema: unknown, key: string) => {
    const current = record[key];
    // An absent field has nothing to repair; a number or a boolean only becomes a one-item list.
    if (current === undefined || current === null) return;
    const repaired = child(fieldSchema, current, key);
    // An inherited value is walked as the parser reads it, but only an own one is replaced.
    if (repaired !== current && Object.hasOwn(record, key)) result = withOwn(result, key, repaired);
  };
  // Declared fields in the schema's order, then the others in the arguments' order, as the plan.
  for (const [key, fieldSchema] of Object.entries(fields)) repair(fieldSchema, key);
  if (rest !== undefined)
    for (const key of Object.keys(record)) if (!Object.hasOwn(fields, key)) repair(rest, key);
  return result;
}

/**
 * Where structure (or, with `scalarText`, a scalar) is wanted, a string that is JSON of a wanted
 * kind becomes that JSON; a number only when finite.
 */
function parseText(value: unknown, kinds: ReadonlySet<string>, path: Path, maxDepth: number): unknown {
  if (typeof value !== 'string' || kinds.size === 0) return value;
  const parsed = parseJsonText(value, path, maxDepth);
  if (parsed === NOT_JSON) return value;
  const kind = jsonKind(parsed);
  return kinds.has(kind) && (kind !== 'number' || Number.isFinite(parsed)) ? parsed : value;
}

/** The repair `loneValue`: the value as a one-item list, its item repaired, when the array accepts it. */
function loneValue(array: unknown, element: unknown, value: unknown, path: Path, context: Walk): unknown {
  const list = [walk(element, value, [...path, 0], context)];
  const { runtime, documentListCheck } = context;
  const accepted = documentListCheck
    ? listCheckAccepts(documentListCheck(array), list)
    : accepts(runtime, array, list);
  return accepted ? list : value;
}

function walkUnion(
  union: unknown,
  value: unknown,
  path: Path,
  context: Walk,
  refusesOthers: boolean,
): unknown {
  const { view } = context;
  const members = unionMembers(view, union);
  if (acceptsRawString(view, union)) {
    if (typeof value === 'string') refuseListAsText(context, members, value, path);
  } else {
    const kinds = new Set<string>(structureKinds(view, union));
    if (context.scalarText && refusesOthers) for (const kind of scalarKinds(view, union)) kinds.add(kind);
    value = parseText(value, kinds, path, context.maxDepth);
  }
  const node = view.node(union);
  if (node.kind === 'union' && node.discriminator !== undefined) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const tag = (value as Record<string, unknown>)[node.discriminator];
    const discriminator = node.discriminator;
    let variant = node.options.find((option) => view.tags(option, discriminator).includes(tag));
    if (variant === undefined && context.caseFold && typeof tag === 'string') {
      const matching = node.options.filter((option) =>
        view
          .tags(option, discriminator)
          .some((other) => typeof other === 'string' && sameIgnoringCase(other, tag)),
      );
      if (matching.length === 1) variant = matching[0];
    }
    return variant === undefined ? value : walk(variant, value, path, context);
  }
  const kind = structureKind(value);
  if (!kind) return value;
  const takers = members.filter((member) => structureKinds(view, member.schema).has(kind));
  if (takers.length === 1) return walk((takers[0] as { schema: unknown }).schema, value, path, context, true);
  if (kind === 'object' && context.nullAbsent && takers.length > 1) {
    const keys = keysNoMemberTakesNullAt(
      view,
      takers.map((member) => member.schema),
    );
    return withoutAbsentNulls(value as Record<string, unknown>, keys, undefined);
  }
  return value;
}

/** A string that parses as an array some array member of the union accepts is refused. */
function refuseListAsText(
  { view, runtime, documentListCheck, maxDepth }: Walk,
  members: readonly { schema: unknown }[],
  text: string,
  path: Path,
): void {
  const lists = listMembers(view, members);
  if (lists.length === 0 || !/^\s*\[/.test(text)) return;
  const parsed = parseJsonText(text, path, maxDepth);
  if (!Array.isArray(parsed)) return;
  // As the plan decides it: the member's own parser, or what its document says.
  const acceptsList = (member: unknown) =>
    documentListCheck
      ? listCheckAccepts(documentListCheck(member), parsed)
      : accepts(runtime, member, parsed);
  if (lists.some((member) => acceptsList(member.schema))) throw listAsText(path);
}

function mapArray(
  array: readonly unknown[],
  map: (item: unknown, index: number) => unknown,
): readonly unknown[] {
  let result: unknown[] | undefined;
  for (let index = 0; index < array.length; index++) {
    const item = array[index];
    const mapped = map(item, index);
    if (mapped !== item) {
      result ??= array.slice();
      result[index] = mapped;
    }
  }
  return result ?? array;
}
