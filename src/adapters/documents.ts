import type { JsonSchema } from '../shared/json-schema/schema.js';
import { mapSchema } from '../shared/json-schema/walk.js';
import { setOwn } from '../shared/run/own-property.js';

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * A draft-07 document as JSON Schema 2020-12, for libraries whose converter writes draft-07 only:
 * `definitions` become `$defs` (and every reference follows), a tuple's `items` list becomes
 * `prefixItems` with `additionalItems` as its `items`, and `$schema` says 2020-12.
 */
export function draft07To202012(document: JsonSchema): JsonSchema {
  return schemaKeyFirst({ ...mapSchema(document, as202012), $schema: DRAFT_2020_12 });
}

/** `$schema` as the first key, where every document toolprep writes has it, whichever converter. */
export function schemaKeyFirst({ $schema, ...rest }: Record<string, unknown>): Record<string, unknown> {
  return $schema === undefined ? rest : { $schema, ...rest };
}

/** One node's draft-07 keywords renamed in place (its subschemas are converted already). */
function as202012(node: JsonSchema): JsonSchema {
  const tuple = Array.isArray(node.items);
  if (!tuple && !('definitions' in node) && typeof node.$ref !== 'string') return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'definitions') result.$defs = value;
    else if (key === '$ref' && typeof value === 'string')
      result.$ref = value.replace(/^#\/definitions\//, '#/$defs/');
    else if (key === 'items' && tuple) result.prefixItems = value;
    else if (key === 'additionalItems' && tuple) result.items = value;
    // Any other keyword as it is: `.meta()` may have written a user's key here, `__proto__` too.
    else setOwn(result, key, value);
  }
  return result;
}
