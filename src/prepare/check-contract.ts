import { builderOf, unreadableSchemaHint } from '../adapters/builders.js';
import { type FoundMisreading, misreadingsOf } from '../adapters/misreadings.js';
import type { SchemaBuilder } from '../adapters/types.js';
import { isToolContract } from '../contract/define-tool.js';
import { checkToolName, deriveToolName, type NameRule } from '../contract/names.js';
import {
  TOOL_ANNOTATION_KEYS,
  TOOL_DEFINITION_KEYS,
  type ToolAnnotations,
  type ToolContract,
} from '../contract/types.js';
import type { RepairName } from '../manifest/plan.js';
import { GROUP_NAME } from '../manifest/tool-set.js';
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
  checkKeys(name, contract, report);
  checkAnnotations(name, contract.annotations, report);
  checkTitleAndIcons(name, contract, report);
  checkDisclosure(name, contract, report);
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
        hint: fieldsShape(schema) ?? unreadableSchemaHint(schema),
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
  for (const [key, spelling] of Object.entries(DISCLOSURE_SPELLINGS))
    if (isPlainObject(contract.meta) && key in contract.meta)
      report({
        code: 'unknown-key',
        tool: name,
        field: `meta.${key}`,
        message: `"${key}" is written by toolprep from the contract`,
        hint: spelling,
      });
  return convertible ? { name, description, schemas } : { name, description };
}

type Report = (problem: Omit<Problem, 'severity'>) => void;

/** The `_meta` keys toolprep writes of a tool's place in a large set, and what to write instead. */
const DISCLOSURE_SPELLINGS: Readonly<Record<string, string>> = {
  'io.modelcontextprotocol/groups': "give the contract `group: 'name'`, or name it in the config's `groups`",
  'anthropic/alwaysLoad': "write `loading: 'eager'`",
  'anthropic/searchHint': "write `searchHint: '…'`",
};

/**
 * What a key `defineTool` does not take is in toolprep, where it has a meaning: the MCP SDK's
 * `registerTool` spellings, the AI SDK's `tool()`, and hints written at the top level.
 */
const OTHER_SPELLINGS: Readonly<Record<string, string>> = {
  inputSchema: "write `input` (the SDK's inputSchema), an object schema: input: z.object({ ... })",
  parameters: 'write `input`, an object schema: input: z.object({ ... })',
  paramsSchema: 'write `input`, an object schema: input: z.object({ ... })',
  outputSchema: "write `output` (the SDK's outputSchema), an object schema: output: z.object({ ... })",
  _meta: "write `meta` (sent as the tool's MCP `_meta`)",
  execution: "write `task` (the SDK's execution.taskSupport): task: 'optional' or 'required'",
  taskSupport: "write `task`: task: 'optional' or 'required'",
  handler: 'a handler is not part of the contract: pass it to createToolRuntime({ handlers })',
  callback: 'a handler is not part of the contract: pass it to createToolRuntime({ handlers })',
  cb: 'a handler is not part of the contract: pass it to createToolRuntime({ handlers })',
  execute: 'a handler is not part of the contract: pass it to createToolRuntime({ handlers })',
  ...Object.fromEntries(
    TOOL_ANNOTATION_KEYS.filter((key) => key !== 'title').map((key) => [
      key,
      `write it as annotations.${key}`,
    ]),
  ),
};

/** Every key must be one `defineTool` takes: a key it does not would be silently ignored. */
function checkKeys(tool: string, contract: ToolContract, report: Report): void {
  const known: readonly string[] = TOOL_DEFINITION_KEYS;
  for (const key of Object.keys(contract)) {
    if (known.includes(key)) continue;
    report({
      code: 'unknown-key',
      tool,
      field: key,
      message: `"${key}" is not a key defineTool takes, so it would mean nothing`,
      hint: Object.hasOwn(OTHER_SPELLINGS, key)
        ? OTHER_SPELLINGS[key]
        : `defineTool takes ${known.join(', ')}; put data of your own in \`meta\``,
    });
  }
}

/** `sizes` as MCP writes them: `48x48`, or `any` for a scalable image. */
const ICON_SIZE = /^(?:[1-9][0-9]*x[1-9][0-9]*|any)$/;
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
const ICON_KEYS = ['src', 'mimeType', 'sizes', 'theme'];

