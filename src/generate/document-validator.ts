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

/** Compiles a document for its own dialect (2020-12, or draft-07 where its `$schema` says so). */
export function compileDocument(document: JsonSchema): DocumentValidator {
  validators ??= { draft2020: new Ajv2020(OPTIONS), draft07: new Ajv(OPTIONS) };
  const ajv = String(document.$schema).includes('draft-07') ? validators.draft07 : validators.draft2020;
  const validate = ajv.compile(standInSchema(document) as object);
  const check: DocumentValidator = (value) => {
    const valid = validate(standInValue(value)) as boolean;
    check.errors = validate.errors?.map((error) => ({
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
