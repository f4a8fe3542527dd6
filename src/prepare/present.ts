import type { Conversion, Dialect, SchemaBuilder } from '../adapters/types.js';
import { containsRef, rewriteRefs } from '../shared/json-schema/definitions.js';
import { isSchemaObject, type JsonSchema } from '../shared/json-schema/schema.js';
import { DEFS_KEY } from './json-schema.js';

/**
 * Converts one schema to one dialect with its library's converter. `io` is `input` for what a
 * caller sends and `output` for what a tool returns. Nodes JSON Schema cannot show come back as
 * `{}`, listed, so that every one of them can be reported at once.
 */
export function presentSchema(
  builder: SchemaBuilder,
  schema: unknown,
  dialect: Dialect,
  io: 'input' | 'output',
): Conversion {
  const { document, unrepresentable } = builder.convert(schema, { dialect, io });
  return { document: hoistRecursiveRoot(document, dialect), unrepresentable };
}

const ROOT_DEFINITION = '__root';

/**
 * A converter points a recursive root at `#`; the root is about to be merged with params and
 * flattened, so `#` would then mean something else. Move the recursion into a definition and keep a
 * copy as root.
 */
function hoistRecursiveRoot(document: JsonSchema, dialect: Dialect): JsonSchema {
  if (!containsRef(document, '#')) return document;
  const defsKey = DEFS_KEY[dialect];
  const target = `#/${defsKey}/${ROOT_DEFINITION}`;
  const rewritten = rewriteRefs(document, (ref) => (ref === '#' ? target : ref));
  const { $schema, [defsKey]: defs, ...body } = rewritten;
  return { $schema, ...body, [defsKey]: { ...(isSchemaObject(defs) ? defs : {}), [ROOT_DEFINITION]: body } };
}
