import { LIBRARY_TITLES, type LibraryName, libraryOf } from './libraries.js';
import { standardBuilder } from './standard/build.js';
import type { SchemaBuilder } from './types.js';
import { zod3Builder } from './zod3/build.js';
import { zod4Builder } from './zod4/build.js';

/**
 * The build side of each library of the registry (libraries.ts), by its name there: which library
 * owns a schema is the registry's answer, so the two never disagree.
 */
const BUILDERS: Readonly<Record<LibraryName, SchemaBuilder>> = {
  zod4: zod4Builder as SchemaBuilder,
  zod3: zod3Builder as SchemaBuilder,
  standard: standardBuilder,
};

/** The builder of the library a schema belongs to, or undefined when toolprep cannot read it. */
export function builderOf(schema: unknown): SchemaBuilder | undefined {
  const library = libraryOf(schema);
  return library && BUILDERS[library.name];
}

/** The libraries toolprep reads, for messages: `zod 4, zod 3 or a Standard JSON Schema library`. */
const SUPPORTED_LIBRARIES = LIBRARY_TITLES.join(', ').replace(/, ([^,]*)$/, ' or $1');

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
