import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { isSchemaObject, type JsonSchema } from '../shared/json-schema/schema.js';
import { mapSchema } from '../shared/json-schema/walk.js';
import { isRecord } from '../shared/run/is-record.js';
import { setOwn } from '../shared/run/own-property.js';

/**
 * A real validator (Ajv) for toolprep's documents, made to check every key a user may name: it
 * reads own properties only (`ownProperties`: a `constructor` a value leaves out is not Object's),
 * and it checks a `__proto__` key, which Ajv never checks and counts as an additional key, under a
 * stand-in name in the document and in the value alike. (A record's key pattern then meets the
 * stand-in: no document toolprep tests has one that a `__proto__` key would match.)
 */

const PROTO = '__proto__';
/** No field name has a NUL in it: Ajv reads this name where the document and the value say `__proto__`. */
const STAND_IN = '\u0000__proto__';

/**
 * Formats are annotations to a model (the parser decides them); the checks are about structure.
 * Each validator checks a few dozen values, so compiling is most of its cost: Ajv's pass that
 * optimises the generated code is skipped, and a shared property's validator is called, not
 * copied into each document's code (`inlineRefs: false`).
 */
const OPTIONS = {
  strict: false,
  validateFormats: false,
  ownProperties: true,
  inlineRefs: false,
  code: { optimize: false },
} as const;

/** A dialect's Ajv, and the ids it has the run's shared property subschemas under, by their text. */
interface Dialect {
  readonly ajv: Ajv;
  readonly sharedIds: Map<string, string>;
}
let dialects: { draft2020: Dialect; draft07: Dialect } | undefined;

/**
 * Keywords Ajv only carries, as an annotation, without `useDefaults` (never set here): documents
 * that differ in them alone validate alike, and many tools' fields differ only in descriptions.
 */
