import { issuePath } from '../adapters/issue-path.js';
import { isToolContract } from '../contract/define-tool.js';
import { asToolContent, isToolContent } from '../contract/results.js';
import type { ToolContract } from '../contract/types.js';
import { MANIFEST_FORMAT } from '../manifest/manifest.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import { INVERSE_STEPS, type InverseStep, type ProfileName } from '../manifest/profiles.js';
import type {
  PreparedHandshake,
  PreparedToolSet,
  RuntimeAdapter,
  StandardResult,
} from '../manifest/tool-set.js';
import { isRecord } from '../shared/run/is-record.js';
import { getOwn, splitKeys } from '../shared/run/own-property.js';
import { type AcceptsAt, applyPlan } from './apply-plan.js';
import { CoercionRefusal, formatPath, tooDeep } from './json-text.js';

/**
 * Where a call failed: `UNKNOWN_TOOL` (no such tool), `VALIDATION_ERROR` (the arguments: a refusal of
 * the plan, too deep a nesting, or the contract's parsers), `LOAD_ERROR` (the server could not run
 * the tool: its contract did not load, or it was not prepared for the profile asked for),
 * `HANDLER_ERROR` (the handler threw), `OUTPUT_ERROR` (the handler's value: refused by the output
 * schema, or not a value JSON can carry).
 */
export type ToolErrorCode =
  | 'UNKNOWN_TOOL'
  | 'VALIDATION_ERROR'
  | 'LOAD_ERROR'
  | 'HANDLER_ERROR'
  | 'OUTPUT_ERROR';

export interface ToolIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

export interface ToolError {
  readonly code: ToolErrorCode;
  /** Written for the model: what was wrong and where. */
  readonly message: string;
  /**
   * A `VALIDATION_ERROR`'s refused fields, one each, every message naming its field; an
   * `OUTPUT_ERROR`'s are its output parser's.
   */
  readonly issues: readonly ToolIssue[];
  /**
   * A `HANDLER_ERROR` whose handler threw a JSON-RPC error (an error whose `code` is a JSON-RPC
   * error code, -32768 to -32000, as the MCP SDKs' `McpError` carries): MCP 2026-07-28 answers the
   * call with it as a protocol error, and a task fails with it, instead of a tool result.
   */
  readonly protocol?: ProtocolError;
}

/** A JSON-RPC error, as a handler threw it. */
export interface ProtocolError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export type CallResult<Value = unknown> =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly error: ToolError };

// biome-ignore lint/suspicious/noExplicitAny: a handler map is typed by the generated module; here any handler fits.
export type ToolHandler = (args: any, context: any) => unknown;

/**
 * Each hook sees the context the handler receives: the extension keys' resolved context where there
 * is one, else the caller's (a call that fails before the keys are parsed has only the caller's).
 * `before` runs once per call, before `after` or `error`.
 */
export interface ToolHooks {
  before?(event: { tool: string; args: unknown; context: unknown }): void;
  after?(event: { tool: string; args: unknown; value: unknown; context: unknown; durationMs: number }): void;
  /** Sees every failure: unknown tools, validation (refusals included) and handler errors. */
  error?(event: {
    tool: string;
    error: ToolError;
    cause?: unknown;
    context: unknown;
    durationMs: number;
  }): void;
}

/** Keys every tool accepts (a tenant, a session), parsed once before the contract's own parsers. */
export interface ExtensionKeys<Values = unknown, Context = unknown> {
  /** The object schema the tools were prepared with (the config's `extend.schema`). */
  readonly schema: StandardObject<Values>;
  /** Turns the parsed keys and the caller's context into the context the handler receives. */
  readonly resolve?: (values: Values, context: unknown) => Context | Promise<Context>;
}

interface StandardObject<Values> {
  readonly '~standard': {
    validate(value: unknown): StandardResult<Values> | Promise<StandardResult<Values>>;
  };
}

// biome-ignore lint/suspicious/noExplicitAny: the extension values are whatever the schema parses to.
export interface ToolRuntimeOptions<ExtensionValues = any> {
  readonly handlers: { readonly [name: string]: ToolHandler };
  readonly hooks?: ToolHooks;
  readonly extend?: ExtensionKeys<ExtensionValues>;
  /** Deeper nesting in arguments or JSON text is a validation error. Default 64. */
  readonly maxDepth?: number;
  /** Walk plans by closures, never by generated code (see `ApplyPlanOptions.jitless`). Default false. */
  readonly jitless?: boolean;
}

