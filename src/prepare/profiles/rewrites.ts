import { isTypeless } from '../../shared/json-schema/kinds.js';
import { isSchemaObject, type JsonSchema } from '../../shared/json-schema/schema.js';
import { mergeRootUnion } from '../flatten.js';
import { INEXPRESSIBLE, type ProfileInput } from './profile.js';
import { describeKeywords } from './sentences.js';
import { type DocumentPath, isFreeRecord, mergeAllOf } from './tree.js';

/**
 * The rewrites several profiles share, each reporting what it cannot do with the profile's name.
 */

/** The root as one object: a union or an intersection of objects merged, anything else an error. */
export function objectRoot(document: JsonSchema, input: ProfileInput, profile: string): JsonSchema {
  const root = mergeAllOf(mergeRootUnion(document)) ?? document;
  for (const keyword of ['anyOf', 'oneOf', 'allOf'])
    if (keyword in root)
      input.report({
        code: 'profile-unsupported',
        path: [],
        message: `a union at the root (${keyword}) cannot be expressed under ${profile}`,
        hint: 'make every member an object, or write one object with the members as fields',
      });
  return root;
}

/**
 * What every provider needs of a node: no keyword that leaves no valid value, `oneOf` read as
 * `anyOf` (which every provider takes), an intersection of objects as one object (an `allOf` of
 * anything else is an error unless the provider takes it).
 */
export function commonNode(
  node: JsonSchema,
  path: DocumentPath,
  input: ProfileInput,
  profile: string,
  { allOf = false }: { allOf?: boolean } = {},
): JsonSchema {
  for (const keyword of INEXPRESSIBLE)
    if (keyword in node)
      input.report({
        code: 'profile-unsupported',
        path,
        message: `"${keyword}" cannot be expressed under ${profile}`,
        hint: 'write the field without it (z.never() and conditional schemas have no provider form)',
      });
  let result = node;
  if (Array.isArray(result.oneOf)) {
    const { oneOf, ...rest } = result;
    result = { ...rest, anyOf: oneOf };
  }
  if ('allOf' in result) {
    const merged = mergeAllOf(result);
    if (!merged && !allOf)
      input.report({
        code: 'profile-unsupported',
        path,
        message: `an intersection that is not of objects (allOf) cannot be expressed under ${profile}`,
        hint: 'write it as one object',
      });
    result = merged ?? result;
  }
  return result;
}

/**
 * An object closed to the keys it declares, as strict modes require: a record with free keys is an
 * error (the model would have nothing valid to send); closing a catch-all beside declared keys
 * narrows what the model is offered, which is safe, and is a warning.
 */
export function closedObject(
  node: JsonSchema,
  path: DocumentPath,
  input: ProfileInput,
  profile: string,
): JsonSchema {
  if (isFreeRecord(node)) {
    input.report({
      code: 'profile-unsupported',
      path,
      message: `a record with free keys cannot be expressed under ${profile} (the object must be closed)`,
      hint: 'give it fixed keys (z.object) or enum keys (z.record(z.enum([...]), ...)), or leave this profile out',
    });
    return node;
  }
  if (isSchemaObject(node.additionalProperties))
    input.report({
      severity: 'warning',
      code: 'profile-narrowed',
      path,
      message: `closed under ${profile}: the keys it takes beyond its declared ones are not offered to the model`,
    });
  return { ...node, additionalProperties: false };
}

/**
 * A string's `format` kept where the provider knows it, described otherwise. The `pattern` Zod
 * writes beside a format is the format's own: the format says it, so the pattern goes.
 */
export function withFormat(node: JsonSchema, known: ReadonlySet<string> | 'any'): JsonSchema {
  if (typeof node.format !== 'string') return node;
  const { pattern: _pattern, ...rest } = node;
  return known === 'any' || known.has(node.format) ? rest : describeKeywords(rest, ['format']);
}

/**
 * The node with only the keywords the provider takes: the listed ones kept, the ones with no
 * meaning for a model left out, every other moved into the description.
 */
export function keepOnly(node: JsonSchema, kept: ReadonlySet<string>): JsonSchema {
  const described = Object.keys(node).filter(
    (keyword) => !kept.has(keyword) && !NO_MEANING.has(keyword) && !INEXPRESSIBLE.has(keyword),
  );
  return Object.fromEntries(
    Object.entries(describeKeywords(node, described)).filter(([keyword]) => !NO_MEANING.has(keyword)),
  );
}

/** Keywords every provider takes: a node's structure and its words. */
export const STRUCTURE_KEYWORDS = [
  'type',
  'properties',
  'required',
  'items',
  'anyOf',
  'enum',
  'title',
  'description',
];

/** A field that takes any value: an error where the provider needs a type. */
export function reportTypeless(
  node: JsonSchema,
  path: DocumentPath,
  input: ProfileInput,
  profile: string,
): void {
  if (isTypeless(node) && !('nullable' in node) && path.length > 0)
    input.report({
      code: 'profile-unsupported',
      path,
      message: `takes any value, which ${profile} cannot express`,
      hint: 'give it a type (z.unknown() and z.any() have none)',
    });
}

/** Keywords with no meaning for a model (a record's key schema is said by its keys or its values). */
const NO_MEANING = new Set(['propertyNames', '$id', '$comment']);
