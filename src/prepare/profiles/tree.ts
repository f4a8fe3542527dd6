import { takesNull, unionMembers } from '../../shared/json-schema/kinds.js';
import { propertiesOf, requiredKeys } from '../../shared/json-schema/records.js';
import { isSchemaObject, type JsonSchema } from '../../shared/json-schema/schema.js';
import { mapSchema, type SchemaPath, type SchemaPlace, walkSchema } from '../../shared/json-schema/walk.js';
import { canonicalJson } from '../../shared/run/canonical-text.js';
import { setOwn } from '../../shared/run/own-property.js';
import { withSentences } from './sentences.js';

/** Where a node is in a document: `["properties", "files", "items"]`. */
export type DocumentPath = SchemaPath;

/** Where a profile meets a node: the toolkit's place, and whether its object may leave it out. */
export interface Place {
  readonly path: DocumentPath;
  /** The node is the value of a property its object does not require. */
  readonly optional: boolean;
}

function profilePlace({ path, parent, step }: SchemaPlace): Place {
  const optional =
    parent !== undefined && step?.[0] === 'properties' && !requiredKeys(parent).includes(String(step[1]));
  return { path, optional };
}

/** Maps every node of a document, children first, each with its place (the input is not mutated). */
export function mapTree(
  schema: JsonSchema,
  visit: (node: JsonSchema, place: Place) => JsonSchema,
): JsonSchema {
  return mapSchema(schema, (node, place) => visit(node, profilePlace(place)));
}

/** Calls `visit` on every node of a document, parents first, with its place. */
export function forEachNode(schema: JsonSchema, visit: (node: JsonSchema, place: Place) => void): void {
  walkSchema(schema, (node, place) => {
    visit(node, profilePlace(place));
  });
}

/** Keywords that only describe: kept on the outside when a node is wrapped. */
const ANNOTATIONS = ['title', 'description', 'default', 'examples'];

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
function kindText(node: unknown): string {
  if (!isSchemaObject(node)) return 'anything';
  if (typeof node.type === 'string') return node.type;
  if (Array.isArray(node.type)) return node.type.join(' or ');
  if ('const' in node) return JSON.stringify(node.const);
  if (Array.isArray(node.enum)) return node.enum.map((value) => JSON.stringify(value)).join(' or ');
  const members = unionMembers(node);
  return members ? members.map(kindText).join(' or ') : 'anything';
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
function oneOfDistinct(schemas: readonly JsonSchema[]): JsonSchema {
  const distinct = [...new Map(schemas.map((schema) => [canonicalJson(schema), schema])).values()];
  if (distinct.length === 0) return {};
  return distinct.length === 1 ? (distinct[0] as JsonSchema) : { anyOf: distinct };
}

/** The keys a record is limited to (`z.record(z.enum([...]), …)`), or undefined for free keys. */
function recordKeys(node: JsonSchema): string[] | undefined {
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
    Object.keys(propertiesOf(node)).length === 0
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
    for (const [key, schema] of Object.entries(propertiesOf(part))) {
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
