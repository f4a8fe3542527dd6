import type { JsonSchema } from '@toolprep/build';
import type { ProfileName } from '../../src/manifest/profiles.js';

/**
 * Each provider's rules for tool parameters, as ../shared/research/provider-profiles.md writes
 * them down from the providers' documents and SDKs: one checker per profile, each returning the
 * rules a document breaks (none for a document the provider takes).
 */

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every subschema with its path, the root first. */
function nodes(document: JsonSchema): [Node, string][] {
  const found: [Node, string][] = [];
  const visit = (value: unknown, path: string) => {
    if (Array.isArray(value)) for (const [index, item] of value.entries()) visit(item, `${path}/${index}`);
    if (!isNode(value)) return;
    found.push([value, path || '/']);
    for (const [key, child] of Object.entries(value)) {
      if (['enum', 'const', 'default', 'examples', 'example', 'required', 'propertyOrdering'].includes(key))
        continue;
      if (key === 'properties' || key === '$defs' || key === 'definitions') {
        if (isNode(child))
          for (const [name, schema] of Object.entries(child)) visit(schema, `${path}/${key}/${name}`);
      } else visit(child, `${path}/${key}`);
    }
  };
  visit(document, '');
  return found;
}

const isObjectNode = (node: Node) => node.type === 'object' || isNode(node.properties);

function rootIsObject(document: JsonSchema): string[] {
  const broken: string[] = [];
  if (document.type !== 'object') broken.push('root: type must be "object"');
  for (const keyword of ['anyOf', 'oneOf', 'allOf'])
    if (keyword in document) broken.push(`root: no ${keyword} at the top level`);
  return broken;
}

function forbidden(document: JsonSchema, keywords: readonly string[]): string[] {
  return nodes(document).flatMap(([node, path]) =>
    keywords.filter((keyword) => keyword in node).map((keyword) => `${path}: "${keyword}" is not permitted`),
  );
}

function everyObjectClosed(document: JsonSchema): string[] {
  return nodes(document)
    .filter(([node]) => isObjectNode(node) && node.additionalProperties !== false)
    .map(([, path]) => `${path}: additionalProperties must be false`);
}

function formatsIn(document: JsonSchema, formats: ReadonlySet<string>): string[] {
  return nodes(document)
    .filter(([node]) => typeof node.format === 'string' && !formats.has(node.format))
    .map(([node, path]) => `${path}: format "${String(node.format)}" is not supported`);
}

function recursion(document: JsonSchema): string[] {
  const defs = isNode(document.$defs) ? document.$defs : {};
  const reaches = (name: string, seen: Set<string>): boolean =>
    nodes(defs[name] as JsonSchema).some(([node]) => {
      const target = typeof node.$ref === 'string' ? node.$ref.replace('#/$defs/', '') : undefined;
      if (target === undefined) return false;
      if (target === name || seen.has(target)) return true;
      return reaches(target, new Set([...seen, target]));
    });
  return Object.keys(defs)
    .filter((name) => reaches(name, new Set([name])))
    .map((name) => `/$defs/${name}: recursive schemas are not supported`);
}

