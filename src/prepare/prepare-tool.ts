import type { z } from 'zod';
import { builderOf } from '../adapters/builders.js';
import type { Dialect, SchemaBuilder } from '../adapters/types.js';
import { type PrepareSettings, parseOptions, prepareOptionsSchema } from '../config/options-schema.js';
import type { ToolContract } from '../contract/types.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import { INVERSE_STEPS, type ProfileName } from '../manifest/profiles.js';
import { deepFreeze, digestOf } from '../shared/build/canonical-json.js';
import { formatProblem, type Problem, ToolprepError } from '../shared/build/problems.js';
import { definitionsOf } from '../shared/json-schema/definitions.js';
import { unionMembers } from '../shared/json-schema/kinds.js';
import { isSchemaObject, type JsonSchema } from '../shared/json-schema/schema.js';
import { contractAccessOf } from './access.js';
import { checkContract } from './check-contract.js';
import { compilePlan, type InverseSteps, type PlanRoot } from './compile-plan.js';
import { flattenUnions, mergeRootUnion } from './flatten.js';
import { annotateHeaders, collectHeaders } from './mcp-headers.js';
import { declaredKeys, mergeParamsIntoInput } from './merge-params.js';
import { presentSchema } from './present.js';
import { declaredChoicesOf } from './profiles/choices.js';
import { prepareProfiles } from './profiles/index.js';
import { taskPolicyOf } from './task-policy.js';

/**
 * The options of `prepareTool`: those of the config that shape a tool (`flatten`, `names`,
 * `unrepresentable`, `extend`, with the same defaults and checks; docs/reference/configuration.md),
 * and where the contract was found.
 */
export type PrepareToolOptions = Partial<z.input<typeof prepareOptionsSchema>> & {
  /** The export the contract was found under; gives the default name. */
  exportName?: string;
  /** A description to use when the contract has none (JSDoc on the export). */
  description?: string;
  /** Receives warnings. Default: printed with `console.warn`. */
  warn?: (problem: Problem) => void;
};

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
 * shares, compiles its plan and digests the result. Throws a `ToolprepError` listing every problem.
 */