export interface ToolRuntime {
  /** The prepared tools, frozen: what `tools/list` shows, computed at build time. */
  list(): readonly PreparedTool[];
  /**
   * Repairs the arguments by the plan, runs the contract's parsers once, then the handler. A call
   * through a provider profile (`{ profile: 'openai-strict' }`, as the provider surfaces make)
   * also runs the inverse steps that undo how that provider's models answer.
   */
  call(name: string, args: unknown, context?: unknown, options?: CallOptions): Promise<CallResult>;
  /**
   * What `call` does before the handler, and no more: the arguments as the plan repaired them once
   * the contract's parsers accepted them (plain JSON, which `call` accepts again unchanged), or the
   * refusal `call` would give. A task stores these, to run them on whichever node takes it.
   */
  check(
    name: string,
    args: unknown,
    context?: unknown,
    options?: CallOptions,
  ): Promise<CallResult<Readonly<Record<string, unknown>>>>;
  /** What the MCP SDK answers first, captured at build time (see `PreparedHandshake`). */
  readonly handshake?: PreparedHandshake;
}

export interface CallOptions {
  /** The profile whose document the model was shown: one the tools were prepared for. */
  readonly profile?: ProfileName;
}

export function createToolRuntime<ExtensionValues>(
  toolSet: PreparedToolSet,
  options: ToolRuntimeOptions<ExtensionValues>,
): ToolRuntime {
  if (toolSet.format !== MANIFEST_FORMAT)
    throw new Error(
      `[toolprep] manifest format ${toolSet.format}, but this runtime reads ${MANIFEST_FORMAT}: regenerate the tools`,
    );
  const tools = Object.freeze(toolSet.prepared.slice());
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  // The schema libraries the contracts use, as the generated module hands them over.
  const adapterOf = (schema: unknown) => toolSet.adapters.find((adapter) => adapter.owns(schema));
  const keysOf = (schema: unknown): string[] => adapterOf(schema)?.keysOf(schema) ?? [];
  const parseWith = (schema: unknown, value: unknown) => parse(adapterOf(schema), schema, value);
  const extensionKeys = checkCoverage(new Set(byName.keys()), toolSet, options, keysOf);
  const { hooks = {}, extend, maxDepth = 64, jitless } = options;
  const loaded = new Map<string, Promise<LoadedTool>>();
  /** A tool's contract, and the finder its deferred refusals need, on its first call only. */
  const loadTool = (tool: PreparedTool): Promise<LoadedTool> => {
    let loading = loaded.get(tool.name);
    if (!loading) {
      loading = Promise.resolve(getOwn(toolSet.load, tool.name)?.()).then(async (contract) => {
        if (!isToolContract(contract))
          throw new Error(
            `[toolprep] tool "${tool.name}" loaded no defineTool() contract: regenerate the tool module`,
          );
        // Only a plan that defers a refusal to a member's parser needs to find members.
        if (!JSON.stringify(tool.plan).includes('"defer"')) return { contract };
        const { deferredChecks } = await import('./deferred-checks.js');
        return {
          contract,
          acceptsAt: await deferredChecks({ ...contract, extend: extend?.schema }, adapterOf),
        };
      });
      // A failed load is retried on the next call rather than cached.
      loading.catch(() => loaded.delete(tool.name));
      loaded.set(tool.name, loading);
    }
    return loading;
  };

  /** A call, or (`checkOnly`) its checks alone, which stop before the `before` hook and the handler. */
  const invoke = async (
    name: string,
    args: unknown,
    context: unknown,
    { profile }: CallOptions,
    checkOnly: boolean,
  ): Promise<CallResult> => {
    const started = performance.now();
    let handlerContext = context;
    let announced = false;
    const announce = () => {
      if (announced) return;
      // Set first: a `before` that throws fails the call once, and is not called again for it.
      announced = true;
      hooks.before?.({ tool: name, args, context: handlerContext });
    };
    const fail = (error: ToolError, cause?: unknown): CallResult => {
      announce();
      hooks.error?.({
        tool: name,
        error,
        cause,
        context: handlerContext,
        durationMs: performance.now() - started,
      });
      return { ok: false, error };
    };
    const tool = byName.get(name);
    if (!tool) {
      const known = tools.map((candidate) => candidate.name).join(', ');
      return fail({
        code: 'UNKNOWN_TOOL',
        message: `Unknown tool "${name}". Available tools: ${known}.`,
        issues: [],
      });
    }
    // Past the stages' own failures, what throws is the server's code (a hook, a transform of a parser, extend.resolve).
    try {
      if (profile !== undefined && !tool.profiles?.[profile])
        return fail({
          code: 'LOAD_ERROR',
          message: `Tool "${name}" could not run: it was not prepared for the profile "${profile}" (add it to the config's profiles)`,
          issues: [],
        });
      let loadedTool: LoadedTool;
      try {
        loadedTool = await loadTool(tool);
      } catch (cause) {
        // The loader's message names files on the server: the hook sees it, the caller does not.
        return fail(
          {
            code: 'LOAD_ERROR',
            message: `Tool "${name}" could not run: its contract did not load`,
            issues: [],
          },
          cause,
        );
      }
      const { contract, acceptsAt } = loadedTool;

      let repaired: unknown;
      try {
        const inverse = profile === undefined ? undefined : inverseStepsOf(tool, profile);
        checkDepth(args, maxDepth);
        repaired = applyPlan(tool.plan, args, { maxDepth, acceptsAt, inverse, jitless });
      } catch (cause) {
        if (!(cause instanceof CoercionRefusal)) throw cause;
        return fail(
          {
            code: 'VALIDATION_ERROR',
            message: cause.message,
            issues: [{ path: cause.path, message: cause.message }],
          },
          cause,
        );
      }
      if (!isRecord(repaired))
        return fail(validationError([{ path: [], message: '(arguments): The arguments must be an object' }]));
      const call = { tool: name, document: tool.inputSchema.mcp, args: repaired, taken: extensionKeys };
      const refuse = async (issues: readonly ToolIssue[]) => fail(await refusalOf(issues, call));

      const { picked: extensionValues, rest } = splitKeys(repaired, extensionKeys);
      if (extend) {
        const parsed = await parseWith(extend.schema, extensionValues);
        if (parsed.issues.length > 0) return refuse(parsed.issues);
        handlerContext = extend.resolve
          ? await extend.resolve(parsed.value as ExtensionValues, context)
          : parsed.value;
      }
      if (!checkOnly) announce();
      const { picked: paramsValues, rest: inputValues } = splitKeys(rest, tool.params ?? []);
      const parsedParams = await parseWith(contract.params, paramsValues);
      const parsedInput = await parseWith(contract.input, inputValues);
      const issues = [...parsedParams.issues, ...parsedInput.issues];
      if (issues.length > 0) return refuse(issues);
      if (checkOnly) return { ok: true, value: repaired };

      const handlerArgs = { ...(parsedParams.value as object), ...(parsedInput.value as object) };
      let returned: unknown;
      try {
        returned = asToolContent(
          await (getOwn(options.handlers, name) as ToolHandler)(handlerArgs, handlerContext),
        );
      } catch (cause) {
        // A handler's own error reaches the model by its message, never its stack.
        const message = cause instanceof Error ? cause.message : String(cause);
        const protocol = protocolErrorOf(cause);
        return fail({ code: 'HANDLER_ERROR', message, issues: [], ...(protocol ? { protocol } : {}) }, cause);
      }
      // What the tool sends is what its output schema gives: parsed once, a refusal named by field.
      let value = returned;
      if (contract.output !== undefined) {
        const parts = isToolContent(returned) ? returned : undefined;
        const output = await parseWith(contract.output, parts ? parts.structured : returned);
        if (output.issues.length > 0) return fail(outputError(name, output.issues));
        value = parts ? { ...parts, structured: output.value } : output.value;
      }
      const unsendable = jsonProblem(value);
      if (unsendable !== undefined)
        return fail(
          {
            code: 'OUTPUT_ERROR',
            message: `Tool "${name}" returned a value JSON cannot carry: ${unsendable.message}`,
            issues: [],
          },
          unsendable,
        );
      hooks.after?.({
        tool: name,
        args: handlerArgs,
        value,
        context: handlerContext,
        durationMs: performance.now() - started,
      });
      return { ok: true, value };
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      return fail(
        { code: 'HANDLER_ERROR', message: `Tool "${name}" could not run: ${reason}`, issues: [] },
        cause,
      );
    }
  };

  return {
    list: () => tools,
    ...(toolSet.handshake ? { handshake: toolSet.handshake } : {}),
    call: (name, args, context, options = {}) => invoke(name, args, context, options, false),
    check: (name, args, context, options = {}) =>
      invoke(name, args, context, options, true) as Promise<CallResult<Readonly<Record<string, unknown>>>>,
  };
}

