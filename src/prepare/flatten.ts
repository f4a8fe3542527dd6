import { type JsonKind, kindOfValue, provableKinds, schemaOfKinds } from '../shared/json-schema/kinds.js';
import { propertyOf, requiredKeys } from '../shared/json-schema/records.js';
import { isSchemaObject, type JsonSchema } from '../shared/json-schema/schema.js';
import { mapSchema } from '../shared/json-schema/walk.js';
import { canonicalJson } from '../shared/run/canonical-text.js';
import { getOwn, setOwn } from '../shared/run/own-property.js';

/** Keywords that describe a value without constraining it; merging compares shapes without them. */
const ANNOTATION_KEYS = ['description', 'title', 'default', 'examples'] as const;
const IGNORED_IN_SHAPE = new Set<string>([
  ...ANNOTATION_KEYS,
  'readOnly',
  'writeOnly',
  'deprecated',
  '$comment',
]);

interface Variant {
  readonly properties: Record<string, JsonSchema>;
  readonly required: ReadonlySet<string>;
  readonly additionalProperties: unknown;
  readonly tags: readonly string[];
}

/**
 * Projects discriminated `oneOf` unions, at any depth, onto one object each, so that clients and
 * providers that cannot take a union at the top of a tool input can, and nullable literals and
 * enums onto one type list. The result accepts a superset of the nominal values the source
 * accepts; the source document is never mutated and the result does not depend on the order of
 * the variants. See docs/decisions/0001-flatten-discriminated-unions.md.
 */
export function flattenUnions(schema: JsonSchema): JsonSchema {
  return mapSchema(schema, (node) => flattenNode(node) ?? nullableValues(node) ?? node);
}

/** What a `type` a bare `const` or `enum` member names takes of its values' kinds. */
const TYPE_TAKES: Readonly<Record<string, readonly JsonKind[]>> = {
  string: ['string'],
  number: ['number', 'integer'],
  integer: ['integer'],
  boolean: ['boolean'],
};

/**
 * A nullable literal or enum, the `anyOf` of its values and `{ type: "null" }`, as one node without
 * a union: `{ type: ["string", "null"], enum: ["x", null] }` takes exactly what the union takes
 * (2020-12 and draft-07 alike) and reads as a plain field to clients and providers that take no
 * union. Only where the values are of one kind, so that the type list is `[T, "null"]`, and the
 * members say nothing else.
 */
function nullableValues(node: JsonSchema): JsonSchema | undefined {
  const { anyOf, ...rest } = node;
  if (!Array.isArray(anyOf) || anyOf.length < 2) return undefined;
  // Beside these the union would be one assertion among others: merged, they would meet.
  if (['type', 'enum', 'const', 'oneOf', '$ref'].some((key) => key in rest)) return undefined;
  const values = new Set<unknown>();
  const kinds = new Set<string>();
  let takesNull = false;
  for (const member of anyOf) {
    if (!isSchemaObject(member)) return undefined;
    if (Object.keys(member).length === 1 && member.type === 'null') {
      takesNull = true;
      continue;
    }
    const listed = listedValues(member);
    if (!listed) return undefined;
    for (const value of listed) {
      if (value === null) takesNull = true;
      else {
        kinds.add(typeof value);
        values.add(value);
      }
    }
  }
  const [kind, ...others] = kinds;
  if (!takesNull || kind === undefined || others.length > 0) return undefined;
  return { type: [kind, 'null'], enum: [...values, null], ...rest };
}

/**
 * The values a bare `const` or `enum` member lists, each of a kind its `type` (if any) takes; or
 * undefined for a member that says more, or lists an object or a list.
 */
function listedValues(member: JsonSchema): readonly unknown[] | undefined {
  const { type, const: constant, enum: listed, ...more } = member;
  if (Object.keys(more).length > 0 || ('const' in member && listed !== undefined)) return undefined;
  const values = 'const' in member ? [constant] : listed;
  if (!Array.isArray(values) || values.length === 0) return undefined;
  const takes =
    type === undefined ? [...Object.values(TYPE_TAKES).flat(), 'null'] : getOwn(TYPE_TAKES, String(type));
  return values.every((value) => takes?.includes(kindOfValue(value))) ? values : undefined;
}

