import { isSchemaObject, type JsonSchema } from './schema.js';

/**
 * What values a schema admits, as far as its own keywords tell without resolving a reference: its
 * `type` list, its union members, the JSON kinds it provably allows, whether it takes `null`.
 */

/** JSON kinds in the order a merged `type` lists them. */
const KIND_ORDER = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;
export type JsonKind = (typeof KIND_ORDER)[number];

/** The kind of a JSON value: `integer` for a whole number. */
export function kindOfValue(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as 'string' | 'boolean' | 'object';
}

/** The schema's `type` as a list: `["string"]`, `["integer", "null"]`, `[]` when it names none. */
export function typesOf(schema: JsonSchema): readonly unknown[] {
  const { type } = schema;
  return Array.isArray(type) ? type : typeof type === 'string' ? [type] : [];
}

/** A union's members: its `anyOf`, else its `oneOf`; undefined for a schema that is no union. */
export function unionMembers(schema: JsonSchema): readonly unknown[] | undefined {
  if (Array.isArray(schema.anyOf)) return schema.anyOf;
  return Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
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
  const members = unionMembers(schema);
  if (!members) return undefined;
  const kinds = new Set<JsonKind>();
  for (const member of members) {
    const memberKinds = isSchemaObject(member) ? provableKinds(member) : undefined;
    if (!memberKinds) return undefined;
    for (const kind of memberKinds) kinds.add(kind);
  }
  return kinds;
}

/** A schema allowing exactly these kinds: `type` as a string or an ordered list. */
export function schemaOfKinds(kinds: ReadonlySet<JsonKind>): JsonSchema {
  const ordered = KIND_ORDER.filter(
    (kind) => kinds.has(kind) && !(kind === 'integer' && kinds.has('number')),
  );
  return {
    type: ordered.length === 1 ? ordered[0] : ordered,
    ...(kinds.has('array') ? { items: {} } : {}),
    ...(kinds.has('object') ? { additionalProperties: {} } : {}),
  };
}

/** Keywords that limit what a node takes: a node with none of them takes any value. */
const LIMITING = [
  'type',
  '$ref',
  'anyOf',
  'oneOf',
  'allOf',
  'enum',
  'const',
  'not',
  'properties',
  'items',
  'prefixItems',
  'additionalProperties',
];

/** A node that takes any value: no type, no reference, no union, nothing it is limited to. */
export function isTypeless(node: JsonSchema): boolean {
  return !LIMITING.some((keyword) => keyword in node);
}

/** Whether a node plainly takes `null` (a type list with it, a union member, an enum member). */
export function takesNull(node: JsonSchema): boolean {
  if (isTypeless(node)) return true;
  if (typesOf(node).includes('null')) return true;
  if ('const' in node) return node.const === null;
  if (Array.isArray(node.enum)) return node.enum.includes(null);
  return unionMembers(node)?.some((member) => isSchemaObject(member) && takesNull(member)) ?? false;
}
