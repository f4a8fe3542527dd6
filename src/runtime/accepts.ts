import { runtimeAdapterOf } from '../adapters/runtime-adapters.js';

/**
 * Whether a schema's own parser takes the value, through its library's run-time adapter. Decided
 * synchronously: an async parser cannot say, and the string then stays a plain value.
 */
export function accepts(schema: unknown, value: unknown): boolean {
  const result = runtimeAdapterOf(schema)?.validate(schema, value);
  return result !== undefined && !(result instanceof Promise) && result.issues === undefined;
}