/**
 * Refuses arguments nested deeper than `maxDepth`, wherever the plan does not go: walked with a
 * stack of its own, so that no depth of input can overflow the call stack.
 */
function checkDepth(args: unknown, maxDepth: number): void {
  if (typeof args !== 'object' || args === null) return;
  const pending: { value: object; path: (string | number)[] }[] = [{ value: args, path: [] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path } = next;
    if (path.length > maxDepth) throw tooDeep(path, maxDepth);
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    for (const [key, item] of entries)
      if (typeof item === 'object' && item !== null) pending.push({ value: item, path: [...path, key] });
  }
}

/**
 * The inverse steps of a call through `profile`: those of the profile the tool is actually sent
 * with, where it falls back (OpenAI's non-strict calling needs none beyond the plan's repairs).
 */
function inverseStepsOf(tool: PreparedTool, profile: ProfileName): readonly InverseStep[] {
  const fallback = tool.profiles?.[profile]?.fallback;
  if (fallback === undefined) return INVERSE_STEPS[profile];
  return fallback === 'openai' ? [] : INVERSE_STEPS[fallback];
}

/** The JSON-RPC error a handler threw, when what it threw is one. */
function protocolErrorOf(cause: unknown): ProtocolError | undefined {
  if (typeof cause !== 'object' || cause === null) return undefined;
  const { code, message, data } = cause as { code?: unknown; message?: unknown; data?: unknown };
  if (!Number.isInteger(code) || (code as number) < -32768 || (code as number) > -32000) return undefined;
  if (typeof message !== 'string') return undefined;
  return { code: code as number, message, ...(data === undefined ? {} : { data }) };
}

