import type { $ZodType } from 'zod/v4/core';
import { isToolContract } from '../contract/define-tool.js';
import { checkToolName, deriveToolName, type NameRule } from '../contract/names.js';
import { TOOL_ANNOTATION_KEYS, type ToolAnnotations, type ToolContract } from '../contract/types.js';
import type { ToolProblem } from './problems.js';

export interface ContractIdentity {
  readonly name: string;
  readonly description: string;
  /** False when a schema is not Zod (or params not an object): converting it would only crash. */
  readonly convertible: boolean;
}

/**
 * Checks what can be checked before any schema is converted: the value is a contract, its name
 * follows the rule, it has a description, its annotations are MCP's and its schemas are Zod.
 */
export function checkContract(
  value: unknown,
  options: { exportName?: string; description?: string; names: NameRule },
  problems: ToolProblem[],
): ContractIdentity | undefined {
  const where = options.exportName ?? 'unnamed';
  if (!isToolContract(value)) {
    problems.push({
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
    problems.push({
      tool: where,
      field: 'name',
      message: 'has no name',
      hint: 'give it `name`, or export it',
    });
    return undefined;
  }
  const nameProblem = checkToolName(name, options.names);
  if (nameProblem) problems.push({ tool: name, field: 'name', message: nameProblem });

  const description = (contract.description ?? options.description ?? '').trim();
  if (description === '') {
    problems.push({
      tool: name,
      field: 'description',
      message: 'has an empty description',
      hint: 'models choose tools by their description: set `description`, or write JSDoc on the export',
    });
  }
  checkAnnotations(name, contract.annotations, problems);
  const problemsBeforeSchemas = problems.length;
  for (const field of ['input', 'params', 'output'] as const) {
    const schema = contract[field];
    if (schema !== undefined && !isZodSchema(schema)) {
      problems.push({
        tool: name,
        field,
        message: 'is not a Zod schema',
        hint: 'pass a schema from "zod" or "zod/mini"',
      });
    }
  }
  if (isZodSchema(contract.params) && contract.params._zod.def.type !== 'object') {
    problems.push({
      tool: name,
      field: 'params',
      message: `must be a Zod object, not ${contract.params._zod.def.type}`,
    });
  }
  const convertible = problems.length === problemsBeforeSchemas;
  if (contract.meta !== undefined && !isPlainObject(contract.meta)) {
    problems.push({ tool: name, field: 'meta', message: 'must be a plain object' });
  }
  return { name, description, convertible };
}

function checkAnnotations(
  tool: string,
  annotations: ToolAnnotations | undefined,
  problems: ToolProblem[],
): void {
  if (annotations === undefined) return;
  for (const [key, value] of Object.entries(annotations)) {
    const field = `annotations.${key}`;
    if (!(TOOL_ANNOTATION_KEYS as readonly string[]).includes(key)) {
      problems.push({
        tool,
        field,
        message: `"${key}" is not an MCP tool annotation`,
        hint: `use one of ${TOOL_ANNOTATION_KEYS.join(', ')}, or put it in \`meta\``,
      });
    } else if (key === 'title' ? typeof value !== 'string' : typeof value !== 'boolean') {
      problems.push({ tool, field, message: `must be a ${key === 'title' ? 'string' : 'boolean'}` });
    }
  }
}

function isZodSchema(value: unknown): value is $ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

function isPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