const OPENAI_FORMATS = new Set([
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
const ANTHROPIC_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'uri',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** OpenAI strict mode (Structured Outputs, supported schemas; openai-node's toStrictJsonSchema). */
function openaiStrict(document: JsonSchema): string[] {
  return [
    ...rootIsObject(document),
    ...everyObjectClosed(document),
    ...nodes(document)
      .filter(([node]) => isObjectNode(node))
      .filter(([node]) => {
        const keys = Object.keys(isNode(node.properties) ? node.properties : {});
        const required = Array.isArray(node.required) ? node.required : [];
        return keys.length !== required.length || keys.some((key) => !required.includes(key));
      })
      .map(([, path]) => `${path}: 'required' must include every key in properties`),
    ...forbidden(document, [
      'oneOf',
      'allOf',
      'not',
      'if',
      'then',
      'else',
      'prefixItems',
      'additionalItems',
      'uniqueItems',
      'propertyNames',
      'patternProperties',
      'minProperties',
      'maxProperties',
      'contains',
      'default',
    ]),
    ...nodes(document)
      .filter(
        ([node, path]) =>
          path !== '/' && Object.keys(node).every((key) => ['description', 'title'].includes(key)),
      )
      .map(([, path]) => `${path}: a schema must have a type`),
    ...formatsIn(document, OPENAI_FORMATS),
  ];
}

/** Anthropic `input_schema`: an object, never a union at the top level. */
function anthropic(document: JsonSchema): string[] {
  return rootIsObject(document);
}

/** Anthropic strict tool use (structured outputs, JSON Schema limitations). */
function anthropicStrict(document: JsonSchema): string[] {
  return [
    ...rootIsObject(document),
    ...everyObjectClosed(document),
    ...recursion(document),
    ...forbidden(document, [
      'oneOf',
      'minimum',
      'maximum',
      'exclusiveMinimum',
      'exclusiveMaximum',
      'multipleOf',
      'minLength',
      'maxLength',
      'maxItems',
      'uniqueItems',
      'prefixItems',
      'propertyNames',
      'patternProperties',
    ]),
    ...nodes(document)
      .filter(([node]) => typeof node.minItems === 'number' && node.minItems > 1)
      .map(([, path]) => `${path}: minItems must be 0 or 1`),
    ...nodes(document)
      .filter(([node]) => typeof node.pattern === 'string' && /\(\?<?[=!]|\\[1-9]|\\[bB]/.test(node.pattern))
      .map(([, path]) => `${path}: the pattern is outside the supported regex subset`),
    ...formatsIn(document, ANTHROPIC_FORMATS),
  ];
}

const GEMINI_JSON_KEYWORDS = new Set([
  '$id',
  '$defs',
  '$ref',
  '$anchor',
  'type',
  'format',
  'title',
  'description',
  'enum',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'anyOf',
  'oneOf',
  'properties',
  'additionalProperties',
  'required',
  'propertyOrdering',
]);

const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

function parameterNames(document: JsonSchema): string[] {
  return Object.keys(isNode(document.properties) ? document.properties : {})
    .filter((name) => !PARAMETER_NAME.test(name))
    .map((name) => `/properties/${name}: a parameter name must start with a letter or an underscore`);
}

/** Gemini `parametersJsonSchema` (the subset documented for responseJsonSchema). */
function gemini(document: JsonSchema): string[] {
  return [
    ...rootIsObject(document),
    ...parameterNames(document),
    ...nodes(document).flatMap(([node, path]) =>
      Object.keys(node)
        .filter((key) => !GEMINI_JSON_KEYWORDS.has(key))
        .map((key) => `${path}: "${key}" is not supported (Gemini ignores it)`),
    ),
    ...nodes(document)
      .filter(
        ([node]) => typeof node.$ref === 'string' && Object.keys(node).some((key) => !key.startsWith('$')),
      )
      .map(([, path]) => `${path}: no keyword may stand beside $ref`),
    ...nodes(document)
      .filter(([node]) => Array.isArray(node.enum))
      .filter(([node]) => {
        const kinds = new Set((node.enum as unknown[]).map((value) => typeof value));
        return kinds.size !== 1 || !(kinds.has('string') || kinds.has('number'));
      })
      .map(([, path]) => `${path}: enum members must all be strings, or all numbers`),
  ];
}

const GEMINI_OPENAPI_KEYWORDS = new Set([
  'anyOf',
  'default',
  'description',
  'enum',
  'example',
  'format',
  'items',
  'maxItems',
  'maxLength',
  'maxProperties',
  'maximum',
  'minItems',
  'minLength',
  'minProperties',
  'minimum',
  'nullable',
  'pattern',
  'properties',
  'propertyOrdering',
  'required',
  'title',
  'type',
]);

/** Gemini `parameters` (types.Schema: a select subset of an OpenAPI 3.0 schema object). */
function geminiOpenapi(document: JsonSchema): string[] {
  return [
    ...rootIsObject(document),
    ...parameterNames(document),
    ...nodes(document).flatMap(([node, path]) =>
      Object.keys(node)
        .filter((key) => !GEMINI_OPENAPI_KEYWORDS.has(key))
        .map((key) => `${path}: Unknown name "${key}": Cannot find field`),
    ),
    ...nodes(document)
      .filter(([node]) => Array.isArray(node.type))
      .map(([, path]) => `${path}: type is not repeating (write nullable)`),
    ...nodes(document)
      .filter(
        ([node]) =>
          Array.isArray(node.enum) &&
          (node.type !== 'string' || !(node.enum as unknown[]).every((value) => typeof value === 'string')),
      )
      .map(([, path]) => `${path}: function declaration enum only allowed for STRING type`),
    ...formatsIn(document, new Set(['date-time', 'enum'])),
  ];
}

export const PROVIDER_RULES: { readonly [Profile in ProfileName]: (document: JsonSchema) => string[] } = {
  'openai-strict': openaiStrict,
  anthropic,
  'anthropic-strict': anthropicStrict,
  gemini,
  'gemini-openapi': geminiOpenapi,
};