function flattenNode(node: JsonSchema): JsonSchema | undefined {
  const { oneOf, $schema, ...rest } = node;
  if (!Array.isArray(oneOf) || oneOf.length < 2 || !oneOf.every(isObjectVariant)) return undefined;
  // A union that also declares its own fields is not a plain choice between objects.
  if ('properties' in rest || 'required' in rest) return undefined;
  const discriminator = findDiscriminator(oneOf);
  if (discriminator === undefined) return undefined;

  const variants = oneOf
    .map(
      (schema): Variant => ({
        properties: schema.properties as Record<string, JsonSchema>,
        required: new Set(requiredKeys(schema)),
        additionalProperties: schema.additionalProperties,
        tags: tagsOf(propertyOf(schema, discriminator)) ?? [],
      }),
    )
    .sort((a, b) => compareText(smallestTag(a), smallestTag(b)));

  const properties: Record<string, JsonSchema> = {
    [discriminator]: {
      type: 'string',
      enum: variants.flatMap((variant) => variant.tags),
      ...agreedAnnotations(variants.map((variant) => variant.properties[discriminator] as JsonSchema)),
    },
  };
  const required = [discriminator];
  const allTags = variants.flatMap((variant) => variant.tags);
  for (const key of fieldOrder(variants, discriminator)) {
    // Field names are a user's: `constructor` is no variant's field unless it declares it.
    const having = variants.filter((variant) => Object.hasOwn(variant.properties, key));
    const requiring = variants.filter((variant) => variant.required.has(key));
    const field = mergeFieldSchemas(having.map((variant) => variant.properties[key] as JsonSchema));
    if (requiring.length === variants.length) {
      required.push(key);
      setOwn(properties, key, field);
      continue;
    }
    const tags = (requiring.length > 0 ? requiring : having).flatMap((variant) => variant.tags);
    const hint =
      requiring.length > 0
        ? `Required if ${discriminator} = ${tags.join(' | ')}`
        : tags.length < allTags.length
          ? `Available if ${discriminator} = ${tags.join(' | ')}`
          : undefined;
    setOwn(properties, key, hint ? withHint(field, hint) : field);
  }

  const strict = variants.every((variant) => variant.additionalProperties === false);
  const { additionalProperties: _open, type: _type, ...annotations } = rest;
  return {
    ...($schema === undefined ? {} : { $schema }),
    type: 'object',
    properties,
    required,
    ...(strict ? { additionalProperties: false } : {}),
    ...annotations,
  };
}

/**
 * A root union whose members are all objects (a plain `z.union`, or a discriminated union with no
 * tag to flatten by) merged into one object, for clients and providers that refuse a union at the
 * top of a tool input (Anthropic, OpenAI strict, Gemini): every member's fields, each required
 * only where every member requires it, a field the members declare differently as the `anyOf` of
 * its distinct shapes. The result accepts a superset of what the union accepts; the forms the
 * members make are listed in the description. Any other root is returned as it is.
 */
export function mergeRootUnion(document: JsonSchema): JsonSchema {
  const { anyOf, oneOf, $schema, type: _type, ...rest } = document;
  const members = anyOf ?? oneOf;
  if (!Array.isArray(members) || members.length < 2 || !members.every(isObjectVariant)) return document;
  if ('properties' in rest || 'required' in rest) return document;
  const required = members.map((member) => new Set(requiredKeys(member)));
  const keys = [...new Set(members.flatMap((member) => Object.keys(member.properties)))];
  const forms = members.map((member, index) => `${index + 1}) ${Object.keys(member.properties).join(', ')}`);
  const properties: Record<string, JsonSchema> = {};
  for (const key of keys) {
    const declaring = members.flatMap((member, index) =>
      Object.hasOwn(member.properties, key) ? [index] : [],
    );
    const shapes = declaring.map((index) => members[index]?.properties[key] as JsonSchema);
    const field = distinctShapes(shapes);
    const requiring = declaring.filter((index) => required[index]?.has(key));
    const hint =
      requiring.length === members.length
        ? undefined
        : requiring.length > 0
          ? `Required in form ${requiring.map((index) => index + 1).join(', ')}`
          : declaring.length < members.length
            ? `Form ${declaring.map((index) => index + 1).join(', ')} only`
            : undefined;
    setOwn(properties, key, hint ? withHint(field, hint) : field);
  }
  const strict = members.every((member) => member.additionalProperties === false);
  const formsText = `One of ${members.length} forms: ${forms.join('; ')}.`;
  const description = typeof rest.description === 'string' ? `${rest.description} ${formsText}` : formsText;
  return {
    ...($schema === undefined ? {} : { $schema }),
    type: 'object',
    properties,
    required: keys.filter((key) => required.every((keysOfMember) => keysOfMember.has(key))),
    ...(strict ? { additionalProperties: false } : {}),
    ...rest,
    description,
  };
}

