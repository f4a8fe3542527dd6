import { isRecord } from '../../shared/run/is-record.js';
import { getOwn } from '../../shared/run/own-property.js';
import type { SchemaNode, SchemaView } from '../types.js';
import { discriminatorOf, standardDocument, tagsOfJson } from './document.js';
import { isStandardJsonSchema, type StandardJsonSchema } from './vendor.js';

/** A place in a JSON Schema document: a subschema, and the document its references point into. */
export class JsonNode {
  constructor(
    readonly json: unknown,
    readonly document: Record<string, unknown>,
  ) {}
}

/** One node per subschema object, so that a schema met again (a reference back) is the same node. */
const nodes = new WeakMap<object, JsonNode>();
const roots = new WeakMap<object, JsonNode>();

function nodeOf(json: unknown, document: Record<string, unknown>): JsonNode {
  if (typeof json !== 'object' || json === null) return new JsonNode(json, document);
  let node = nodes.get(json);
  if (!node) {
    node = new JsonNode(json, document);
    nodes.set(json, node);
  }
  return node;
}

/** The input document of a library's schema, as the plan compiler and the reference read it. */
function rootOf(schema: StandardJsonSchema): JsonNode {
  let root = roots.get(schema);
  if (!root) {
    const { document } = standardDocument(schema, 'draft-2020-12', 'input');
    root = nodeOf(document, document);
    roots.set(schema, root);
  }
  return root;
}

function pointerTarget(document: Record<string, unknown>, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let target: unknown = document;
  for (const segment of ref.slice(1).split('/').slice(1)) {
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
    target =
      isRecord(target) || Array.isArray(target) ? getOwn(target as Record<string, unknown>, key) : undefined;
  }
  return target;
}

const KINDS = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/**
 * The strings a document lists when it takes nothing else but `null`: its `const` or `enum`, or
 * those its `anyOf`/`oneOf` branches list; undefined where any branch takes anything else.
 */
function listedStrings(node: JsonNode, seen: Set<unknown>): readonly string[] | undefined {
  const values = tagsOfJson(node.json);
  if (values)
    return values.every((value) => typeof value === 'string' || value === null)
      ? values.filter((value): value is string => typeof value === 'string')
      : undefined;
  if (isRecord(node.json) && node.json.type === 'null') return [];
  const shape = standardView.node(node);
  if (shape.kind !== 'union' || seen.has(node.json)) return undefined;
  seen.add(node.json);
  const listed = shape.options.map((option) => listedStrings(standardView.resolve(option) as JsonNode, seen));
  return listed.every((strings) => strings !== undefined) ? listed.flat() : undefined;
}
/**
 * A Standard JSON Schema library read from its own JSON Schema (the input side): what a position
 * takes is what the document says it takes. A refinement the document cannot show is not seen.
 */
