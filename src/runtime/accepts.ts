import type { RuntimeAdapter } from '../manifest/tool-set.js';

/**
 * Whether a schema's own parser takes the value, through its library's run-time adapter. Decided
 * synchronously: an async parser cannot say, and the string then stays a plain value.
 */
export function accepts(adapter: RuntimeAdapter, schema: unknown, value: unknown): boolean {
  const result = adapter.validate(schema, value);
  return !(result instanceof Promise) && result.issues === undefined;
}
