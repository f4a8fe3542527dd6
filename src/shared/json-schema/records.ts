import { getOwn } from '../run/own-property.js';
import { isSchemaObject, type JsonSchema } from './schema.js';

/**
 * A schema's fields, read as own keys only: a field is a user's name, and `constructor` or
 * `__proto__` is no field of a schema that does not declare it. (To write one, `setOwn` and
 * `withOwn` in src/shared/run/own-property.ts; `Object.fromEntries` and spreads are safe too.)
 */

/** The schema's `properties`, or `{}` when it declares none. */
export function propertiesOf(schema: JsonSchema | undefined): Readonly<Record<string, unknown>> {
  const properties = schema?.properties;
  return isSchemaObject(properties) ? properties : {};
}

/** The subschema the schema declares under this name in `properties`, if it declares one. */
export function propertyOf(schema: JsonSchema | undefined, name: string): unknown {
  return getOwn(propertiesOf(schema), name);
}

/** The names the schema's `required` lists. */
export function requiredKeys(schema: JsonSchema): string[] {
  return Array.isArray(schema.required) ? (schema.required as string[]) : [];
}
