/** A JSON Schema document as plain data. */
export type JsonSchema = { readonly [key: string]: unknown };
