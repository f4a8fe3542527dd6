import { definitionsOf } from '../shared/json-schema/definitions.js';
import { unionMembers } from '../shared/json-schema/kinds.js';
import { propertyOf } from '../shared/json-schema/records.js';
import { isSchemaObject, type JsonSchema } from '../shared/json-schema/schema.js';
import { getOwn } from '../shared/run/own-property.js';

/**
 * Where an argument sits in a prepared document: the subschemas that describe the value at an
 * argument path, through references and unions. Read as own keys only: a field named `__proto__`
 * or `constructor` is found only where the document declares it.
 */

/** What a `$ref` names: the document for `#`, else the definition it names (`#/$defs/Name`), if any. */
export function targetOf(document: JsonSchema, ref: unknown): unknown {
  if (ref === '#') return document;
  const { defs, targetOf: definitionNamed } = definitionsOf(document);
  const name = definitionNamed(ref);
  return name === undefined ? undefined : defs[name];
}

/**
 * The schema and every alternative it stands for: its `$ref`'s target, and the members of its
 * `anyOf`, `oneOf` and `allOf`, each followed on (once: a recursive reference ends there).
 */
export function branchesOf(document: JsonSchema, schema: unknown): JsonSchema[] {
  const branches: JsonSchema[] = [];
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const next = pending.pop();
    if (!isSchemaObject(next) || branches.includes(next)) continue;
    branches.push(next);
    pending.push(targetOf(document, next.$ref));
    for (const members of [unionMembers(next), getOwn(next, 'allOf')])
      if (Array.isArray(members)) pending.push(...[...members].reverse());
  }
  return branches;
}

/** What one branch says the value under `segment` is: a property, an item, or the catch-all. */
function childrenOf(branch: JsonSchema, segment: string | number): unknown[] {
  if (typeof segment === 'number') {
    const { prefixItems, items } = branch;
    const place = Array.isArray(prefixItems) ? prefixItems[segment] : undefined;
    if (place !== undefined) return [place];
    // Draft-07's tuple form keeps the places in `items` itself.
    return [Array.isArray(items) ? items[segment] : items];
  }
  return [propertyOf(branch, segment) ?? branch.additionalProperties];
}

/**
 * The subschemas a document gives for the value at `path` (`["opts", "depth"]`, `["items", 0]`):
 * every branch's, so a flattened or unflattened union answers alike; none where it says nothing.
 */
export function schemasAt(document: JsonSchema, path: readonly (string | number)[]): JsonSchema[] {
  let found: JsonSchema[] = [document];
  for (const segment of path) found = childSchemas(document, found, segment);
  return found;
}

/** The subschemas for the value under `segment` of a value the schemas describe. */
export function childSchemas(
  document: JsonSchema,
  schemas: readonly JsonSchema[],
  segment: string | number,
): JsonSchema[] {
  const children: JsonSchema[] = [];
  for (const schema of schemas)
    for (const branch of branchesOf(document, schema))
      for (const child of childrenOf(branch, segment))
        if (isSchemaObject(child) && !children.includes(child)) children.push(child);
  return children;
}

/** The object keys the branches declare, in their order, and whether any takes other keys too. */
export function declaredKeys(
  document: JsonSchema,
  schemas: readonly JsonSchema[],
): { keys: string[]; described: boolean; takesOthers: boolean } {
  const keys: string[] = [];
  let described = false;
  let takesOthers = false;
  for (const branch of schemas.flatMap((schema) => branchesOf(document, schema))) {
    const { properties, additionalProperties, patternProperties } = branch;
    if (isSchemaObject(properties)) {
      described = true;
      for (const key of Object.keys(properties)) if (!keys.includes(key)) keys.push(key);
    }
    // A record, a catch-all or a loose object takes keys it does not name.
    if (
      additionalProperties === true ||
      isSchemaObject(additionalProperties) ||
      isSchemaObject(patternProperties)
    )
      takesOthers = true;
  }
  return { keys, described, takesOthers };
}
