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
  // A generation converts each part for its tool, then again for the explain pass: once is enough.
  const memo = typeof schema === 'object' && schema !== null ? conversions.get(schema) : undefined;
  const key = `${dialect} ${io}`;
  const known = memo?.get(key);
  if (known) return known;
  const { document, unrepresentable } = builder.convert(schema, { dialect, io });
  const conversion = deepFrozen({ document: hoistRecursiveRoot(document, dialect), unrepresentable });
  if (typeof schema === 'object' && schema !== null)
    conversions.set(schema, (memo ?? new Map()).set(key, conversion));
  return conversion;
}

/** Conversions by schema identity (a contract's schemas live as long as its loaded module). */
const conversions = new WeakMap<object, Map<string, Conversion>>();

function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFrozen(child);
  }
  return value;
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