export const standardView: SchemaView<unknown> = {
  library: 'a Standard JSON Schema library',
  owns: (value): value is unknown => value instanceof JsonNode || isStandardJsonSchema(value),
  resolve(schema) {
    let node = schema instanceof JsonNode ? schema : rootOf(schema as StandardJsonSchema);
    for (let steps = 0; steps < 64 && isRecord(node.json); steps++) {
      const { $ref, allOf } = node.json;
      if (typeof $ref === 'string') node = nodeOf(pointerTarget(node.document, $ref), node.document);
      else if (Array.isArray(allOf) && allOf.length === 1 && Object.keys(node.json).length === 1)
        node = nodeOf(allOf[0], node.document);
      else break;
    }
    return node;
  },
  node(schema): SchemaNode<unknown> {
    const { json, document } = schema as JsonNode;
    if (json === false) return { kind: 'scalar' };
    if (!isRecord(json)) return { kind: 'any' };
    const child = (value: unknown) => nodeOf(value, document);
    const { type } = json;
    if (Array.isArray(type))
      return { kind: 'union', options: type.map((one) => child({ ...json, type: one })) };
    for (const key of ['oneOf', 'anyOf'] as const) {
      const options = json[key];
      if (Array.isArray(options))
        return { kind: 'union', options: options.map(child), discriminator: discriminatorOf(options, true) };
    }
    if (Array.isArray(json.allOf) && json.allOf.length > 1) {
      const [first, ...rest] = json.allOf;
      return {
        kind: 'intersection',
        sides: [child(first), child(rest.length === 1 ? rest[0] : { allOf: rest })],
      };
    }
    if (type === 'object' || isRecord(json.properties)) {
      const fields = Object.fromEntries(
        Object.entries((json.properties ?? {}) as object).map(([key, value]) => [key, child(value)]),
      );
      const rest = json.additionalProperties;
      return {
        kind: 'object',
        fields,
        rest: rest === undefined || rest === false ? undefined : child(rest),
        closed: rest === false,
      };
    }
    if (type === 'array' || json.items !== undefined || Array.isArray(json.prefixItems)) {
      const items = json.items === undefined || json.items === false ? undefined : child(json.items);
      if (Array.isArray(json.prefixItems))
        return { kind: 'tuple', items: json.prefixItems.map(child), rest: items };
      return { kind: 'array', element: items ?? child(true) };
    }
    const values = tagsOfJson(json);
    if (values) return { kind: values.some((value) => typeof value === 'string') ? 'text' : 'scalar' };
    if (type === 'string') return { kind: 'text' };
    if (typeof type === 'string' && KINDS.has(type)) return { kind: 'scalar' };
    return { kind: 'not' in json ? 'scalar' : 'any' };
  },
  tags(option, key) {
    const json = (option as JsonNode).json;
    const properties = isRecord(json) && isRecord(json.properties) ? json.properties : {};
    return tagsOfJson(getOwn(properties, key)) ?? [];
  },
  typeName: (schema) => {
    const { json } = standardView.resolve(schema) as JsonNode;
    return isRecord(json) && typeof json.type === 'string' ? json.type : 'schema';
  },
  // The document shows no wrapper its library may have: an object at its root is taken as one.
  isObject: (schema) => standardView.node(standardView.resolve(schema)).kind === 'object',
  // The document takes every value the parser takes: where it refuses null, so does the parser.
  takesNull: (schema) => jsonTakesNull(standardView.resolve(schema) as JsonNode, new Set()),
  stringValues(schema) {
    const strings = listedStrings(standardView.resolve(schema) as JsonNode, new Set());
    return strings && strings.length > 0 ? strings : undefined;
  },
  optionalKeys(object) {
    const { json } = standardView.resolve(object) as JsonNode;
    if (!isRecord(json) || !isRecord(json.properties)) return [];
    const required = new Set(Array.isArray(json.required) ? json.required : []);
    return Object.keys(json.properties).filter((key) => !required.has(key));
  },
  // What the document says: its library's converter shows a coercing parser as taking strings.
  scalarKinds(schema) {
    const resolved = standardView.resolve(schema) as JsonNode;
    const node = standardView.node(resolved);
    if (node.kind !== 'scalar') return node.kind === 'text' || node.kind === 'any' ? [] : undefined;
    const { json } = resolved;
    if (!isRecord(json)) return [];
    const values = tagsOfJson(json);
    if (values)
      return (['boolean', 'number'] as const).filter((kind) => values.some((value) => typeof value === kind));
    if (json.type === 'boolean') return ['boolean'];
    return json.type === 'number' || json.type === 'integer' ? ['number'] : [];
  },
};

function jsonTakesNull({ json, document }: JsonNode, seen: Set<unknown>): boolean {
  if (json === false) return false;
  if (!isRecord(json) || seen.has(json)) return true;
  seen.add(json);
  const through = (value: unknown) =>
    jsonTakesNull(standardView.resolve(nodeOf(value, document)) as JsonNode, seen);
  const { type } = json;
  if (typeof type === 'string' && type !== 'null') return false;
  if (Array.isArray(type) && !type.includes('null')) return false;
  if ('const' in json && json.const !== null) return false;
  if (Array.isArray(json.enum) && !json.enum.includes(null)) return false;
  for (const key of ['anyOf', 'oneOf'] as const)
    if (Array.isArray(json[key]) && !(json[key] as unknown[]).some(through)) return false;
  if (Array.isArray(json.allOf) && !(json.allOf as unknown[]).every(through)) return false;
  return true;
}
