import type { Dialect } from '../adapters/types.js';
import { rewriteRefs } from '../shared/json-schema/definitions.js';
import { unionMembers } from '../shared/json-schema/kinds.js';
import { propertiesOf, requiredKeys } from '../shared/json-schema/records.js';
import { isSchemaObject, type JsonSchema } from '../shared/json-schema/schema.js';
import { DEFS_KEY } from './json-schema.js';

/** The property names a root object or each variant of a root union declares. */
export function declaredKeys(document: JsonSchema): Set<string> {
  const keys = new Set<string>();
  const collect = (schema: unknown): void => {
    if (!isSchemaObject(schema)) return;
    for (const key of Object.keys(propertiesOf(schema))) keys.add(key);
    for (const branch of [schema.anyOf, schema.oneOf].flat()) collect(branch);
  };
  collect(document);
  return keys;
}

/**
 * Presents params and input as one object: params' fields first, `required` the union of both, the
 * key policy (`additionalProperties`) from input. A root union gets the params in every variant, so
 * that a strict variant still accepts them and flattening sees them as shared fields. Definitions
 * from params that would collide with input's are renamed. The caller has refused shared keys.
 */
export function mergeParamsIntoInput(input: JsonSchema, params: JsonSchema, dialect: Dialect): JsonSchema {
  const defsKey = DEFS_KEY[dialect];
  const inputDefs = isSchemaObject(input[defsKey]) ? input[defsKey] : {};
  const renamed = renameCollidingDefinitions(params, inputDefs, dialect);
  const paramsDefs = isSchemaObject(renamed[defsKey]) ? renamed[defsKey] : {};
  const { [defsKey]: _inputDefs, ...inputBody } = input;
  const merged: Record<string, unknown> = mergeFields(inputBody, renamed);
  const defs = { ...inputDefs, ...paramsDefs };
  if (Object.keys(defs).length > 0) merged[defsKey] = defs;
  return merged;
}

function mergeFields(target: JsonSchema, params: JsonSchema): JsonSchema {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = target[key];
    if (!isSchemaObject(target.properties) && Array.isArray(branches) && branches.every(isInlineObject)) {
      return { ...target, [key]: branches.map((branch: JsonSchema) => mergeFields(branch, params)) };
    }
  }
  const required = [...requiredKeys(params), ...requiredKeys(target)];
  const { required: _required, ...rest } = target;
  return {
    ...rest,
    type: 'object',
    properties: { ...propertiesOf(params), ...propertiesOf(target) },
    ...(required.length > 0 ? { required } : {}),
  };
}

function isInlineObject(schema: unknown): schema is JsonSchema {
  return isSchemaObject(schema) && (schema.type === 'object' || unionMembers(schema) !== undefined);
}

function renameCollidingDefinitions(params: JsonSchema, taken: JsonSchema, dialect: Dialect): JsonSchema {
  const defsKey = DEFS_KEY[dialect];
  const defs = params[defsKey];
  if (!isSchemaObject(defs)) return params;
  const prefix = `#/${defsKey}/`;
  const names = new Map<string, string>();
  for (const name of Object.keys(defs)) {
    let fresh = name;
    for (
      let suffix = 1;
      Object.hasOwn(taken, fresh) || (fresh !== name && Object.hasOwn(defs, fresh));
      suffix++
    )
      fresh = `params_${name}_${suffix}`;
    if (fresh !== name) names.set(name, fresh);
  }
  if (names.size === 0) return params;
  const rewritten = rewriteRefs(params, (ref) => {
    const fresh = ref.startsWith(prefix) ? names.get(ref.slice(prefix.length)) : undefined;
    return fresh ? prefix + fresh : ref;
  });
  const renamedDefs = Object.fromEntries(
    Object.entries(rewritten[defsKey] as JsonSchema).map(([name, schema]) => [
      names.get(name) ?? name,
      schema,
    ]),
  );
  return { ...rewritten, [defsKey]: renamedDefs };
}
