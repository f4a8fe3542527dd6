import { type Definitions, definitionsOf } from '../../shared/json-schema/definitions.js';
import { propertiesOf, requiredKeys } from '../../shared/json-schema/records.js';
import { isSchemaObject, type JsonSchema } from '../../shared/json-schema/schema.js';
import { forEachSubschema } from '../../shared/json-schema/walk.js';
import type { Profile, ProfileInput } from './profile.js';
import {
  closedObject,
  commonNode,
  keepOnly,
  objectRoot,
  reportTypeless,
  STRUCTURE_KEYWORDS,
  withFormat,
} from './rewrites.js';
import {
  type DocumentPath,
  forEachNode,
  mapTree,
  recordAsObject,
  tupleAsList,
  withNull,
  withoutSafeIntegerBounds,
} from './tree.js';

const PROFILE = 'openai-strict';

/** The string formats OpenAI's strict mode knows; any other is described. */
const FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** Keywords strict mode takes as they are. */
const KEPT = new Set([
  ...STRUCTURE_KEYWORDS,
  'additionalProperties',
  '$ref',
  '$defs',
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

/** The documented limits of a strict schema (Structured Outputs, supported schemas). */
const LIMITS = {
  properties: 5000,
  depth: 10,
  enumValues: 1000,
  characters: 120_000,
  largeEnum: 250,
  largeEnumCharacters: 15_000,
};

/**
 * OpenAI strict function calling (Chat Completions and Responses, sent with `strict: true`): every
 * object closed with every key required, a key that was optional made nullable instead (the model
 * then sends `null`, which the plan's `nullAbsent` step removes), no `oneOf`, no tuples, and what
 * strict mode cannot express in the description. A record with free keys or a field that takes any
 * value leaves the model nothing valid to send: an error.
 */
export const openaiStrict: Profile = (input) => {
  const projected = mapTree(objectRoot(input.document, input, PROFILE), (node, { path }) =>
    projectNode(node, path, input),
  );
  checkLimits(projected, input);
  return { inputSchema: projected };
};

/**
 * OpenAI's non-strict function calling, `openai-strict`'s fallback (sent with `strict: false`): the
 * MCP document as it is, the model not held to it (the contract's parser checks every call), its
 * root one object as OpenAI's `parameters` must be: a root union of objects merged, as `anthropic`
 * merges it.
 */
export const openaiNonStrict: Profile = (input) => ({
  inputSchema: objectRoot(input.document, input, 'openai'),
});

function projectNode(source: JsonSchema, path: DocumentPath, input: ProfileInput): JsonSchema {
  let node = recordAsObject(tupleAsList(commonNode(source, path, input, PROFILE)));
  if ('const' in node) {
    const { const: value, ...rest } = node;
    node = { ...rest, enum: [value] };
  }
  if (node.type === 'object' || isSchemaObject(node.properties))
    node = requireEveryKey(closedObject(node, path, input, PROFILE));
  reportTypeless(node, path, input, PROFILE);
  return keepOnly(withoutSafeIntegerBounds(withFormat(node, FORMATS)), KEPT);
}

/** Every key required, the ones that were optional made nullable (strict mode has no optional key). */
function requireEveryKey(node: JsonSchema): JsonSchema {
  const properties = propertiesOf(node);
  const required = new Set(requiredKeys(node));
  return {
    ...node,
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(properties).map(([key, value]) => [
        key,
        required.has(key) ? value : withNull(value as JsonSchema),
      ]),
    ),
    required: Object.keys(properties),
  };
}

function checkLimits(document: JsonSchema, input: ProfileInput): void {
  let properties = 0;
  let enumValues = 0;
  let characters = 0;
  const report = (path: DocumentPath, what: string, limit: number) =>
    input.report({
      code: 'profile-limit',
      path,
      message: `${what}, over ${PROFILE}'s limit of ${limit}`,
      hint: 'split the tool, or leave this profile out',
    });
  forEachNode(document, (node, { path }) => {
    if (isSchemaObject(node.properties)) {
      const keys = Object.keys(node.properties);
      properties += keys.length;
      characters += keys.join('').length;
    }
    if (isSchemaObject(node.$defs)) characters += Object.keys(node.$defs).join('').length;
    if (!Array.isArray(node.enum)) return;
    enumValues += node.enum.length;
    const text = node.enum.map((value) => String(value)).join('').length;
    characters += text;
    const strings = node.enum.every((value) => typeof value === 'string');
    if (strings && node.enum.length > LIMITS.largeEnum && text > LIMITS.largeEnumCharacters)
      report(
        path,
        `an enum of ${node.enum.length} strings, ${text} characters in all`,
        LIMITS.largeEnumCharacters,
      );
  });
  const totals: [string, number, number][] = [
    ['object properties in all', properties, LIMITS.properties],
    ['enum values in all', enumValues, LIMITS.enumValues],
    ['characters of property names, definition names and enum values', characters, LIMITS.characters],
    ['levels of nesting', nestingDepth(document, definitionsOf(document)), LIMITS.depth],
  ];
  for (const [what, count, limit] of totals) if (count > limit) report([], `${count} ${what}`, limit);
}

/** Object and array levels, counted through references (each definition once on a path). */
function nestingDepth(
  node: unknown,
  definitions: Definitions,
  seen: ReadonlySet<string> = new Set(),
): number {
  if (!isSchemaObject(node)) return 0;
  const ref = node.$ref;
  if (typeof ref === 'string') {
    if (seen.has(ref)) return 0;
    const target = definitions.targetOf(ref);
    return target === undefined
      ? 0
      : nestingDepth(definitions.defs[target], definitions, new Set([...seen, ref]));
  }
  const level = node.type === 'object' || node.type === 'array' ? 1 : 0;
  let deepest = 0;
  forEachSubschema(node, (child, [keyword]) => {
    // Definitions count where they are used.
    if (keyword !== '$defs') deepest = Math.max(deepest, nestingDepth(child, definitions, seen));
  });
  return level + deepest;
}
