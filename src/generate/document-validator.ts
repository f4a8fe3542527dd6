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
 * optimises the generated code is skipped.
 */
const OPTIONS = {
  strict: false,
  validateFormats: false,
  ownProperties: true,
  code: { optimize: false },
} as const;
let validators: { draft2020: Ajv2020; draft07: Ajv } | undefined;

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
 * it is compiled once, without its `$schema`, for every document of the same text.
 */
export function compileDocument(document: JsonSchema): DocumentValidator {
  validators ??= { draft2020: new Ajv2020(OPTIONS), draft07: new Ajv(OPTIONS) };
  const { $schema, ...rest } = standInSchema(document);
  const body = JSON.stringify(rest);
  const draft07 = String($schema).includes('draft-07');
  const neutral = !DIALECT_KEYWORDS.test(body);
  const key = neutral ? body : `${draft07 ? 'draft-07' : '2020-12'}\u0000${String($schema)}\u0000${body}`;
  let validate = compiledByText.get(key);
  if (!validate) {
    const ajv = draft07 && !neutral ? validators.draft07 : validators.draft2020;
    validate = ajv.compile((neutral || $schema === undefined ? rest : { $schema, ...rest }) as object);
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

/** The document with each `__proto__` it names (a property, a required key, a key name, a value) stood in for. */
function standInSchema(document: JsonSchema): JsonSchema {
  return mapSchema(document, standInNode);
}

/** One node's own `__proto__` names stood in for (its subschemas are already). */
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
