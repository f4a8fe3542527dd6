import {
  type DefinitionGraph,
  definitionGraph,
  inlineAcyclicReferences,
} from '../../shared/json-schema/definitions.js';
import { isTypeless } from '../../shared/json-schema/kinds.js';
import { propertiesOf, requiredKeys } from '../../shared/json-schema/records.js';
import { isSchemaObject, type JsonSchema } from '../../shared/json-schema/schema.js';
import { forEachSubschema } from '../../shared/json-schema/walk.js';
import { getOwn } from '../../shared/run/own-property.js';
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
import { describeKeywords, sentenceFor, withSentences } from './sentences.js';
import { type DocumentPath, mapTree, recordAsObject, tupleAsList, withoutSafeIntegerBounds } from './tree.js';

/** A parameter's name, as Gemini takes it at the top of a function's parameters. */
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The root as one object whose parameter names Gemini takes. */
function geminiRoot(document: JsonSchema, input: ProfileInput, profile: string): JsonSchema {
  const root = objectRoot(document, input, profile);
  for (const key of Object.keys(propertiesOf(root)).filter((name) => !PARAMETER_NAME.test(name)))
    input.report({
      code: 'profile-name',
      path: ['properties', key],
      message: `Gemini takes a parameter name of letters, digits and underscores that starts with a letter or an underscore (at most 64), not "${key}"`,
      hint: `rename it, for example to "${parameterName(key)}"`,
    });
  return root;
}

/** A name Gemini takes, close to the one given: its other characters as `_`, a leading digit after one. */
function parameterName(key: string): string {
  const name = key
    .replace(/[^A-Za-z0-9_]/g, '_')
    .replace(/^([^A-Za-z_])/, '_$1')
    .slice(0, 64);
  return name === '' ? 'field' : name;
}

const GEMINI_KEPT = new Set([
  ...STRUCTURE_KEYWORDS,
  'additionalProperties',
  '$defs',
  '$ref',
  'format',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
]);

/**
 * A nullable enum (`type: [T, "null"]` with its values and `null`) as a union of its values and
 * `null`: Gemini's enum takes values of one kind, so `null` goes in a member of its own.
 */
function nullAsItsOwnMember(node: JsonSchema): JsonSchema {
  const { enum: members, type, ...annotations } = node as JsonSchema & { enum: unknown[] };
  const values = members.filter((value) => value !== null);
  const valueType = Array.isArray(type) ? type.filter((one) => one !== 'null') : [];
  if (values.length === 0 || valueType.length !== 1) return node;
  return { ...annotations, anyOf: [{ type: valueType[0], enum: values }, { type: 'null' }] };
}

/**
 * Gemini's `parametersJsonSchema`: JSON Schema, in the subset Gemini documents for it (unknown
 * keywords would be ignored without a word, so they move into the description), `const` as a
 * one-member enum, and recursion only under properties that are not required.
 */
export const gemini: Profile = (input) => {
  const graph = definitionGraph(input.document);
  const inputSchema = mapTree(geminiRoot(input.document, input, 'gemini'), (source, { path }) => {
    let node = recordAsObject(commonNode(source, path, input, 'gemini'));
    if ('const' in node) {
      const { const: value, ...rest } = node;
      node =
        value === null
          ? { ...rest, type: 'null' }
          : typeof value === 'string' || typeof value === 'number'
            ? { ...rest, enum: [value] }
            : withSentences(rest, [sentenceFor('const', value)]);
    }
    if (Array.isArray(node.enum) && node.enum.includes(null)) node = nullAsItsOwnMember(node);
    if (Array.isArray(node.enum)) {
      const kinds = new Set(node.enum.map((value) => typeof value));
      if (kinds.size !== 1 || !(kinds.has('string') || kinds.has('number')))
        node = describeKeywords(node, ['enum']);
    }
    if (Array.isArray(node.prefixItems) && node.items === false) {
      // A closed tuple: its maxItems says so, and Gemini takes no schema that is `false`.
      const { items: _closed, ...rest } = node;
      node = rest;
    }
    if (typeof node.$ref === 'string' && Object.keys(node).length > 1) {
      const { $ref, ...siblings } = node;
      node = { anyOf: [{ $ref }], ...siblings };
    }
    return keepOnly(withoutSafeIntegerBounds(withFormat(node, 'any')), GEMINI_KEPT);
  });
  checkRecursionUnderOptional(inputSchema, input, graph);
  return { inputSchema };
};

/**
 * Gemini unrolls a cycle only through properties that are not required ("nullable properties are
 * not sufficient"): a reference back into a recursive definition must sit under one.
 */
function checkRecursionUnderOptional(
  document: JsonSchema,
  input: ProfileInput,
  { recursive, targetOf }: DefinitionGraph,
): void {
  const defs = isSchemaObject(document.$defs) ? document.$defs : {};
  const walk = (node: unknown, path: DocumentPath, underOptional: boolean) => {
    if (!isSchemaObject(node)) return;
    const target = targetOf(node.$ref);
    if (target !== undefined && recursive.has(target) && !underOptional)
      input.report({
        code: 'profile-unsupported',
        path,
        message: 'a recursive schema reached through required properties cannot be expressed under gemini',
        hint: 'make the field that recurses optional',
      });
    const required = new Set(requiredKeys(node));
    forEachSubschema(node, (child, step) => {
      const [keyword, name] = step;
      if (keyword === '$defs') return;
      const optional = keyword === 'properties' && !required.has(String(name));
      walk(child, [...path, ...step], underOptional || optional);
    });
  };
  for (const name of recursive) walk(getOwn(defs, name), ['$defs', name], false);
}

