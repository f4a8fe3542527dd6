import type { SchemaBuilder } from './types.js';
import { zod4Builder } from './zod4/build.js';

/**
 * The schema libraries toolprep prepares at build time, one builder each. A new library is a folder
 * beside `zod4/` and one line here (and one in views.ts).
 */
const BUILDERS: readonly SchemaBuilder[] = [zod4Builder as SchemaBuilder];

/** The builder of the library a schema belongs to, or undefined when toolprep cannot read it. */
export function builderOf(schema: unknown): SchemaBuilder | undefined {
  return BUILDERS.find((builder) => builder.view.owns(schema));
}

/** The libraries toolprep reads, for messages: `zod 4`. */
export const SUPPORTED_LIBRARIES = BUILDERS.map((builder) => builder.view.library).join(', ');

/** What a schema toolprep reads is called in messages: `Zod`, or `Zod or Valibot`. */
export const SCHEMA_NAMES = [...new Set(BUILDERS.map((builder) => builder.schemaName))].join(' or ');

/** The npm packages whose versions change what the builders make. */
export const BUILDER_PACKAGES = [...new Set(BUILDERS.flatMap((builder) => builder.packages))].sort();
