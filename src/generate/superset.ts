import type { PreparedTool } from '../manifest/prepared-tool.js';
import type { ProfileName } from '../manifest/profiles.js';
import { type Definitions, definitionsOf } from '../shared/json-schema/definitions.js';
import { unionMembers } from '../shared/json-schema/kinds.js';
import { propertiesOf, propertyOf } from '../shared/json-schema/records.js';
import { isSchemaObject, type JsonSchema } from '../shared/json-schema/schema.js';
import { mapSchema } from '../shared/json-schema/walk.js';
import { setOwn } from '../shared/run/own-property.js';
import { compileDocument, type DocumentValidator } from './document-validator.js';

/**
 * The superset, proven on a user's contract: each value the contract accepts must validate against
 * every document toolprep emits for the tool (the MCP one, the agent one, each profile's), checked
 * with a real validator. The values come from the library's own JSON Schema of the contract, not
 * from toolprep's documents, so that a pass of toolprep's that narrows a document is caught.
 */

/** A document of toolprep's that refuses a value its contract accepts: a bug in toolprep. */
export interface SupersetViolation {
  /** `mcp`, `agent`, or the profile whose document refuses it. */
  readonly document: string;
  readonly value: unknown;
  /** The validator's first error: where, and what. */
  readonly message: string;
}

const compiled = new WeakMap<object, DocumentValidator>();

function validatorOf(document: JsonSchema): DocumentValidator {
  let validate = compiled.get(document);
  if (!validate) {
    validate = compileDocument(document);
    compiled.set(document, validate);
  }
  return validate;
}

const branchValidators = new WeakMap<object, (value: unknown) => boolean>();

/** A union branch's validator, with its document's definitions: compiled once per branch. */
function branchValidatorOf(branch: JsonSchema, root: JsonSchema): (value: unknown) => boolean {
  let validate = branchValidators.get(branch);
  if (!validate) {
    validate = validatorOf({ ...branch, $defs: root.$defs } as JsonSchema);
    branchValidators.set(branch, validate);
  }
  return validate;
}

function firstError(validate: DocumentValidator): string {
  const [error] = validate.errors ?? [];
  return error ? `${error.instancePath || '(root)'} ${error.message ?? 'is refused'}` : 'is refused';
}

/** Every document the tool is shown in, as a validator reads it, with what a model sends for a value. */
function documentsOf(
  tool: PreparedTool,
): { name: string; document: JsonSchema; sent: (value: unknown) => unknown }[] {
  const asIs = (value: unknown) => value;
  return [
    { name: 'mcp', document: tool.inputSchema.mcp, sent: asIs },
    { name: 'agent', document: tool.inputSchema.agent, sent: asIs },
    ...Object.entries(tool.profiles ?? {}).map(([profile, { inputSchema }]) => {
      const document = (
        profile === 'gemini-openapi' ? openapiAsJsonSchema(inputSchema) : inputSchema
      ) as JsonSchema;
      // OpenAI's strict mode requires every key: a model sends `null` for each one it leaves out.
      const sent =
        (profile as ProfileName) === 'openai-strict'
          ? (value: unknown) => withNulls(value, document, document, definitionsOf(document))
          : asIs;
      return { name: profile, document, sent };
    }),
  ];
}

/** The values among `accepted` that one of the tool's documents refuses, at most one per document. */
export function supersetViolations(tool: PreparedTool, accepted: readonly unknown[]): SupersetViolation[] {
  const violations: SupersetViolation[] = [];
  for (const { name, document, sent } of documentsOf(tool)) {
    const validate = validatorOf(document);
    const refused = accepted.find((value) => !validate(sent(value)));
    if (refused !== undefined) {
      validate(sent(refused));
      violations.push({ document: name, value: refused, message: firstError(validate) });
    }
  }
  return violations;
}

/**
 * The value with `null` for every key an object of the document declares and the value leaves out.
 * `root` is the document, `definitions` its definitions.
 */
function withNulls(value: unknown, node: unknown, root: JsonSchema, definitions: Definitions): unknown {
  const schema = definitions.resolve(node) as JsonSchema | undefined;
  if (!schema || value === null || typeof value !== 'object') return value;
  const branches = unionMembers(schema) as JsonSchema[] | undefined;
  if (branches) {
    // The branch the value is for: the first whose answer it then validates against.
    for (const branch of branches) {
      const answer = withNulls(value, branch, root, definitions);
      if (branchValidatorOf(branch, root)(answer)) return answer;
    }
    return value;
  }
  if (Array.isArray(value)) {
    const prefix = schema.prefixItems as JsonSchema[] | undefined;
    return value.map((item, index) => withNulls(item, prefix?.[index] ?? schema.items, root, definitions));
  }
  const record = value as Record<string, unknown>;
  const answer: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record))
    setOwn(
      answer,
      key,
      withNulls(item, propertyOf(schema, key) ?? schema.additionalProperties, root, definitions),
    );
  for (const key of Object.keys(propertiesOf(schema)))
    if (!Object.hasOwn(record, key)) setOwn(answer, key, null);
  return answer;
}

/**
 * Gemini's `parameters` (OpenAPI 3.0) read as JSON Schema: `nullable: true` takes `null` beside
 * the type and the enum.
 */
export function openapiAsJsonSchema(document: unknown): unknown {
  return isSchemaObject(document) ? mapSchema(document, nullableAsNull) : document;
}

function nullableAsNull(node: JsonSchema): JsonSchema {
  if (!('nullable' in node)) return node;
  const { nullable, ...read } = node;
  if (nullable !== true) return read;
  return {
    ...read,
    ...(typeof read.type === 'string' ? { type: [read.type, 'null'] } : {}),
    ...(Array.isArray(read.enum) ? { enum: [...read.enum, null] } : {}),
    ...(Array.isArray(read.anyOf) ? { anyOf: [...read.anyOf, { type: 'null' }] } : {}),
  };
}
