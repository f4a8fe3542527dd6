/** Runs a schema's own parser through Standard Schema, without importing its library. */
export function standardAccepts(schema: unknown, value: unknown): boolean {
  const result = (schema as StandardSchema)['~standard'].validate(value);
  // An async schema cannot decide synchronously; the string then stays a plain value.
  return !(result instanceof Promise) && result.issues === undefined;
}

interface StandardSchema {
  '~standard': { validate(value: unknown): { issues?: unknown } | Promise<unknown> };
}
