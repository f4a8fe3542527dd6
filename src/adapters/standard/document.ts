import { isRecord } from '../../shared/run/is-record.js';
import { getOwn, withOwn } from '../../shared/run/own-property.js';
import { inlineAcyclicReferences, schemaKeyFirst } from '../documents.js';
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
  const walk = (value: unknown, path: string[]): unknown => {
    if (Array.isArray(value)) return value.map((item, index) => walk(item, [...path, String(index)]));
    if (typeof value !== 'object' || value === null) return value;
    const record = value as Record<string, unknown>;
    if (typeof record[MARK] === 'string') {
      unrepresentable.push({ field: fieldPath(path), message: record[MARK], hint });
      return {};
    }
    return declareLeftOut(
      Object.fromEntries(Object.entries(record).map(([key, child]) => [key, walk(child, [...path, key])])),
      path,
    );
  };
  // A converter that writes `properties[name] = schema` sets a prototype for a field named
  // `__proto__`: the field is required and not declared, and its schema is lost. Reported, and
  // shown as `{}` where that is asked for. (Left out when optional, it leaves no trace to tell.)
  const declareLeftOut = (node: Record<string, unknown>, path: string[]): Record<string, unknown> => {
    const { properties, required } = node;
    if (!Array.isArray(required) || !required.includes(PROTO) || !isRecord(properties)) return node;
    if (Object.hasOwn(properties, PROTO)) return node;
    unrepresentable.push({
      field: fieldPath([...path, 'properties', PROTO]),
      message: `a field named "${PROTO}" is left out by ${standard.vendor}'s JSON Schema converter`,
      hint: `rename the field, or set unrepresentable: 'degrade' to show it as {}`,
    });
    return { ...node, properties: withOwn(properties, PROTO, {}) };
  };
  const marked = schemaKeyFirst(walk(converted, []) as Record<string, unknown>);
  // Unions then stand where they are used, for their tags to be seen.
  const document = exclusiveUnions(inlineAcyclicReferences(marked)) as Record<string, unknown>;
  return { document, unrepresentable };
}

function exclusiveUnions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(exclusiveUnions);
  if (typeof value !== 'object' || value === null) return value;
  const walked = Object.fromEntries(
    Object.entries(value).map(([key, child]) => [key, exclusiveUnions(child)]),
  );
  return exclusiveUnion(walked);
}

/** `anyOf` objects that one required key's distinct tags tell apart take exactly one: `oneOf`. */
function exclusiveUnion(schema: Record<string, unknown>): Record<string, unknown> {
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
