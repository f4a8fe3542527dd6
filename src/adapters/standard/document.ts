import { inlineAcyclicReferences } from '../../shared/json-schema/definitions.js';
import { isSchemaObject, type JsonSchema } from '../../shared/json-schema/schema.js';
import { mapSchema, type SchemaPath, walkSchema } from '../../shared/json-schema/walk.js';
import { isRecord } from '../../shared/run/is-record.js';
import { getOwn, withOwn } from '../../shared/run/own-property.js';
import { schemaKeyFirst } from '../documents.js';
import { fieldPath } from '../field-path.js';
import type { Dialect, UnrepresentableNode } from '../types.js';
import { MARK, type StandardJsonSchema, vendorOptions } from './vendor.js';

const PROTO = '__proto__';

/**
 * The schema's JSON Schema, from its library's own converter: the input side (or output), in one
 * dialect, with every node the library could not show found by its place and shown as `{}`, and
 * unions of objects told apart by a tag made exclusive (`oneOf`), as Zod's discriminated unions are.
 */
export function standardDocument(
  schema: StandardJsonSchema,
  dialect: Dialect,
  io: 'input' | 'output',
): { document: Record<string, unknown>; unrepresentable: UnrepresentableNode[] } {
  const standard = schema['~standard'];
  const unrepresentable: UnrepresentableNode[] = [];
  const hint =
    "describe the value with a schema JSON can carry, or set unrepresentable: 'degrade' to show it as {}";
  let converted: unknown;
  try {
    converted = standard.jsonSchema?.[io]({
      target: dialect,
      libraryOptions: vendorOptions(standard.vendor, io),
    });
  } catch (error) {
    unrepresentable.push({ field: '(root)', message: (error as Error).message, hint });
    return { document: {}, unrepresentable };
  }
  // Through JSON, as every other document: a converter may hand back a user's own values (a
  // default, examples), which the prepared tool, frozen, must not hold; keys left undefined go.
  const written: unknown = isSchemaObject(converted) ? JSON.parse(JSON.stringify(converted)) : converted;
  if (isSchemaObject(written)) unrepresentable.push(...unshown(written, standard.vendor, hint));
  const shown = isSchemaObject(written)
    ? mapSchema(written, (node) =>
        typeof node[MARK] === 'string'
          ? {}
          : isEmptyEnum(node)
            ? nothing(node)
            : leavesOutProto(node)
              ? { ...node, properties: withOwn(node.properties as object, PROTO, {}) }
              : node,
      )
    : written;
  const marked = schemaKeyFirst(shown as Record<string, unknown>);
  // Unions then stand where they are used, for their tags to be seen.
  const document = mapSchema(inlineAcyclicReferences(marked), exclusiveUnion) as Record<string, unknown>;
  return { document, unrepresentable };
}

/** An enum of no member (Valibot's `picklist([])`, ArkType's `never`): a document Ajv refuses. */
function isEmptyEnum(node: JsonSchema): boolean {
  return Array.isArray(node.enum) && node.enum.length === 0;
}

/** What takes no value, as Zod's converter writes it (`{ not: {} }`), with its annotations kept. */
function nothing(node: JsonSchema): JsonSchema {
  const kept = Object.fromEntries(
    ['title', 'description'].flatMap((key) => (Object.hasOwn(node, key) ? [[key, node[key]]] : [])),
  );
  return { not: {}, ...kept };
}

/**
 * What the converter marked as not shown, and the `__proto__` fields it left out, in the order it
 * wrote them (the contract's, not the walker's keywords); a field left out is told after the
 * fields kept beside it.
 */
function unshown(converted: JsonSchema, vendor: string, hint: string): UnrepresentableNode[] {
  const found: { order: number[]; node: UnrepresentableNode }[] = [];
  walkSchema(converted, (node, { path }) => {
    const mark = node[MARK];
    if (typeof mark === 'string') {
      found.push({ order: keyOrder(converted, path), node: { field: fieldPath(path), message: mark, hint } });
      return false;
    }
    if (leavesOutProto(node))
      found.push({
        order: [...keyOrder(converted, path), Number.POSITIVE_INFINITY],
        node: {
          field: fieldPath([...path, 'properties', PROTO]),
          message: `a field named "${PROTO}" is left out by ${vendor}'s JSON Schema converter`,
          hint: `rename the field, or set unrepresentable: 'degrade' to show it as {}`,
        },
      });
    return true;
  });
  return found.sort((a, b) => compareOrders(a.order, b.order)).map(({ node }) => node);
}

/**
 * A converter that writes `properties[name] = schema` sets a prototype for a field named
 * `__proto__`: the field is required and not declared, and its schema is lost. Reported, and
 * shown as `{}` where that is asked for. (Left out when optional, it leaves no trace to tell.)
 */
function leavesOutProto({ properties, required }: JsonSchema): boolean {
  return (
    Array.isArray(required) &&
    required.includes(PROTO) &&
    isRecord(properties) &&
    !Object.hasOwn(properties, PROTO)
  );
}

/** Where a place is in the document's own key order: the position of each step of its path. */
function keyOrder(document: JsonSchema, path: SchemaPath): number[] {
  let node: unknown = document;
  return path.map((step) => {
    const key = String(step);
    const position = Object.keys(node as object).indexOf(key);
    node = getOwn(node as Record<string, unknown>, key);
    return position;
  });
}

function compareOrders(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index++)
    if (a[index] !== b[index]) return (a[index] as number) - (b[index] as number);
  return a.length - b.length;
}

/** `anyOf` objects that one required key's distinct tags tell apart take exactly one: `oneOf`. */
function exclusiveUnion(schema: JsonSchema): JsonSchema {
  const options = schema.anyOf;
  if (!Array.isArray(options) || options.length < 2 || discriminatorOf(options) === undefined) return schema;
  const { anyOf: _anyOf, ...rest } = schema;
  return { ...rest, oneOf: options };
}

const isObjectOption = (option: unknown): option is Record<string, unknown> =>
  typeof option === 'object' &&
  option !== null &&
  (option as Record<string, unknown>).type === 'object' &&
  typeof (option as Record<string, unknown>).properties === 'object';

/**
 * The required key whose constant or enum string values tell every option apart, if one does.
 * With `others`, options that are not objects (a `null`, a string) may stand beside the objects,
 * as in a nullable discriminated union: a value of theirs has no tag to tell.
 */
export function discriminatorOf(options: readonly unknown[], others = false): string | undefined {
  const objects = options.filter(isObjectOption);
  if (objects.length < 2 || (!others && objects.length !== options.length)) return undefined;
  const required = objects.map((option) =>
    Array.isArray(option.required) ? (option.required as string[]) : [],
  );
  const candidates = (required[0] ?? []).filter((key) => required.every((keys) => keys.includes(key))).sort();
  return candidates.find((key) => {
    const seen = new Set<unknown>();
    return objects.every((option) => {
      const tags = tagsOfJson(getOwn(option.properties as Record<string, unknown>, key));
      if (!tags?.length || tags.some((tag) => typeof tag !== 'string' || seen.has(tag))) return false;
      for (const tag of tags) seen.add(tag);
      return true;
    });
  });
}

/** The values a JSON Schema limits a value to by `const` or `enum`. */
export function tagsOfJson(schema: unknown): readonly unknown[] | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const record = schema as Record<string, unknown>;
  if ('const' in record) return [record.const];
  return Array.isArray(record.enum) ? record.enum : undefined;
}