/** Why JSON cannot carry a value (a BigInt, a cycle), or undefined when it can. */
function jsonProblem(value: unknown): Error | undefined {
  if (typeof value !== 'object' && typeof value !== 'bigint') return undefined;
  try {
    JSON.stringify(value);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

interface LoadedTool {
  readonly contract: ToolContract;
  readonly acceptsAt?: AcceptsAt;
}

/** Refuses, at creation, a runtime that cannot serve every tool; returns the extension keys. */
function checkCoverage(
  names: ReadonlySet<string>,
  toolSet: PreparedToolSet,
  { handlers, extend }: Pick<ToolRuntimeOptions, 'handlers' | 'extend'>,
  keysOf: (schema: unknown) => string[],
): string[] {
  const problems: string[] = [];
  for (const name of names) {
    if (typeof getOwn(handlers, name) !== 'function')
      problems.push(`no handler for tool "${name}": add it to handlers`);
  }
  for (const name of Object.keys(handlers))
    if (!names.has(name))
      problems.push(
        `a handler for "${name}", which is not a prepared tool: regenerate the manifest, or remove the handler`,
      );
  const prepared = [...(toolSet.extensionKeys ?? [])].sort();
  const given = keysOf(extend?.schema).sort();
  // An extend whose schema gives no keys (none, or of no library toolprep reads) agrees with nothing.
  if (`${prepared}` !== `${given}` || (extend && given.length === 0))
    problems.push(`extension keys [${prepared}] prepared, [${given}] given: pass the config's extend schema`);
  if (problems.length > 0) throw new Error(`[toolprep] ${problems.join('\n[toolprep] ')}`);
  return prepared;
}

/** Parses with a schema's own parser, once; without a schema there is nothing to take. */
async function parse(
  adapter: RuntimeAdapter | undefined,
  schema: unknown,
  value: unknown,
): Promise<{ value: unknown; issues: ToolIssue[] }> {
  if (!schema) return { value: {}, issues: [] };
  const result = await (adapter as RuntimeAdapter).validate(schema, value);
  return {
    value: (result as { value?: unknown }).value,
    issues: (result.issues ?? []).map((issue) => ({
      path: issuePath(issue.path),
      message: issue.message,
    })),
  };
}

/** A handler's value its contract's output schema refuses: the tool's fault, never the caller's. */
function outputError(tool: string, issues: readonly ToolIssue[]): ToolError {
  // A refusal of the whole value is about the value, not the arguments.
  const details = issues
    .map((issue) => (issue.path.length === 0 ? `the value: ${issue.message}` : issuesText([issue])))
    .join('; ');
  return {
    code: 'OUTPUT_ERROR',
    message: `Tool "${tool}" returned a value its output schema refuses: ${details}`,
    issues,
  };
}

/** Refused arguments, one issue per field, each message naming its field (see refusals.ts). */
/** A refused call's error: only a refused call words its refusal, so a server whose calls pass never loads the writer. */
async function refusalOf(
  issues: readonly ToolIssue[],
  call: Parameters<typeof import('./refusals.js').writeRefusals>[1],
): Promise<ToolError> {
  const { writeRefusals } = await import('./refusals.js');
  return validationError(writeRefusals(issues, call));
}

function validationError(issues: readonly ToolIssue[]): ToolError {
  const details = issues.map((issue) => issue.message).join('; ');
  return { code: 'VALIDATION_ERROR', message: `Invalid arguments: ${details}`, issues };
}

/** `notes: Invalid input; total: expected number, received string`: an output's refusal. */
function issuesText(issues: readonly ToolIssue[]): string {
  return issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join('; ');
}
