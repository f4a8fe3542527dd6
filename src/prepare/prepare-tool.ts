import type { $ZodType } from 'zod/v4/core';
import type { NameRule } from '../contract/names.js';
import type { ToolContract } from '../contract/types.js';
import type { JsonSchema, PreparedTool } from '../manifest/types.js';
import { deepFreeze, digestOf } from './canonical.js';
import { checkContract } from './check-contract.js';
import { compilePlan } from './compile-plan.js';
import { flattenUnions } from './flatten.js';
import { DEFS_KEY, type Dialect, isSchemaObject } from './json-schema.js';
import { declaredKeys, mergeParamsIntoInput } from './merge-params.js';
import { convertSchema } from './present.js';
import { type ToolProblem, ToolprepPrepareError } from './problems.js';

export interface PrepareToolOptions {
  /** The export the contract was found under; gives the default name. */
  exportName?: string;
  /** A description to use when the contract has none (JSDoc on the export). */
  description?: string;
  /** Project discriminated unions onto one object in every document. Default `true`. */
  flatten?: boolean;
  /** Which tool names are accepted. Default `'strict'`: `^[a-zA-Z0-9_-]{1,64}$`. */
  names?: NameRule;
  /** What a node JSON Schema cannot show does: `'error'` (default) or `'degrade'` to `{}` with a warning. */
  unrepresentable?: 'error' | 'degrade';
  /**
   * Extension keys every tool accepts (a tenant, a session): a Zod object. They are advertised in
   * every document unless `advertise` is false, come first in the plan, and must not clash with a
   * key the contract declares. The runtime parses them with the same schema, before the contract.
   */
  extend?: { schema: $ZodType; advertise?: boolean };
  /** Receives warnings. Default: `console.warn`. */
  warn?: (message: string) => void;
}

type LeadingField = 'params' | 'extend';
/** What each leading object is called, and what it is merged with, in a clash. */
const LEADING_NAMES: Record<LeadingField, string> = {
  params: 'params and input',
  extend: 'the extension keys and the contract',
};

const DIALECTS: Record<keyof PreparedTool['inputSchema'], Dialect> = {
  mcp: 'draft-2020-12',
  agent: 'draft-07',
};

/**
 * Prepares one contract: checks it, converts its schemas to the frozen documents every consumer
 * shares, and digests the result. Throws a `ToolprepPrepareError` listing every problem found.
 */
export function prepareTool(
  contract: ToolContract | unknown,
  options: PrepareToolOptions = {},
): PreparedTool {
  const problems: ToolProblem[] = [];
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const identity = checkContract(
    contract,
    { exportName: options.exportName, description: options.description, names: options.names ?? 'strict' },
    problems,
  );
  if (!identity?.convertible) throw new ToolprepPrepareError(problems);
  const { input, params, output, annotations, meta } = contract as ToolContract;
  const tool = identity.name;

  const presentInput = (dialect: Dialect): JsonSchema => {
    const degrade = options.unrepresentable === 'degrade';
    const report = dialect === DIALECTS.mcp;
    const convert = (field: 'input' | LeadingField, schema: $ZodType): JsonSchema => {
      const { document, unrepresentable } = convertSchema(schema, dialect, 'input');
      for (const node of report ? unrepresentable : []) {
        const problem = { tool, field: `${field}.${node.field}`, message: node.message, hint: node.hint };
        if (degrade) warn(`[toolprep] tool "${tool}", ${problem.field}: ${node.message}; shown as {}`);
        else problems.push(problem);
      }
      return document;
    };
    let document = input ? convert('input', input) : emptyObject(dialect);
    if (input && report && !isObjectRoot(document, dialect)) {
      problems.push({
        tool,
        field: 'input',
        message: `must be a Zod object or a union of objects, not ${describeRoot(document)}`,
        hint: 'wrap the value in z.object({ ... })',
      });
    }
    // Leading objects are merged in front of input: params, then the extension keys every tool takes.
    const leading: [LeadingField, $ZodType | undefined][] = [
      ['params', params],
      ['extend', options.extend?.advertise === false ? undefined : options.extend?.schema],
    ];
    for (const [field, schema] of leading) {
      if (!schema) continue;
      const leadingDocument = convert(field, schema);
      const taken = declaredKeys(document);
      for (const key of report ? [...declaredKeys(leadingDocument)].filter((key) => taken.has(key)) : []) {
        problems.push({
          tool,
          field: `${field}.${key}`,
          message: `"${key}" is declared by both ${LEADING_NAMES[field]}`,
          hint: 'rename one of them',
        });
      }
      document = mergeParamsIntoInput(document, leadingDocument, dialect);
    }
    if (options.flatten ?? true) document = flattenUnions(document);
    if (document.type === 'object') return document;
    const { $schema, ...body } = document;
    return { $schema, type: 'object', ...body };
  };

  const inputSchema = { mcp: presentInput(DIALECTS.mcp), agent: presentInput(DIALECTS.agent) };
  if (problems.length > 0) throw new ToolprepPrepareError(problems);

  const prepared: Omit<PreparedTool, 'digest'> = {
    name: tool,
    description: identity.description,
    inputSchema,
    ...optional('outputSchema', output && presentOutput(tool, output, warn)),
    ...optional('annotations', annotations),
    ...optional('meta', meta),
    plan: compilePlan([
      ...(options.extend ? [{ key: 'extend', schema: options.extend.schema }] : []),
      ...(params ? [{ key: 'params', schema: params }] : []),
      ...(input ? [{ key: 'input', schema: input }] : []),
    ]),
  };
  return deepFreeze({ ...prepared, digest: digestOf(prepared) });
}

function presentOutput(
  tool: string,
  output: $ZodType,
  warn: (message: string) => void,
): JsonSchema | undefined {
  const { document, unrepresentable } = convertSchema(output, DIALECTS.mcp, 'output');
  const [first] = unrepresentable;
  if (first) {
    warn(
      `[toolprep] tool "${tool}", output.${first.field}: ${first.message}; the tool is listed without outputSchema (${first.hint})`,
    );
    return undefined;
  }
  if (document.type !== 'object') {
    warn(
      `[toolprep] tool "${tool}", output: MCP requires an object output schema, not ${describeRoot(document)}; the tool is listed without outputSchema (wrap it in z.object({ ... }))`,
    );
    return undefined;
  }
  return document;
}

function emptyObject(dialect: Dialect): JsonSchema {
  return {
    $schema:
      dialect === 'draft-07'
        ? 'http://json-schema.org/draft-07/schema#'
        : 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {},
  };
}

/** An object, or a union every branch of which is an object (following local references). */
function isObjectRoot(document: JsonSchema, dialect: Dialect): boolean {
  const defs = document[DEFS_KEY[dialect]];
  const isObject = (schema: unknown, depth: number): boolean => {
    if (!isSchemaObject(schema) || depth > 32) return false;
    if (schema.type === 'object') return true;
    const ref = schema.$ref;
    if (typeof ref === 'string' && isSchemaObject(defs))
      return isObject(defs[ref.split('/').pop() ?? ''], depth + 1);
    const branches = schema.anyOf ?? schema.oneOf;
    return (
      Array.isArray(branches) &&
      branches.length > 0 &&
      branches.every((branch) => isObject(branch, depth + 1))
    );
  };
  return isObject(document, 0);
}

function describeRoot(document: JsonSchema): string {
  if (document.type !== undefined) return `type ${JSON.stringify(document.type)}`;
  if (document.anyOf || document.oneOf) return 'a union with non-object members';
  return 'a schema of any type';
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
