import type { $ZodType } from 'zod/v4/core';
import {
  acceptsRawString,
  defOf,
  discriminatorValues,
  listMembers,
  resolveSchema,
  type StructureKind,
  structureKinds,
  unionMembers,
} from '../contract/zod-def.js';
import { standardAccepts } from './contract-path.js';
import { listAsText, parseJsonText, structureKind, tooDeep, withOwn } from './json-text.js';

export interface CoerceOptions {
  /** Deeper nesting, in the arguments or in JSON text, is refused. Default 64. */
  maxDepth?: number;
}

type Path = readonly (string | number)[];

/**
 * Repairs double-serialised structure in `args` by walking the Zod schema at run time: the
 * reference for prepared plans, and the way to coerce a tool that was never prepared. Returns the
 * repaired value (the input is never mutated); throws a `CoercionRefusal` for a list written as
 * text, or for nesting deeper than `maxDepth`.
 */
export function coerceJsonArgs(args: unknown, schema: $ZodType, options: CoerceOptions = {}): unknown {
  return walk(schema, args, [], options.maxDepth ?? 64);
}

function walk(schema: $ZodType, value: unknown, path: Path, maxDepth: number): unknown {
  if (path.length > maxDepth) throw tooDeep(path, maxDepth);
  const resolved = resolveSchema(schema);
  const def = defOf(resolved);
  switch (def.type) {
    case 'object':
    case 'record':
    case 'array':
    case 'tuple':
    case 'intersection':
      return walkStructure(
        resolved,
        parseText(value, structureKinds(resolved), path, maxDepth),
        path,
        maxDepth,
      );
    case 'union':
      return walkUnion(resolved, value, path, maxDepth);
    default:
      return value;
  }
}

/** Where structure is wanted, a string that is JSON of a wanted kind becomes that JSON. */
function parseText(value: unknown, kinds: ReadonlySet<StructureKind>, path: Path, maxDepth: number): unknown {
  if (typeof value !== 'string' || kinds.size === 0) return value;
  const parsed = parseJsonText(value, path, maxDepth);
  const kind = structureKind(parsed);
  return parsed !== parseJsonText.NOT_JSON && kind && kinds.has(kind) ? parsed : value;
}

function walkStructure(schema: $ZodType, value: unknown, path: Path, maxDepth: number): unknown {
  const def = defOf(schema);
  const child = (childSchema: $ZodType, childValue: unknown, key: string | number) =>
    walk(childSchema, childValue, [...path, key], maxDepth);
  if (def.type === 'intersection') {
    return walk(def.right as $ZodType, walk(def.left as $ZodType, value, path, maxDepth), path, maxDepth);
  }
  if (Array.isArray(value)) {
    if (def.type === 'array')
      return mapArray(value, (item, index) => child(def.element as $ZodType, item, index));
    if (def.type === 'tuple') {
      const items = def.items ?? [];
      return mapArray(value, (item, index) => {
        const itemSchema = index < items.length ? items[index] : def.rest;
        return itemSchema ? child(itemSchema, item, index) : item;
      });
    }
    return value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const shape = def.type === 'object' ? (def.shape ?? {}) : {};
  const rest = def.type === 'record' ? def.valueType : def.catchall;
  let result = value as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    const fieldSchema = Object.hasOwn(shape, key) ? shape[key] : rest;
    if (!fieldSchema) continue;
    const current = (value as Record<string, unknown>)[key];
    const repaired = child(fieldSchema, current, key);
    if (repaired !== current) result = withOwn(result, key, repaired);
  }
  return result;
}

function walkUnion(union: $ZodType, value: unknown, path: Path, maxDepth: number): unknown {
  const members = unionMembers(union);
  if (acceptsRawString(union)) {
    if (typeof value === 'string') refuseListAsText(members, value, path, maxDepth);
  } else {
    value = parseText(value, structureKinds(union), path, maxDepth);
  }
  const { discriminator } = defOf(union);
  if (discriminator !== undefined) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const tag = (value as Record<string, unknown>)[discriminator];
    const variant = (defOf(union).options ?? []).find((option) =>
      discriminatorValues(option, discriminator).includes(tag),
    );
    return variant ? walk(variant, value, path, maxDepth) : value;
  }
  const kind = structureKind(value);
  if (!kind) return value;
  const takers = members.filter((member) => structureKinds(member.schema).has(kind));
  return takers.length === 1
    ? walk((takers[0] as { schema: $ZodType }).schema, value, path, maxDepth)
    : value;
}

/** A string that parses as an array some array member of the union accepts is refused. */
function refuseListAsText(
  members: readonly { schema: $ZodType }[],
  text: string,
  path: Path,
  maxDepth: number,
): void {
  const lists = listMembers(members);
  if (lists.length === 0 || !/^\s*\[/.test(text)) return;
  const parsed = parseJsonText(text, path, maxDepth);
  if (!Array.isArray(parsed)) return;
  if (lists.some((member) => standardAccepts(member.schema, parsed))) throw listAsText(path);
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