/** The title is a non-empty string; each icon is MCP's `Icon`, with a source a client can fetch. */
function checkTitleAndIcons(tool: string, contract: ToolContract, report: Report): void {
  const { title, icons } = contract as { title?: unknown; icons?: unknown };
  if (title !== undefined && (typeof title !== 'string' || title.trim() === ''))
    report({ code: 'invalid-title', tool, field: 'title', message: 'must be a non-empty string' });
  if (icons === undefined) return;
  if (!Array.isArray(icons)) {
    report({
      code: 'invalid-icon',
      tool,
      field: 'icons',
      message: 'must be a list of icons',
      hint: "icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] }]",
    });
    return;
  }
  icons.forEach((icon: unknown, index) => {
    const at = `icons[${index}]`;
    const bad = (field: string, message: string, hint?: string) =>
      report({ code: 'invalid-icon', tool, field: `${at}${field}`, message, ...(hint ? { hint } : {}) });
    if (!isPlainObject(icon)) {
      bad('', 'must be an object with a `src`');
      return;
    }
    for (const key of Object.keys(icon))
      if (!ICON_KEYS.includes(key))
        bad(`.${key}`, `"${key}" is not a key of an MCP icon`, `an icon has ${ICON_KEYS.join(', ')}`);
    const { src, mimeType, sizes, theme } = icon;
    if (typeof src !== 'string' || !isFetchableIconSource(src))
      bad(
        '.src',
        `must be an https: or http: URL or a data: URI, not ${JSON.stringify(src)}`,
        'a file path is not served to clients: host the image, or inline it as a data: URI',
      );
    if (mimeType !== undefined && (typeof mimeType !== 'string' || !MIME_TYPE.test(mimeType)))
      bad('.mimeType', `must be a MIME type such as "image/png", not ${JSON.stringify(mimeType)}`);
    if (
      sizes !== undefined &&
      (!Array.isArray(sizes) || !sizes.every((size) => typeof size === 'string' && ICON_SIZE.test(size)))
    )
      bad('.sizes', `must be a list of sizes, each "WxH" ("48x48") or "any", not ${JSON.stringify(sizes)}`);
    if (theme !== undefined && theme !== 'light' && theme !== 'dark')
      bad('.theme', `must be "light" or "dark", not ${JSON.stringify(theme)}`);
  });
}

/** A search hint longer than this reads as a second description, which it is not. */
const SEARCH_HINT_LIMIT = 200;

/** `group`, `loading`, `searchHint` and `intents`: how the tool is found in a large set. */
function checkDisclosure(tool: string, contract: ToolContract, report: Report): void {
  const { group, loading, searchHint, intents } = contract as Record<string, unknown>;
  if (group !== undefined && (typeof group !== 'string' || !GROUP_NAME.test(group)))
    report({
      code: 'invalid-group',
      tool,
      field: 'group',
      message: `must be a group name (words of a-z and 0-9 joined by single hyphens, at most 64 characters), not ${JSON.stringify(group)}`,
    });
  if (loading !== undefined && loading !== 'eager' && loading !== 'deferred')
    report({
      code: 'invalid-loading',
      tool,
      field: 'loading',
      message: `must be "eager" or "deferred", not ${JSON.stringify(loading)}`,
    });
  if (
    searchHint !== undefined &&
    (typeof searchHint !== 'string' || searchHint.trim() === '' || searchHint.length > SEARCH_HINT_LIMIT)
  )
    report({
      code: 'invalid-search-hint',
      tool,
      field: 'searchHint',
      message: `must be a non-empty string of at most ${SEARCH_HINT_LIMIT} characters`,
      hint: "a few words a search should match: searchHint: 'refund chargeback dispute'",
    });
  if (intents === undefined) return;
  if (!Array.isArray(intents)) {
    report({ code: 'invalid-intents', tool, field: 'intents', message: 'must be a list of requests' });
    return;
  }
  intents.forEach((intent: unknown, index) => {
    if (typeof intent !== 'string' || intent.trim() === '')
      report({
        code: 'invalid-intents',
        tool,
        field: `intents[${index}]`,
        message: `must be a non-empty string, not ${JSON.stringify(intent)}`,
      });
  });
}

function isFetchableIconSource(src: string): boolean {
  if (!URL.canParse(src)) return false;
  const { protocol } = new URL(src);
  return protocol === 'https:' || protocol === 'http:' || protocol === 'data:';
}

/**
 * The hint for a plain object of schemas where a schema belongs (the shape the MCP SDK's
 * `inputSchema` takes): wrap it.
 */
function fieldsShape(value: unknown): string | undefined {
  if (!isPlainObject(value)) return undefined;
  const fields = Object.values(value);
  const builder = fields.length > 0 ? builderOf(fields[0]) : undefined;
  if (!builder || !fields.every((field) => builderOf(field))) return undefined;
  return `it is a shape of fields, as the MCP SDK's inputSchema and outputSchema take: wrap it in ${builder.objectExample}`;
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