const ANNOTATION_KEYWORDS = new Set([
  'description',
  'title',
  'examples',
  'default',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/** What a validator says of the last value it refused: Ajv's errors, with `__proto__` named as it is. */
interface ValidationError {
  readonly instancePath: string;
  readonly message?: string;
}

export type DocumentValidator = ((value: unknown) => boolean) & {
  errors?: readonly ValidationError[] | null;
};

/**
 * Keywords whose meaning differs between draft-07 and 2020-12, or that name other schemas, as
 * JSON text finds them: only as a key (a quote inside a string is escaped), a property of that
 * name included, which only costs a document its sharing. `items` as a list is one of them.
 */
const DIALECT_KEYWORDS =
  /"(\$ref|\$defs|definitions|\$id|\$anchor|\$schema|\$dynamicRef|\$dynamicAnchor|\$recursiveRef|\$recursiveAnchor|\$vocabulary|prefixItems|additionalItems|dependencies|dependentRequired|dependentSchemas|unevaluatedProperties|unevaluatedItems|minContains|maxContains)":|"items":\[/;

/** Compiled validators by what was compiled: tools and their MCP and agent documents often share one. */
const compiledByText = new Map<string, (value: unknown) => unknown>();
/** A watcher's run compiles its changed tools' documents: the oldest are forgotten past this many. */
const COMPILED_KEPT = 2_000;

/**
 * Compiles a document for its own dialect (2020-12, or draft-07 where its `$schema` says so). A
 * document with none of the keywords the two dialects read differently means the same in both:
 * it is compiled once, without its `$schema`, for every document of the same text. The text is
 * read without annotations, and each property's subschema is compiled once for every document.
 */
export function compileDocument(document: JsonSchema): DocumentValidator {
  dialects ??= {
    draft2020: { ajv: new Ajv2020(OPTIONS), sharedIds: new Map() },
    draft07: { ajv: new Ajv(OPTIONS), sharedIds: new Map() },
  };
  // A pointer into the document past its definitions may name an annotation or a property's
  // subschema: such a document is compiled as it is, neither stripped nor shared.
  const pointsInside = INNER_POINTER.test(JSON.stringify(document));
  const { $schema, ...rest } = mapSchema(document, pointsInside ? standInNode : validatedNode);
  const body = JSON.stringify(rest);
  const draft07 = String($schema).includes('draft-07');
  const neutral = !DIALECT_KEYWORDS.test(body);
  const key = neutral ? body : `${draft07 ? 'draft-07' : '2020-12'}\u0000${String($schema)}\u0000${body}`;
  let validate = compiledByText.get(key);
  if (!validate) {
    const dialect = draft07 && !neutral ? dialects.draft07 : dialects.draft2020;
    const shared = pointsInside ? rest : withSharedProperties(rest, dialect);
    validate = dialect.ajv.compile(
      (neutral || $schema === undefined ? shared : { $schema, ...shared }) as object,
    );
    if (compiledByText.size >= COMPILED_KEPT)
      compiledByText.delete(compiledByText.keys().next().value as string);
    compiledByText.set(key, validate);
  }
  const compiled = validate as ((value: unknown) => boolean) & { errors?: readonly ValidationError[] | null };
  const check: DocumentValidator = (value) => {
    const valid = compiled(standInValue(value));
    check.errors = compiled.errors?.map((error) => ({
      ...error,
      instancePath: error.instancePath.replaceAll(STAND_IN, PROTO),
    }));
    return valid;
  };
  return check;
}

const standIn = (key: unknown): unknown => (key === PROTO ? STAND_IN : key);

/** The value with every `__proto__` key, at any depth, under the stand-in name. */
function standInValue(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(standInValue);
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  if (!isRecord(value)) return value;
  let changed = false;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const walked = standInValue(item);
    changed ||= walked !== item || key === PROTO;
    setOwn(copy, key === PROTO ? STAND_IN : key, walked);
  }
  return changed ? copy : value;
}

/** A `$ref` other than `#`, `#/$defs/name` and `#/definitions/name`, as JSON text writes it. */
const INNER_POINTER = /"\$ref":"#\/(?!(?:\$defs|definitions)\/[^/"]*")/;

/** One node as Ajv is given it (its subschemas are already): without annotations, stood in for. */
function validatedNode(schema: JsonSchema): JsonSchema {
  return standInNode(
    Object.fromEntries(Object.entries(schema).filter(([keyword]) => !ANNOTATION_KEYWORDS.has(keyword))),
  );
}

/** One node with each `__proto__` it names (a property, a required key, a key name, a value) stood in for. */
function standInNode(schema: JsonSchema): JsonSchema {
  const node: Record<string, unknown> = { ...schema };
  const { properties } = node;
  if (isSchemaObject(properties) && Object.hasOwn(properties, PROTO))
    node.properties = Object.fromEntries(
      Object.entries(properties).map(([key, child]) => [standIn(key), child]),
    );
  if (Array.isArray(node.required)) node.required = node.required.map(standIn);
  if ('const' in node) node.const = standInValue(node.const);
  if (Array.isArray(node.enum)) node.enum = node.enum.map(standInValue);
  const names = node.propertyNames;
  // The key names a record takes are strings in its `propertyNames`.
  if (isSchemaObject(names))
    node.propertyNames = {
      ...names,
      ...(Array.isArray(names.enum) ? { enum: names.enum.map(standIn) } : {}),
      ...(typeof names.const === 'string' ? { const: standIn(names.const) } : {}),
    };
  return node;
}

/**
 * The schema with each property's subschema compiled once for the run, in the dialect, and named
 * by a `$ref`: tools repeat a few field shapes, and compiling is most of the proof's cost. A
 * subschema that names other schemas, or that the dialects read differently, stays in place.
 */
function withSharedProperties(schema: JsonSchema, dialect: Dialect): JsonSchema {
  const { properties } = schema;
  if (!isSchemaObject(properties)) return schema;
  const shared: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(properties))
    setOwn(shared, name, isSchemaObject(child) ? sharedReference(child, dialect) : child);
  return { ...schema, properties: shared };
}

function sharedReference(child: JsonSchema, dialect: Dialect): JsonSchema {
  const text = JSON.stringify(child);
  if (DIALECT_KEYWORDS.test(text)) return child;
  let id = dialect.sharedIds.get(text);
  if (id === undefined) {
    const body = withSharedProperties(child, dialect);
    id = `toolprep:property/${dialect.sharedIds.size}`;
    dialect.ajv.addSchema(body as object, id);
    dialect.sharedIds.set(text, id);
  }
  return { $ref: id };
}