/** What Gemini's OpenAPI `Schema` takes (types.Schema, @google/genai). */
const OPENAPI_KEPT = new Set([
  ...STRUCTURE_KEYWORDS,
  'format',
  'nullable',
  'minItems',
  'maxItems',
  'propertyOrdering',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'default',
  'example',
  'minProperties',
  'maxProperties',
]);

/** The formats Gemini's `parameters` takes; any other is described. */
const OPENAPI_FORMATS = new Set(['date-time', 'enum']);

const OPENAPI = 'gemini-openapi';

/**
 * Gemini's `parameters`: the OpenAPI 3.0 subset Gemini takes. `null` as `nullable`, string enums
 * only, no references (inlined; recursion is an error), no `additionalProperties` (a record with
 * free keys is an error), the order of each object's keys as `propertyOrdering`.
 */
export const geminiOpenapi: Profile = (input) => {
  const inlined = inlineAcyclicReferences(input.document);
  const { recursive } = definitionGraph(inlined);
  if (recursive.size > 0)
    input.report({
      code: 'profile-unsupported',
      path: [],
      message: `a recursive schema (${[...recursive].sort().join(', ')}) cannot be expressed under ${OPENAPI}`,
      hint: 'use the gemini profile (parametersJsonSchema) for this tool',
    });
  const { $defs: _defs, ...root } = geminiRoot(inlined, input, OPENAPI);
  const projected = mapTree(root, (source, { path }) => openapiNode(source, path, input));
  // A value that is only `null` has no OpenAPI type of its own: a nullable string that says so.
  const inputSchema = mapTree(projected, (node) =>
    isNullOnly(node) && !('type' in node)
      ? withSentences({ ...node, type: 'string' }, ['Always null.'])
      : node,
  );
  return { inputSchema };
};

function openapiNode(source: JsonSchema, path: DocumentPath, input: ProfileInput): JsonSchema {
  let node = recordAsObject(tupleAsList(commonNode(source, path, input, OPENAPI)));
  if (node.type === 'object' || isSchemaObject(node.properties)) {
    const { additionalProperties: _closed, ...open } = closedObject(node, path, input, OPENAPI);
    node = isSchemaObject(open.properties)
      ? { ...open, propertyOrdering: Object.keys(open.properties) }
      : open;
  }
  node = openapiNulls(openapiValues(node));
  if (Array.isArray(node.examples) && node.examples.length > 0) {
    const { examples, ...rest } = node;
    node = { ...rest, example: examples[0] };
  }
  reportTypeless(node, path, input, OPENAPI);
  return keepOnly(withoutSafeIntegerBounds(withFormat(node, OPENAPI_FORMATS)), OPENAPI_KEPT);
}

/** A union member that takes only `null`: `{ type: "null" }`, or it as this profile writes it. */
function isNullOnly(branch: unknown): boolean {
  if (!isSchemaObject(branch)) return false;
  const { nullable, ...rest } = branch;
  return branch.type === 'null' || (nullable === true && isTypeless(rest));
}

/** `const` and `enum` as OpenAPI's string enums; other members as their type and prose. */
function openapiValues(node: JsonSchema): JsonSchema {
  if ('const' in node) {
    const { const: value, ...rest } = node;
    if (typeof value === 'string') return { ...rest, type: 'string', enum: [value] };
    if (value === null) return { ...rest, nullable: true };
    return withSentences({ ...rest, type: rest.type ?? typeof value }, [sentenceFor('const', value)]);
  }
  if (!Array.isArray(node.enum)) return node;
  const members = node.enum;
  const strings = members.filter((value) => typeof value === 'string');
  if (strings.length === members.length) return { ...node, type: 'string' };
  if (strings.length + 1 === members.length && members.includes(null))
    return { ...node, type: 'string', enum: strings, nullable: true };
  return describeKeywords(node, ['enum']);
}

/** `type: [T, "null"]` as `type: T, nullable: true`; an `anyOf` with a `null` member likewise. */
function openapiNulls(node: JsonSchema): JsonSchema {
  if (Array.isArray(node.type)) {
    const types = node.type.filter((type) => type !== 'null');
    const nullable = types.length < node.type.length ? { nullable: true } : {};
    if (types.length === 1) return { ...node, type: types[0], ...nullable };
    const { type: _type, ...rest } = node;
    return { ...rest, anyOf: types.map((type) => ({ type })), ...nullable };
  }
  if (Array.isArray(node.anyOf) && node.anyOf.some(isNullOnly)) {
    const branches = node.anyOf.filter((branch) => !isNullOnly(branch));
    const { anyOf: _anyOf, ...rest } = node;
    if (branches.length === 1) return { ...(branches[0] as JsonSchema), ...rest, nullable: true };
    return { ...rest, anyOf: branches, nullable: true };
  }
  if (node.type === 'null') {
    const { type: _type, ...rest } = node;
    return { ...rest, nullable: true };
  }
  return node;
}
