import { SINGLE_SUBSCHEMA_KEYS, SUBSCHEMA_LIST_KEYS, SUBSCHEMA_MAP_KEYS } from './keywords.js';
import { isSchemaObject, type JsonSchema } from './schema.js';

/**
 * The one walker of JSON Schema documents. Every stage that visits or rebuilds subschemas goes
 * through these functions, so that which keywords hold subschemas (keywords.ts) and how a user's
 * names are rebuilt (as own keys, `__proto__` included) is decided here once.
 *
 * Subschemas come in the keyword table's order: the single ones (`items`, `additionalProperties`,
 * …), then the lists (`prefixItems`, `anyOf`, …), then the maps (`properties`, `patternProperties`,
 * `$defs`, `definitions`), each list and map in its own order. Only object subschemas are visited;
 * values that are data (`const`, `enum`, `default`, `examples`) are never walked into.
 */

/** Where a subschema is under its parent: `["items"]`, `["anyOf", 1]`, `["properties", "name"]`. */
export type SubschemaStep = readonly [keyword: string] | readonly [keyword: string, at: string | number];

/** Where a node is in a document: the steps from the root, flat: `["properties", "files", "items"]`. */
export type SchemaPath = readonly (string | number)[];

/** Where the deep walkers found a node. */
export interface SchemaPlace {
  readonly path: SchemaPath;
  /** The node it is a subschema of, as it was before any mapping; undefined at the root. */
  readonly parent?: JsonSchema;
  /** Its step under `parent`; undefined at the root. */
  readonly step?: SubschemaStep;
}

const ROOT: SchemaPlace = { path: [] };

/** Calls `visit` on each direct subschema of `schema`, with its step. */
export function forEachSubschema(
  schema: JsonSchema,
  visit: (child: JsonSchema, step: SubschemaStep) => void,
): void {
  for (const keyword of SINGLE_SUBSCHEMA_KEYS) {
    const child = schema[keyword];
    if (isSchemaObject(child)) visit(child, [keyword]);
  }
  for (const keyword of SUBSCHEMA_LIST_KEYS) {
    const list = schema[keyword];
    if (!Array.isArray(list)) continue;
    for (const [index, child] of list.entries()) if (isSchemaObject(child)) visit(child, [keyword, index]);
  }
  for (const keyword of SUBSCHEMA_MAP_KEYS) {
    const entries = schema[keyword];
    if (!isSchemaObject(entries)) continue;
    for (const [name, child] of Object.entries(entries))
      if (isSchemaObject(child)) visit(child, [keyword, name]);
  }
}

/**
 * A copy of `schema` with each direct subschema replaced by `map(child, step)`. The input is never
 * mutated; keys keep their order; a map's names (a property, a definition) stay own keys, whatever
 * they are; a node whose children all come back unchanged is returned as it is.
 */
export function mapSubschemas(
  schema: JsonSchema,
  map: (child: JsonSchema, step: SubschemaStep) => JsonSchema,
): JsonSchema {
  let copy: Record<string, unknown> | undefined;
  // Only keywords are set here, never a user's name: plain assignment is safe.
  const set = (keyword: string, value: unknown): void => {
    copy ??= { ...schema };
    copy[keyword] = value;
  };
  for (const keyword of SINGLE_SUBSCHEMA_KEYS) {
    const child = schema[keyword];
    if (isSchemaObject(child)) {
      const mapped = map(child, [keyword]);
      if (mapped !== child) set(keyword, mapped);
    }
  }
  for (const keyword of SUBSCHEMA_LIST_KEYS) {
    const list = schema[keyword];
    if (!Array.isArray(list)) continue;
    const mapped = list.map((child: unknown, index) =>
      isSchemaObject(child) ? map(child, [keyword, index]) : child,
    );
    if (mapped.some((child, index) => child !== list[index])) set(keyword, mapped);
  }
  for (const keyword of SUBSCHEMA_MAP_KEYS) {
    const entries = schema[keyword];
    if (!isSchemaObject(entries)) continue;
    let changed = false;
    // `Object.fromEntries` defines each name as an own key: a `__proto__` stays a property.
    const mapped = Object.fromEntries(
      Object.entries(entries).map(([name, child]) => {
        const value = isSchemaObject(child) ? map(child, [keyword, name]) : child;
        changed ||= value !== child;
        return [name, value];
      }),
    );
    if (changed) set(keyword, mapped);
  }
  return copy ?? schema;
}

/**
 * Calls `visit` on every object subschema of a document, the root included, parents first, with
 * its place. When `visit` returns `false`, the node's own subschemas are not visited.
 */
export function walkSchema(
  schema: JsonSchema,
  visit: (node: JsonSchema, place: SchemaPlace) => boolean | undefined,
): void {
  const walk = (node: JsonSchema, place: SchemaPlace): void => {
    if (visit(node, place) === false) return;
    forEachSubschema(node, (child, step) =>
      walk(child, { path: [...place.path, ...step], parent: node, step }),
    );
  };
  walk(schema, ROOT);
}

/**
 * Rebuilds a document children first: each object subschema, the root included, is replaced by
 * `map(node, place)`, where `node`'s own subschemas are already mapped. As `mapSubschemas`, it
 * never mutates, keeps keys and their order, and returns unchanged nodes as they are.
 */
export function mapSchema(
  schema: JsonSchema,
  map: (node: JsonSchema, place: SchemaPlace) => JsonSchema,
): JsonSchema {
  const rebuild = (node: JsonSchema, place: SchemaPlace): JsonSchema =>
    map(
      mapSubschemas(node, (child, step) =>
        rebuild(child, { path: [...place.path, ...step], parent: node, step }),
      ),
      place,
    );
  return rebuild(schema, ROOT);
}
