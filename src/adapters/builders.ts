import { standardBuilder } from './standard/build.js';
import type { SchemaBuilder } from './types.js';
import { zod3Builder } from './zod3/build.js';
import { zod4Builder } from './zod4/build.js';

/**
 * The schema libraries toolprep prepares at build time, one builder each. A new library is a folder
 * beside `zod4/` and one line here (and one in libraries.ts, and an export in package.json).
 */
const BUILDERS: readonly SchemaBuilder[] = [
  zod4Builder as SchemaBuilder,
  zod3Builder as SchemaBuilder,
  // Last: any Standard JSON Schema library, Zod aside.
  standardBuilder,
];

/** The builder of the library a schema belongs to, or undefined when toolprep cannot read it. */
export function builderOf(schema: unknown): SchemaBuilder | undefined {
  return BUILDERS.find((builder) => builder.view.owns(schema));
}

/** The libraries toolprep reads, for messages: `zod 4, zod 3 or a Standard JSON Schema library`. */
const SUPPORTED_LIBRARIES = BUILDERS.map((builder) => builder.view.library)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

/**
 * What to do about a schema no builder owns. A Standard Schema without Standard JSON Schema is the
 * usual case: its library validates but has no converter attached, and toolprep cannot show it.
 */
export function unreadableSchemaHint(schema: unknown): string {
  const vendor = (schema as { '~standard'?: { vendor?: unknown } } | null)?.['~standard']?.vendor;
  if (typeof vendor !== 'string')
    return `write it with ${SUPPORTED_LIBRARIES}; see docs/guide/schema-libraries.md`;
  const attach =
    vendor === 'valibot'
      ? 'wrap it with toStandardJsonSchema() from @valibot/to-json-schema'
      : `give it ${vendor}'s Standard JSON Schema converter`;
  return `it is a ${vendor} Standard Schema without Standard JSON Schema: ${attach}; see docs/guide/schema-libraries.md`;
}

/** The npm packages whose versions change what the builders make. */
export const BUILDER_PACKAGES = [...new Set(BUILDERS.flatMap((builder) => builder.packages))].sort();
