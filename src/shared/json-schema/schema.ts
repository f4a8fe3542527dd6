import { isRecord } from '../run/is-record.js';

/** A JSON Schema document as plain data. */
export type JsonSchema = { readonly [key: string]: unknown };

/**
 * A subschema that is an object. `true` and `false` are subschemas too, but hold nothing to walk or
 * read: every walker here passes them by.
 */
export const isSchemaObject = isRecord as (value: unknown) => value is JsonSchema;