/** One schema where every shape is the same (annotations aside), else the `anyOf` of the distinct ones. */
function distinctShapes(schemas: readonly JsonSchema[]): JsonSchema {
  const distinct = new Map<string, JsonSchema>();
  for (const schema of schemas) {
    const shape = canonicalJson(withoutAnnotations(schema));
    if (!distinct.has(shape)) distinct.set(shape, schema);
  }
  if (distinct.size === 1)
    return { ...withoutAnnotations(schemas[0] as JsonSchema), ...agreedAnnotations(schemas) };
  return { anyOf: [...distinct.values()].map(withoutAnnotations), ...agreedAnnotations(schemas) };
}

function isObjectVariant(value: unknown): value is JsonSchema & { properties: Record<string, unknown> } {
  return isSchemaObject(value) && value.type === 'object' && isSchemaObject(value.properties);
}

/** A key required by every variant, tagged by string consts or enums, no tag in two variants. */
function findDiscriminator(
  variants: readonly (JsonSchema & { properties: Record<string, unknown> })[],
): string | undefined {
  const [first, ...others] = variants.map(requiredKeys);
  const candidates = (first ?? [])
    .filter((key) => others.every((required) => required.includes(key)))
    .sort(compareText);
  return candidates.find((key) => {
    const seen = new Set<string>();
    for (const variant of variants) {
      const tags = tagsOf(propertyOf(variant, key));
      if (!tags) return false;
      for (const tag of tags) {
        if (seen.has(tag)) return false;
        seen.add(tag);
      }
    }
    return true;
  });
}

/** The string values a schema is limited to by `const` or `enum`, or undefined. */
function tagsOf(schema: unknown): string[] | undefined {
  if (!isSchemaObject(schema)) return undefined;
  if (typeof schema.const === 'string') return [schema.const];
  const values = schema.enum;
  if (Array.isArray(values) && values.length > 0 && values.every((value) => typeof value === 'string')) {
    return values as string[];
  }
  return undefined;
}

function smallestTag(variant: Variant): string {
  return [...variant.tags].sort(compareText)[0] ?? '';
}

function fieldOrder(variants: readonly Variant[], discriminator: string): string[] {
  const keys = new Set<string>();
  for (const variant of variants) for (const key of Object.keys(variant.properties)) keys.add(key);
  keys.delete(discriminator);
  return [...keys];
}

/** One schema for a field that several variants declare, accepting everything each of them does. */
function mergeFieldSchemas(schemas: readonly JsonSchema[]): JsonSchema {
  const shapes = schemas.map(withoutAnnotations);
  const firstShape = shapes[0] as JsonSchema;
  const sameShape = shapes.every((shape) => canonicalJson(shape) === canonicalJson(firstShape));
  return { ...mergedShape(schemas, sameShape ? firstShape : undefined), ...agreedAnnotations(schemas) };
}

function mergedShape(schemas: readonly JsonSchema[], sharedShape: JsonSchema | undefined): JsonSchema {
  if (sharedShape) return sharedShape;
  const tagLists = schemas.map(tagsOf);
  if (tagLists.every((tags) => tags !== undefined)) {
    return { type: 'string', enum: [...new Set(tagLists.flat())] };
  }
  const kinds = new Set<JsonKind>();
  for (const schema of schemas) {
    const schemaKinds = provableKinds(schema);
    if (!schemaKinds) return {};
    for (const kind of schemaKinds) kinds.add(kind);
  }
  return schemaOfKinds(kinds);
}

function withoutAnnotations(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !IGNORED_IN_SHAPE.has(key)));
}

/** Each annotation that every schema carrying it agrees on. */
function agreedAnnotations(schemas: readonly JsonSchema[]): Record<string, unknown> {
  const agreed: Record<string, unknown> = {};
  for (const key of ANNOTATION_KEYS) {
    const values = schemas.filter((schema) => key in schema).map((schema) => schema[key]);
    if (values.length > 0 && values.every((value) => canonicalJson(value) === canonicalJson(values[0]))) {
      agreed[key] = values[0];
    }
  }
  return agreed;
}

function withHint(schema: JsonSchema, hint: string): JsonSchema {
  const description = typeof schema.description === 'string' ? `${schema.description} (${hint})` : hint;
  return { ...schema, description };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
