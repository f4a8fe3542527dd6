import type { Dialect } from '../adapters/types.js';
import {
  SINGLE_SUBSCHEMA_KEYS,
  SUBSCHEMA_LIST_KEYS,
  SUBSCHEMA_MAP_KEYS,
} from '../shared/json-schema/keywords.js';
import type { JsonSchema } from '../shared/json-schema/schema.js';
import { isRecord } from '../shared/run/is-record.js';
import { setOwn } from '../shared/run/own-property.js';

export type { Dialect };

export const DEFS_KEY: Record<Dialect, '$defs' | 'definitions'> = {
  'draft-2020-12': '$defs',
  'draft-07': 'definitions',
};

/** JSON kinds in the order a merged `type` lists them. */
const KIND_ORDER = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;
export type JsonKind = (typeof KIND_ORDER)[number];

export const isSchemaObject = isRecord as (value: unknown) => value is JsonSchema;

/**
 * Returns a copy of `schema` with every direct subschema replaced by `map(subschema, segments)`,
 * where `segments` is the child's place under its parent (`["items"]`, `["anyOf", 1]`,
 * `["properties", "name"]`); the input is never mutated, and a node whose children all come back
 * unchanged is returned as it is.
 */
export function mapSubschemas(
  schema: JsonSchema,
  map: (child: JsonSchema, segments: readonly (string | number)[]) => JsonSchema,
): JsonSchema {
  let copy: Record<string, unknown> | undefined;
  const set = (key: string, value: unknown): void => {
    copy ??= { ...schema };
    copy[key] = value;
  };
  for (const key of SINGLE_SUBSCHEMA_KEYS) {
    const child = schema[key];
    if (isSchemaObject(child)) {
      const mapped = map(child, [key]);
      if (mapped !== child) set(key, mapped);
    }
  }
  for (const key of SUBSCHEMA_LIST_KEYS) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    const mapped = list.map((child: unknown, index) =>
      isSchemaObject(child) ? map(child, [key, index]) : child,
    );
    if (mapped.some((child, index) => child !== list[index])) set(key, mapped);
  }
  for (const key of SUBSCHEMA_MAP_KEYS) {
    const entries = schema[key];
    if (!isSchemaObject(entries)) continue;
    let changed = false;
    const mapped: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(entries)) {
      // A property or a definition is a user's name: `__proto__` must stay an own key.
      const value = isSchemaObject(child) ? map(child, [key, name]) : child;
      setOwn(mapped, name, value);
      changed ||= value !== child;
    }
    if (changed) set(key, mapped);
  }
  return copy ?? schema;
}

/** Rewrites every `$ref` in the document through `rewrite`. */
export function rewriteRefs(schema: JsonSchema, rewrite: (ref: string) => string): JsonSchema {
  const mapped = mapSubschemas(schema, (child) => rewriteRefs(child, rewrite));
  const ref = mapped.$ref;
  if (typeof ref !== 'string' || rewrite(ref) === ref) return mapped;
  return { ...mapped, $ref: rewrite(ref) };
}

export function containsRef(schema: JsonSchema, ref: string): boolean {
  let found = false;
  rewriteRefs(schema, (seen) => {
    found ||= seen === ref;
    return seen;
  });
  return found;
}

function kindOfValue(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as 'string' | 'boolean' | 'object';
}

/**
 * The JSON kinds a schema provably allows, or undefined when it cannot be told without resolving
 * a reference or when it allows anything.
 */
export function provableKinds(schema: JsonSchema): Set<JsonKind> | undefined {
  const { type } = schema;
  if (typeof type === 'string') return new Set([type as JsonKind]);
  if (Array.isArray(type)) return new Set(type as JsonKind[]);
  if ('const' in schema) return new Set([kindOfValue(schema.const)]);
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map(kindOfValue));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const kinds = new Set<JsonKind>();
    for (const branch of branches) {
      const branchKinds = isSchemaObject(branch) ? provableKinds(branch) : undefined;
      if (!branchKinds) return undefined;
      for (const kind of branchKinds) kinds.add(kind);
    }
    return kinds;
  }
  return undefined;
}

/** A schema allowing exactly these kinds: `type` as a string or an ordered list. */
export function schemaOfKinds(kinds: Set<JsonKind>): JsonSchema {
  const ordered = KIND_ORDER.filter(
    (kind) => kinds.has(kind) && !(kind === 'integer' && kinds.has('number')),
  );
  const schema: Record<string, unknown> = { type: ordered.length === 1 ? ordered[0] : ordered };
  if (kinds.has('array')) schema.items = {};
  if (kinds.has('object')) schema.additionalProperties = {};
  return schema;
}