export function prepareTool(
  contract: ToolContract | unknown,
  options: PrepareToolOptions = {},
): PreparedTool {
  const {
    exportName,
    description,
    warn = (problem) => console.warn(formatProblem(problem)),
    ...rest
  } = options;
  const settings: PrepareSettings = parseOptions(prepareOptionsSchema, rest, 'prepareTool options');
  const problems: Problem[] = [];
  const identity = checkContract(
    contract,
    { exportName, description, names: settings.names, repairs: settings.repairs, warn },
    problems,
  );
  if (!identity?.schemas) throw new ToolprepError(problems);
  const { input, params, output } = identity.schemas;
  const tool = identity.name;
  const extend = settings.extend && {
    schema: settings.extend.schema as unknown,
    builder: builderOf(settings.extend.schema) as SchemaBuilder,
  };

  const presentInput = (dialect: Dialect): JsonSchema => {
    const report = dialect === DIALECTS.mcp;
    const convert = (field: 'input' | LeadingField, { schema, builder }: Convertible): JsonSchema => {
      const { document, unrepresentable } = presentSchema(builder, schema, dialect, 'input');
      for (const node of report ? unrepresentable : []) {
        const located = { tool, field: `${field}.${node.field}`, code: 'unrepresentable' as const };
        if (settings.unrepresentable === 'degrade')
          warn({ severity: 'warning', ...located, message: `${node.message}; shown as {}` });
        else problems.push({ severity: 'error', ...located, message: node.message, hint: node.hint });
      }
      return document;
    };
    let document = input ? convert('input', input) : emptyObject(dialect);
    if (input && report && !isObjectRoot(document)) {
      problems.push({
        severity: 'error',
        code: 'input-not-object',
        tool,
        field: 'input',
        message: `must be ${input.builder.objectName} or a union of objects, not ${describeRoot(document)}`,
        hint: `wrap the value in ${input.builder.objectExample}`,
      });
    }
    // Leading objects are merged in front of input: params, then the extension keys every tool takes.
    const leading: [LeadingField, Convertible | undefined][] = [
      ['params', params],
      ['extend', settings.extend?.advertise === false ? undefined : extend],
    ];
    for (const [field, schema] of leading) {
      if (!schema) continue;
      const leadingDocument = convert(field, schema);
      const taken = declaredKeys(document);
      for (const key of report ? [...declaredKeys(leadingDocument)].filter((key) => taken.has(key)) : []) {
        problems.push({
          severity: 'error',
          code: 'key-clash',
          tool,
          field: `${field}.${key}`,
          message: `"${key}" is declared by both ${LEADING_NAMES[field]}`,
          hint: 'rename one of them',
        });
      }
      document = mergeParamsIntoInput(document, leadingDocument, dialect);
    }
    if (settings.flatten) document = mergeRootUnion(flattenUnions(document));
    if (document.type === 'object') return document;
    const { $schema, ...body } = document;
    return { $schema, type: 'object', ...body };
  };

  const contractFields = contract as ToolContract;
  const mcp = annotateHeaders(presentInput(DIALECTS.mcp), contractFields.headers, tool, problems);
  const mcpHeaders = collectHeaders(mcp, tool, problems);
  const task = taskPolicyOf(tool, contractFields.task, contractFields.annotations, problems);
  const access = contractAccessOf(tool, contractFields.scopes, problems);
  const inputSchema = { mcp, agent: presentInput(DIALECTS.agent) };
  const paramsKeys = params?.builder.runtime.keysOf(params.schema);
  const declared = declaredChoicesOf(tool, contractFields.profiles, settings, problems);
  const profiles =
    problems.length > 0
      ? {}
      : prepareProfiles(
          settings.profiles,
          {
            tool,
            document: inputSchema.mcp,
            paramsKeys: paramsKeys ?? [],
            extensionKeys:
              extend && settings.extend?.advertise !== false
                ? extend.builder.runtime.keysOf(extend.schema)
                : [],
            declared,
            autoFallback: settings.profiles.filter((profile) => {
              const options = settings.profileOptions[profile];
              return options !== undefined && 'fallback' in options && options.fallback === 'auto';
            }),
          },
          problems,
          warn,
        );
  if (problems.length > 0) throw new ToolprepError(problems);

  const roots: PlanRoot[] = [];
  if (extend) roots.push({ key: 'extend', ...extend });
  if (params) roots.push({ key: 'params', ...params });
  if (input) roots.push({ key: 'input', ...input });
  const libraries = [input, params, output].flatMap((schema) =>
    schema ? [schema.builder.runtime.name] : [],
  );
  const prepared: Omit<PreparedTool, 'digest'> = {
    name: tool,
    description: identity.description,
    ...optional('title', contractFields.title),
    ...optional('icons', contractFields.icons),
    ...optional('searchHint', contractFields.searchHint?.trim()),
    libraries: [...new Set(libraries)].sort(),
    inputSchema,
    ...optional('params', paramsKeys),
    ...optional('profiles', profiles.documents),
    ...optional('excludedFrom', profiles.excludedFrom),
    ...optional('outputSchema', output && presentOutput(tool, output, warn)),
    ...optional('annotations', contractFields.annotations),
    ...optional('meta', contractFields.meta),
    ...optional('mcpHeaders', mcpHeaders.length > 0 ? mcpHeaders : undefined),
    ...optional('task', task),
    ...optional('access', access),
    plan: compilePlan(roots, {
      inverse: inverseStepsToCompile(settings.profiles),
      repairs: settings.repairs,
    }),
  };
  return deepFreeze({ ...prepared, digest: digestOf(prepared) });
}

type Convertible = { readonly schema: unknown; readonly builder: SchemaBuilder };

function presentOutput(
  tool: string,
  { schema, builder }: Convertible,
  warn: (problem: Problem) => void,
): JsonSchema | undefined {
  const { document, unrepresentable } = presentSchema(builder, schema, DIALECTS.mcp, 'output');
  const notShown = (field: string, message: string, hint: string): undefined => {
    warn({
      severity: 'warning',
      code: 'output-not-shown',
      tool,
      field,
      message: `${message}; the tool is listed without outputSchema`,
      hint,
    });
    return undefined;
  };
  const [first] = unrepresentable;
  if (first) return notShown(`output.${first.field}`, first.message, first.hint);
  if (document.type !== 'object') {
    return notShown(
      'output',
      `MCP requires an object output schema, not ${describeRoot(document)}`,
      `wrap it in ${builder.objectExample}`,
    );
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
function isObjectRoot(document: JsonSchema): boolean {
  const { resolve } = definitionsOf(document);
  const isObject = (schema: unknown, depth: number): boolean => {
    if (!isSchemaObject(schema) || depth > 32) return false;
    if (schema.type === 'object') return true;
    if (typeof schema.$ref === 'string') return isObject(resolve(schema), depth + 1);
    const branches = unionMembers(schema);
    return (
      branches !== undefined && branches.length > 0 && branches.every((branch) => isObject(branch, depth + 1))
    );
  };
  return isObject(document, 0);
}

function describeRoot(document: JsonSchema): string {
  if (document.type !== undefined) return `type ${JSON.stringify(document.type)}`;
  if (document.anyOf || document.oneOf) return 'a union with non-object members';
  return 'a schema of any type';
}

/** Which inverse steps to compile into the plan: those any of the chosen profiles' calls runs. */
function inverseStepsToCompile(profiles: readonly ProfileName[]): InverseSteps {
  const steps = new Set(profiles.flatMap((profile) => INVERSE_STEPS[profile]));
  return { nullAbsent: steps.has('nullAbsent'), caseFold: steps.has('caseFold') };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
