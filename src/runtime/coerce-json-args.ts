import { libraryOf, type SchemaLibrary } from '../adapters/libraries.js';
import {
  absentWhenNull,
  acceptsRawString,
  foldMembers,
  keysNoMemberTakesNullAt,
  listMembers,
  refusesNullBeyond,
  type StructureKind,
  structureKinds,
  unionMembers,
} from '../adapters/structure.js';
import type { InverseStep } from '../manifest/profiles.js';
import { withOwn } from '../shared/run/own-property.js';
import { accepts } from './accepts.js';
import { foldCase, sameIgnoringCase, withoutAbsentNulls } from './inverse.js';
import { listAsText, NOT_JSON, parseJsonText, structureKind, tooDeep } from './json-text.js';
import { listCheckAccepts } from './value-check.js';

export interface CoerceOptions {
  /** Deeper nesting, in the arguments or in JSON text, is refused. Default 64. */
  maxDepth?: number;
  /** The inverse steps to run, as for a call through a profile (see `applyPlan`). None by default. */
  inverse?: readonly InverseStep[];
}

type Path = readonly (string | number)[];

interface Walk extends SchemaLibrary {
  readonly maxDepth: number;
  readonly nullAbsent: boolean;
  readonly caseFold: boolean;
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
  return walk(schema, args, [], {
    ...library,
    maxDepth: options.maxDepth ?? 64,
    nullAbsent: inverse.includes('nullAbsent'),
    caseFold: inverse.includes('caseFold'),
  });
}

function walk(schema: unknown, value: unknown, path: Path, context: Walk): unknown {
  if (path.length > context.maxDepth) throw tooDeep(path, context.maxDepth);
  const { view } = context;
  if (context.caseFold) {
    const members = foldMembers(view, schema);
    if (members) return typeof value === 'string' ? foldCase(members, value) : value;
  }
  const resolved = view.resolve(schema);
  const node = view.node(resolved);
  if (node.kind === 'union') return walkUnion(resolved, value, path, context);
  if (!['object', 'record', 'array', 'tuple', 'intersection'].includes(node.kind)) return value;
  const parsed = parseText(value, structureKinds(view, resolved), path, context.maxDepth);
  const child = (childSchema: unknown, childValue: unknown, key: string | number) =>
    walk(childSchema, childValue, [...path, key], context);
  if (node.kind === 'intersection') {
    const [left, right] = node.sides;
    return walk(right, walk(left, parsed, path, context), path, context);
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
    // Scalars are never coerced, and an absent field has nothing to repair.
    if (typeof current !== 'string' && (typeof current !== 'object' || current === null)) return;
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

/** Where structure is wanted, a string that is JSON of a wanted kind becomes that JSON. */
function parseText(value: unknown, kinds: ReadonlySet<StructureKind>, path: Path, maxDepth: number): unknown {
  if (typeof value !== 'string' || kinds.size === 0) return value;
  const parsed = parseJsonText(value, path, maxDepth);
  const kind = structureKind(parsed);
  return parsed !== NOT_JSON && kind && kinds.has(kind) ? parsed : value;
}

function walkUnion(union: unknown, value: unknown, path: Path, context: Walk): unknown {
  const { view } = context;
  const members = unionMembers(view, union);
  if (acceptsRawString(view, union)) {
    if (typeof value === 'string') refuseListAsText(context, members, value, path);
  } else {
    value = parseText(value, structureKinds(view, union), path, context.maxDepth);
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
  if (takers.length === 1) return walk((takers[0] as { schema: unknown }).schema, value, path, context);
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
