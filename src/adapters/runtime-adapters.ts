import type { RuntimeAdapter } from './types.js';
import { zod4Runtime } from './zod4/runtime.js';

/**
 * The schema libraries the runtime reads, one small adapter each. A new library is a folder beside
 * `zod4/` and one line here (and in views.ts and builders.ts).
 */
const ADAPTERS: readonly RuntimeAdapter[] = [zod4Runtime];

/** The run-time adapter of the library a schema belongs to, or undefined. */
export function runtimeAdapterOf(schema: unknown): RuntimeAdapter | undefined {
  return ADAPTERS.find((adapter) => adapter.owns(schema));
}
