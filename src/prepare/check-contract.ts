import { builderOf, unreadableSchemaHint } from '../adapters/builders.js';
import { type FoundMisreading, misreadingsOf } from '../adapters/misreadings.js';
import type { SchemaBuilder } from '../adapters/types.js';
import { isToolContract } from '../contract/define-tool.js';
import { checkToolName, deriveToolName, type NameRule } from '../contract/names.js';
import { TOOL_ANNOTATION_KEYS, type ToolAnnotations, type ToolContract } from '../contract/types.js';
import type { RepairName } from '../manifest/plan.js';
import type { Problem } from '../shared/build/problems.js';
import { isPlainObject } from '../shared/run/is-record.js';

/** A contract's schemas, each with the builder of its library. */
type ContractSchemas = Partial<
  Record<'input' | 'params' | 'output', { readonly schema: unknown; readonly builder: SchemaBuilder }>
>;

export interface ContractIdentity {
  readonly name: string;
  readonly description: string;
  /** Undefined when a schema is of no library toolprep reads (or params is not an object). */
  readonly schemas?: ContractSchemas;
}

export interface ContractCheckOptions {
  readonly exportName?: string;
  readonly description?: string;
  readonly names: NameRule;
  /** The config's repairs, which a warning of a parser that misreads model output counts on. */
  readonly repairs?: Readonly<Record<RepairName, boolean>>;
  /** Receives the warnings: a parser in input or params that misreads model output. */
  readonly warn?: (problem: Problem) => void;
}

/**
 * Checks what can be checked before any schema is converted: the value is a contract, its name
 * follows the rule, it has a description, its annotations are MCP's, its schemas are of a library
 * toolprep reads, and (a warning) none of them holds a parser known to misread model output.
 */
export function checkContract(
  value: unknown,
  options: ContractCheckOptions,
  problems: Problem[],
): ContractIdentity | undefined {
  const where = options.exportName ?? 'unnamed';
  const report = (problem: Omit<Problem, 'severity'>) => problems.push({ severity: 'error', ...problem });
  if (!isToolContract(value)) {
    report({
      code: 'not-a-contract',
      tool: where,
      message: 'is not a tool contract',
      hint: 'create it with defineTool() from "toolprep"',
    });
    return undefined;
  }
  const contract: ToolContract = value;
  const name =
    contract.name ?? (options.exportName === undefined ? undefined : deriveToolName(options.exportName));
  if (name === undefined) {
    report({
      code: 'no-name',
      tool: where,
      field: 'name',
      message: 'has no name',
      hint: 'give it `name`, or export it',
    });
    return undefined;
  }
  const nameProblem = checkToolName(name, options.names);
  if (nameProblem) report({ code: 'invalid-name', tool: name, field: 'name', message: nameProblem });

  const description = (contract.description ?? options.description ?? '').trim();
  if (description === '') {
    report({
      code: 'empty-description',
      tool: name,
      field: 'description',
      message: 'has an empty description',
      hint: 'models choose tools by their description: set `description`, or write JSDoc on the export',
    });
  }
  checkAnnotations(name, contract.annotations, report);
  const problemsBeforeSchemas = problems.length;
  const schemas: ContractSchemas = {};
  for (const field of ['input', 'params', 'output'] as const) {
    const schema: unknown = contract[field];
    if (schema === undefined) continue;
    const builder = builderOf(schema);
    if (builder) schemas[field] = { schema, builder };
    else
      report({
        code: 'not-a-schema',
        tool: name,
        field,
        message: 'is not a schema toolprep reads',
        hint: unreadableSchemaHint(schema),
      });
  }
  const params = schemas.params;
  if (params) {
    const { view } = params.builder;
    // Params are split from input by their keys, so they must be an object itself, not wrapped.
    if (!view.isObject(params.schema)) {
      report({
        code: 'params-not-object',
        tool: name,
        field: 'params',
        message: `must be ${params.builder.objectName}, not ${view.typeName(params.schema)}`,
      });
    }
  }
  // Input and params are what a model sends; output is the handler's.
  for (const field of ['input', 'params'] as const) {
    const schema = schemas[field]?.schema;
    for (const misreading of schema === undefined ? [] : misreadingsOf(schema))
      options.warn?.(misreadingWarning(name, field, misreading, options.repairs));
  }
  const convertible = problems.length === problemsBeforeSchemas;
  const { headers } = contract;
  if (
    headers !== undefined &&
    (!isPlainObject(headers) || !Object.values(headers).every((header) => typeof header === 'string'))
  ) {
    report({
      code: 'mcp-header',
      tool: name,
      field: 'headers',
      message: 'must map field paths to header names',
      hint: "headers: { region: 'Region' }",
    });
  }
  if (contract.meta !== undefined && !isPlainObject(contract.meta)) {
    report({ code: 'meta-not-object', tool: name, field: 'meta', message: 'must be a plain object' });
  }
  return convertible ? { name, description, schemas } : { name, description };
}

/** `z.coerce.boolean() reads every non-empty string as true: "false" is true (use z.boolean(): …)`. */
function misreadingWarning(
  tool: string,
  field: 'input' | 'params',
  { field: at, parser, misreads, instead, repair }: FoundMisreading,
  repairs: ContractCheckOptions['repairs'],
): Problem {
  return {
    severity: 'warning',
    code: 'coercion-hazard',
    tool,
    field: `${field}.${at}`,
    message: `${parser} ${misreads}`,
    hint: repairs?.[repair] === false ? `${instead}, once repairs.${repair} is turned back on` : instead,
  };
}

function checkAnnotations(
  tool: string,
  annotations: ToolAnnotations | undefined,
  report: (problem: Omit<Problem, 'severity'>) => void,
): void {
  if (annotations === undefined) return;
  for (const [key, value] of Object.entries(annotations)) {
    const field = `annotations.${key}`;
    if (!(TOOL_ANNOTATION_KEYS as readonly string[]).includes(key)) {
      report({
        code: 'unknown-annotation',
        tool,
        field,
        message: `"${key}" is not an MCP tool annotation`,
        hint: `use one of ${TOOL_ANNOTATION_KEYS.join(', ')}, or put it in \`meta\``,
      });
    } else if (key === 'title' ? typeof value !== 'string' : typeof value !== 'boolean') {
      report({
        code: 'annotation-type',
        tool,
        field,
        message: `must be a ${key === 'title' ? 'string' : 'boolean'}`,
      });
    }
  }
}
