import { canonicalJson } from '../../shared/build/canonical-json.js';
import type { JsonSchema } from '../../shared/json-schema/schema.js';
import { setOwn } from '../../shared/run/own-property.js';
import { isSchemaObject, mapSubschemas } from '../json-schema.js';
import { withSentences } from './sentences.js';

/** Where a node is in a document: `["properties", "files", "items"]`. */
export type DocumentPath = readonly (string | number)[];

export interface Place {
  readonly path: DocumentPath;
  /** The node is the value of a property its object does not require. */
  readonly optional: boolean;
}

const ROOT: Place = { path: [], optional: false };

/** Maps every node of a document, children first, each with its place (the input is not mutated). */
export function mapTree(
  schema: JsonSchema,
  visit: (node: JsonSchema, place: Place) => JsonSchema,
  place: Place = ROOT,
): JsonSchema {
  const required = new Set(requiredKeys(schema));
  const mapped = mapSubschemas(schema, (child, segments) =>
    mapTree(child, visit, {
      path: [...place.path, ...segments],
      optional: segments[0] === 'properties' && !required.has(String(segments[1])),
    }),
  );
  return visit(mapped, place);
}

/** Calls `visit` on every node of a document, parents first, with its place. */
export function forEachNode(
  schema: JsonSchema,
  visit: (node: JsonSchema, place: Place) => void,
  place: Place = ROOT,
): void {
  visit(schema, place);
  const required = new Set(requiredKeys(schema));
  mapSubschemas(schema, (child, segments) => {
    forEachNode(child, visit, {
      path: [...place.path, ...segments],
      optional: segments[0] === 'properties' && !required.has(String(segments[1])),
    });
    return child;
  });
}

export function requiredKeys(node: JsonSchema): string[] {
  return Array.isArray(node.required) ? (node.required as string[]) : [];
}

/** Keywords that only describe: kept on the outside when a node is wrapped. */
const ANNOTATIONS = ['title', 'description', 'default', 'examples'];

const STRUCTURE = [
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
];

/** A node that takes any value: no type, no reference, no union, nothing it is limited to. */
export function isTypeless(node: JsonSchema): boolean {
  return !STRUCTURE.some((keyword) => keyword in node) && !('additionalProperties' in node);
}

