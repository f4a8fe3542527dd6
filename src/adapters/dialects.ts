import type { JsonSchema } from '../manifest/prepared-tool.js';
import {
  SINGLE_SUBSCHEMA_KEYS,
  SUBSCHEMA_LIST_KEYS,
  SUBSCHEMA_MAP_KEYS,
} from '../shared/json-schema-keywords.js';

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * A draft-07 document as JSON Schema 2020-12, for libraries whose converter writes draft-07 only:
 * `definitions` become `$defs` (and every reference follows), a tuple's `items` list becomes
 * `prefixItems` with `additionalItems` as its `items`, and `$schema` says 2020-12.
 */
export function draft07To202012(document: JsonSchema): JsonSchema {
  const converted = convert(document) as Record<string, unknown>;
  return { $schema: DRAFT_2020_12, ...withoutSchemaKey(converted) };
}

function withoutSchemaKey({ $schema: _schema, ...rest }: Record<string, unknown>): Record<string, unknown> {
  return rest;
}

function convert(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const schema = value as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(schema)) {
    if (key === 'definitions') result.$defs = convertMap(child);
    else if (key === '$ref' && typeof child === 'string')
      result.$ref = child.replace(/^#\/definitions\//, '#/$defs/');
    else if (key === 'items' && Array.isArray(child)) result.prefixItems = child.map(convert);
    else if (key === 'additionalItems' && Array.isArray(schema.items)) result.items = convert(child);
    else if (SINGLE_SUBSCHEMA_KEYS.includes(key)) result[key] = convert(child);
    else if (SUBSCHEMA_LIST_KEYS.includes(key) && Array.isArray(child)) result[key] = child.map(convert);
    else if (SUBSCHEMA_MAP_KEYS.includes(key)) result[key] = convertMap(child);
    else result[key] = child;
  }
  return result;
}

function convertMap(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, convert(child)]));
}
