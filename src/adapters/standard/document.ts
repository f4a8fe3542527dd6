import { inlineAcyclicReferences, schemaKeyFirst } from '../documents.js';
import { fieldPath } from '../field-path.js';
import type { Dialect, UnrepresentableNode } from '../types.js';

/** A schema that implements Standard Schema and Standard JSON Schema. */
export interface StandardJsonSchema {
  readonly '~standard': {
    readonly vendor: string;
    validate(value: unknown): unknown;
    readonly jsonSchema?: {
      input(options: { target: string; libraryOptions?: unknown }): Record<string, unknown>;
      output(options: { target: string; libraryOptions?: unknown }): Record<string, unknown>;
    };
  };
}

/** A Standard Schema library toolprep reads: any but Zod, which has adapters of its own. */
export function isStandardJsonSchema(value: unknown): value is StandardJsonSchema {
  const standard = (value as StandardJsonSchema | null)?.['~standard'];
  return typeof standard?.jsonSchema?.input === 'function' && standard.vendor !== 'zod';
}

/** Where a vendor's converter is told to mark what JSON Schema cannot show. */
const MARK = 'x-toolprep-unrepresentable';
const mark = (what: string) => ({ [MARK]: `${what} cannot be represented in JSON Schema` });

/** Valibot 1.x's converter (`@valibot/to-json-schema`) handles these schema types, and no others. */
const VALIBOT_SCHEMAS = new Set(
  'boolean null number string array tuple tuple_with_rest loose_tuple strict_tuple object object_with_rest loose_object strict_object record any unknown never nullable nullish exact_optional optional undefinedable literal enum picklist union variant intersect lazy'.split(
    ' ',
  ),
);

const WORDS: Record<string, string> = {
  date: 'Date',
  bigint: 'BigInt',
  symbol: 'Symbols',
  undefined: 'Undefined',
  map: 'Map',
  set: 'Set',
  function: 'Function types',
};

/**
 * What each vendor's converter needs to be told so that a node it cannot show is marked, never
 * shown as a silent `{}`, and a refinement stays hidden (as Zod's are). A vendor not listed here
 * is converted as it converts itself: only what it throws for is reported.
 */
function vendorOptions(vendor: string, io: 'input' | 'output'): unknown {
  switch (vendor) {
    case 'arktype':
      return {
        fallback: {
          date: () => mark('Date'),
          domain: ({ domain }: { domain: string }) => mark(WORDS[domain] ?? domain),
          proto: ({ proto }: { proto: { name: string } }) => mark(`${proto.name} instances`),
          unit: () => mark('Literal `undefined`'),
          morph: ({ base }: { base: unknown }) => (io === 'output' ? mark('Transforms') : base),
          predicate: ({ base }: { base: unknown }) => base,
        },
      };
    case 'valibot':
      return {
        errorMode: 'ignore',
        overrideSchema: ({ valibotSchema }: { valibotSchema: { type: string } }) =>
          VALIBOT_SCHEMAS.has(valibotSchema.type)
            ? undefined
            : mark(WORDS[valibotSchema.type] ?? valibotSchema.type),
      };
    default:
      return undefined;
  }
}

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
    return Object.fromEntries(
      Object.entries(record).map(([key, child]) => [key, walk(child, [...path, key])]),
    );
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
      const tags = tagsOfJson((option.properties as Record<string, unknown>)[key]);
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