/** Whether a node plainly takes `null` (a type list with it, a union member, an enum member). */
export function takesNull(node: JsonSchema): boolean {
  if (isTypeless(node)) return true;
  if (node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null'))) return true;
  if ('const' in node) return node.const === null;
  if (Array.isArray(node.enum)) return node.enum.includes(null);
  const branches = node.anyOf ?? node.oneOf;
  return Array.isArray(branches) && branches.some((branch) => isSchemaObject(branch) && takesNull(branch));
}

/**
 * The node made to take `null` as well: a type list gains it (and an enum its `null` member), any
 * other node becomes the `anyOf` of itself and `{ type: "null" }`, its annotations kept outside.
 */
export function withNull(node: JsonSchema): JsonSchema {
  if (takesNull(node)) return node;
  const simple = !(
    '$ref' in node ||
    'anyOf' in node ||
    'oneOf' in node ||
    'allOf' in node ||
    'const' in node
  );
  if (simple && typeof node.type === 'string' && node.type !== 'object') {
    return {
      ...node,
      type: [node.type, 'null'],
      ...(Array.isArray(node.enum) ? { enum: [...node.enum, null] } : {}),
    };
  }
  const outside = Object.fromEntries(ANNOTATIONS.filter((key) => key in node).map((key) => [key, node[key]]));
  const inside = Object.fromEntries(Object.entries(node).filter(([key]) => !ANNOTATIONS.includes(key)));
  // A union takes `null` as one more member; anything else becomes a union with it.
  if (Array.isArray(node.anyOf) && Object.keys(inside).length === 1)
    return { anyOf: [...node.anyOf, { type: 'null' }], ...outside };
  return { anyOf: [inside, { type: 'null' }], ...outside };
}

/** A short reading of a schema's kind for prose: `string`, `number or null`, `an object`. */
export function kindText(node: unknown): string {
  if (!isSchemaObject(node)) return 'anything';
  if (typeof node.type === 'string') return node.type;
  if (Array.isArray(node.type)) return node.type.join(' or ');
  if ('const' in node) return JSON.stringify(node.const);
  if (Array.isArray(node.enum)) return node.enum.map((value) => JSON.stringify(value)).join(' or ');
  const branches = node.anyOf ?? node.oneOf;
  if (Array.isArray(branches)) return branches.map(kindText).join(' or ');
  return 'anything';
}

/**
 * A tuple as a list (no provider but Gemini's JSON path takes `prefixItems`): its items' distinct
 * schemas as the item schema, its length as bounds, the order in the description.
 */
export function tupleAsList(node: JsonSchema): JsonSchema {
  const positional = node.prefixItems;
  if (!Array.isArray(positional)) return node;
  const { prefixItems: _items, items: rest, ...others } = node;
  const schemas = [...positional, ...(isSchemaObject(rest) ? [rest] : [])] as JsonSchema[];
  const closed = rest === false || rest === undefined;
  return withSentences(
    {
      ...others,
      items: oneOfDistinct(schemas),
      minItems: positional.length,
      ...(closed ? { maxItems: positional.length } : {}),
    },
    [
      `Items in order: ${positional.map(kindText).join(', ')}${closed ? '' : `, then any number of ${kindText(rest)}`}.`,
    ],
  );
}

/** One schema where all are the same, else the `anyOf` of the distinct ones (none: any value). */
export function oneOfDistinct(schemas: readonly JsonSchema[]): JsonSchema {
  const distinct = [...new Map(schemas.map((schema) => [canonicalJson(schema), schema])).values()];
  if (distinct.length === 0) return {};
  return distinct.length === 1 ? (distinct[0] as JsonSchema) : { anyOf: distinct };
}

/** The keys a record is limited to (`z.record(z.enum([...]), …)`), or undefined for free keys. */
export function recordKeys(node: JsonSchema): string[] | undefined {
  const names = node.propertyNames;
  if (!isSchemaObject(names)) return undefined;
  if (Array.isArray(names.enum) && names.enum.every((key) => typeof key === 'string'))
    return names.enum as string[];
  if (typeof names.const === 'string') return [names.const];
  return undefined;
}

/** An object whose keys are free: a record (or a catch-all) with no declared properties. */
export function isFreeRecord(node: JsonSchema): boolean {
  return (
    node.type === 'object' &&
    isSchemaObject(node.additionalProperties) &&
    recordKeys(node) === undefined &&
    Object.keys(isSchemaObject(node.properties) ? node.properties : {}).length === 0
  );
}

/**
 * A record with enum keys as the closed object it is: each key a property with the record's value
 * schema, required as the record requires them (`z.partialRecord`: none).
 */
export function recordAsObject(node: JsonSchema): JsonSchema {
  const keys = recordKeys(node);
  if (node.type !== 'object' || !keys || !isSchemaObject(node.additionalProperties)) return node;
  const { propertyNames: _names, additionalProperties: values, ...rest } = node;
  return {
    ...rest,
    properties: Object.fromEntries(keys.map((key) => [key, values])),
    required: requiredKeys(node).filter((key) => keys.includes(key)),
    additionalProperties: false,
  };
}

/**
 * An `allOf` of inline objects as one object (what an intersection of objects means), when no key
 * is declared differently by two of them; undefined otherwise.
 */
export function mergeAllOf(node: JsonSchema): JsonSchema | undefined {
  const { allOf, ...rest } = node;
  if (!Array.isArray(allOf)) return node;
  const parts = allOf as JsonSchema[];
  if (
    !parts.every((part) => isSchemaObject(part) && part.type === 'object' && isSchemaObject(part.properties))
  )
    return undefined;
  const properties: Record<string, unknown> = {};
  for (const part of parts)
    for (const [key, schema] of Object.entries(part.properties as JsonSchema)) {
      if (Object.hasOwn(properties, key) && canonicalJson(properties[key]) !== canonicalJson(schema))
        return undefined;
      setOwn(properties, key, schema);
    }
  const required = [...new Set(parts.flatMap(requiredKeys))];
  const closed = parts.some((part) => part.additionalProperties === false);
  return {
    ...rest,
    type: 'object',
    properties,
    required,
    ...(closed ? { additionalProperties: false } : {}),
  };
}

/** Zod's bounds for `z.int()`, which say no more than `type: "integer"`. */
export function withoutSafeIntegerBounds(node: JsonSchema): JsonSchema {
  if (node.type !== 'integer') return node;
  const { minimum, maximum, ...rest } = node;
  return {
    ...rest,
    ...(minimum === undefined || minimum === Number.MIN_SAFE_INTEGER ? {} : { minimum }),
    ...(maximum === undefined || maximum === Number.MAX_SAFE_INTEGER ? {} : { maximum }),
  };
}
