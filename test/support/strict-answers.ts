import { documentedValues } from '../../src/generate/sample-values.js';
import { definitionsOf } from '../../src/shared/json-schema/definitions.js';
import { unionMembers } from '../../src/shared/json-schema/kinds.js';
import { propertyOf } from '../../src/shared/json-schema/records.js';
import { isSchemaObject, type JsonSchema } from '../../src/shared/json-schema/schema.js';
import { mapSchema } from '../../src/shared/json-schema/walk.js';
import { getOwn } from '../../src/shared/run/own-property.js';

/**
 * Answers a model may send for a strict document (every key required, a key that was optional
 * nullable): the document's typical value; the same with `null` wherever the document takes it,
 * at the outermost place it can go; and each of the document's values that varies one field to
 * `null`. These are the answers the inverse steps exist for; the document's other values vary
 * fields that no inverse step touches.
 */
export function strictAnswers(document: JsonSchema): unknown[] {
  const [typical, ...varied] = documentedValues(document);
  const [allNull] = documentedValues(nullFirst(document));
  const nulls = varied.filter((sample) => valueAt(sample.value, sample.path) === null);
  const texts = new Set(
    [typical, allNull, ...nulls].flatMap((sample) => (sample ? [JSON.stringify(sample.value)] : [])),
  );
  return [...texts].map((text) => JSON.parse(text));
}

/** The document with `null` as the first choice wherever it is one: its typical value is then `null` there. */
function nullFirst(document: JsonSchema): JsonSchema {
  const first = (list: readonly unknown[], isNull: (item: unknown) => boolean) => [
    ...list.filter(isNull),
    ...list.filter((item) => !isNull(item)),
  ];
  return mapSchema(document, (node) => ({
    ...node,
    ...(Array.isArray(node.type) ? { type: first(node.type, (type) => type === 'null') } : {}),
    ...(Array.isArray(node.enum) ? { enum: first(node.enum, (member) => member === null) } : {}),
    ...(Array.isArray(node.anyOf)
      ? { anyOf: first(node.anyOf, (member) => (member as JsonSchema | null)?.type === 'null') }
      : {}),
  }));
}

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let current = value;
  for (const step of path)
    current =
      typeof current === 'object' && current !== null
        ? getOwn(current as Record<string, unknown>, String(step))
        : undefined;
  return current;
}

/** The field the MCP document shows at an argument's path, and whether a record's values hold it. */
export interface FieldShown {
  readonly node?: JsonSchema;
  readonly inRecord: boolean;
}

/** The MCP document's schema for the value at `path` in the arguments (the document mirrors the contract). */
export function fieldShownAt(document: JsonSchema, path: readonly (string | number)[]): FieldShown {
  const { resolve } = definitionsOf(document);
  let node = document as JsonSchema | undefined;
  let inRecord = false;
  for (const step of path) {
    const schema = resolve(node) as JsonSchema | undefined;
    const members = [schema, ...(unionMembers(schema ?? {}) ?? []).map(resolve)] as (
      | JsonSchema
      | undefined
    )[];
    if (typeof step === 'number') {
      node = members
        .map((member) => (member?.prefixItems as JsonSchema[] | undefined)?.[step] ?? member?.items)
        .find(Boolean) as JsonSchema | undefined;
      inRecord = false;
      continue;
    }
    const declared = members.map((member) => propertyOf(member, step)).find(Boolean) as
      | JsonSchema
      | undefined;
    inRecord = declared === undefined;
    node =
      declared ??
      (members.map((member) => member?.additionalProperties).find(isSchemaObject) as JsonSchema | undefined);
  }
  return { node: resolve(node) as JsonSchema | undefined, inRecord };
}
