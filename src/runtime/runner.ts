import { isToolContract } from '../contract/define-tool.js';
import type { ToolContract } from '../contract/types.js';
import type { PreparedTool } from '../manifest/types.js';
import { applyPlan } from './apply-plan.js';
import { acceptsAtPath } from './contract-path.js';
import { CoercionRefusal, formatPath, setOwn } from './json-text.js';

export type ToolErrorCode = 'VALIDATION_ERROR' | 'UNKNOWN_TOOL' | 'HANDLER_ERROR';

export interface ToolIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

export interface ToolError {
  readonly code: ToolErrorCode;
  /** Written for the model: what was wrong and where. */
  readonly message: string;
  readonly issues: readonly ToolIssue[];
}

export type CallResult<Value = unknown> =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly error: ToolError };

// biome-ignore lint/suspicious/noExplicitAny: a handler map is typed by the generated module; here any handler fits.
export type ToolHandler = (args: any, context: any) => unknown;

export interface ToolHooks {
  before?(event: { tool: string; args: unknown; context: unknown }): void;
  after?(event: { tool: string; args: unknown; value: unknown; durationMs: number }): void;
  /** Sees every failure: unknown tools, validation (refusals included) and handler errors. */
  error?(event: { tool: string; error: ToolError; cause?: unknown; durationMs: number }): void;
}

/** Keys every tool accepts (a tenant, a session), parsed once before the contract's own parsers. */
export interface ExtensionKeys<Values = unknown, Context = unknown> {
  /** A Zod object (any Standard Schema object with a `shape`) for the extension keys. */
  readonly schema: StandardObject<Values>;
  /** Turns the parsed keys and the caller's context into the context the handler receives. */
  readonly resolve?: (values: Values, context: unknown) => Context | Promise<Context>;
}

interface StandardObject<Values> {
  readonly '~standard': {
    validate(value: unknown): StandardResult<Values> | Promise<StandardResult<Values>>;
  };
}

type StandardResult<Values> =
  | { readonly value: Values; readonly issues?: undefined }
  | { readonly issues: readonly { readonly message: string; readonly path?: readonly unknown[] }[] };

export interface ToolSet {
  readonly tools: readonly PreparedTool[];
  /** Loads a tool's contract, on its first call only. */
  readonly load: { readonly [name: string]: () => unknown };
}

// biome-ignore lint/suspicious/noExplicitAny: the extension values are whatever the schema parses to.
export interface ToolRuntimeOptions<ExtensionValues = any> {
  readonly handlers: { readonly [name: string]: ToolHandler };
  readonly hooks?: ToolHooks;
  readonly extend?: ExtensionKeys<ExtensionValues>;
  /** Deeper nesting in arguments or JSON text is a validation error. Default 64. */
  readonly maxDepth?: number;
}

export interface ToolRuntime {
  /** The prepared tools, frozen: what `tools/list` shows, computed at build time. */
  list(): readonly PreparedTool[];
  /** Repairs the arguments by the plan, runs the contract's parsers once, then the handler. */
  call(name: string, args: unknown, context?: unknown): Promise<CallResult>;
}

export function createToolRuntime<ExtensionValues>(
  toolSet: ToolSet,
  options: ToolRuntimeOptions<ExtensionValues>,
): ToolRuntime {
  const tools = Object.freeze([...toolSet.tools]);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  checkCoverage(tools, toolSet, options);
  const contracts = new Map<string, Promise<ToolContract>>();
  const loadContract = (name: string): Promise<ToolContract> => {
    let loading = contracts.get(name);
    if (!loading) {
      loading = Promise.resolve(toolSet.load[name]?.()).then((contract) => {
        if (!isToolContract(contract))
          throw new Error(`[toolprep] the loader of tool "${name}" did not return a defineTool() contract`);
        return contract;
      });
      // A failed load is retried on the next call rather than cached.
      loading.catch(() => contracts.delete(name));
      contracts.set(name, loading);
    }
    return loading;
  };
  const { hooks = {}, extend, maxDepth = 64 } = options;

  return {
    list: () => tools,
    async call(name, args, context) {
      const started = performance.now();
      const fail = (error: ToolError, cause?: unknown): CallResult => {
        hooks.error?.({ tool: name, error, cause, durationMs: performance.now() - started });
        return { ok: false, error };
      };
      hooks.before?.({ tool: name, args, context });
      const tool = byName.get(name);
      if (!tool) {
        const known = tools.map((candidate) => candidate.name).join(', ');
        return fail({
          code: 'UNKNOWN_TOOL',
          message: `Unknown tool "${name}". Available tools: ${known}.`,
          issues: [],
        });
      }
      let stage: 'load' | 'arguments' | 'handler' = 'load';
      try {
        const contract = await loadContract(name);
        stage = 'arguments';
        const roots = { input: contract.input, params: contract.params, extend: extend?.schema };
        const repaired = applyPlan(tool.plan, args, {
          maxDepth,
          acceptsAt: (path, value) => acceptsAtPath(roots, path, value),
        });
        if (!isRecord(repaired))
          return fail(validationError([{ path: [], message: 'The arguments must be an object' }]));

        const { picked: extensionValues, rest } = split(repaired, extend ? shapeKeys(extend.schema) : []);
        let handlerContext = context;
        if (extend) {
          const parsed = await parseWith(extend.schema, extensionValues);
          if (!parsed.ok) return fail(validationError(parsed.issues));
          handlerContext = extend.resolve
            ? await extend.resolve(parsed.value as ExtensionValues, context)
            : parsed.value;
        }
        const { picked: paramsValues, rest: inputValues } = split(
          rest,
          contract.params ? shapeKeys(contract.params) : [],
        );
        const parsedParams = contract.params
          ? await parseWith(contract.params, paramsValues)
          : { ok: true as const, value: {} };
        const parsedInput = contract.input
          ? await parseWith(contract.input, inputValues)
          : { ok: true as const, value: {} };
        const issues = [
          ...(parsedParams.ok ? [] : parsedParams.issues),
          ...(parsedInput.ok ? [] : parsedInput.issues),
        ];
        if (!parsedParams.ok || !parsedInput.ok) return fail(validationError(issues));

        stage = 'handler';
        const handlerArgs = { ...(parsedParams.value as object), ...(parsedInput.value as object) };
        const value = await (options.handlers[name] as ToolHandler)(handlerArgs, handlerContext);
        hooks.after?.({ tool: name, args: handlerArgs, value, durationMs: performance.now() - started });
        return { ok: true, value };
      } catch (cause) {
        if (cause instanceof CoercionRefusal) {
          return fail(
            {
              code: 'VALIDATION_ERROR',
              message: cause.message,
              issues: [{ path: cause.path, message: cause.message }],
            },
            cause,
          );
        }
        const reason = cause instanceof Error ? cause.message : String(cause);
        const message = stage === 'handler' ? reason : `Tool "${name}" could not run: ${reason}`;
        return fail({ code: 'HANDLER_ERROR', message, issues: [] }, cause);
      }
    },
  };
}

function checkCoverage(
  tools: readonly PreparedTool[],
  toolSet: ToolSet,
  options: Pick<ToolRuntimeOptions, 'handlers'>,
): void {
  const names = new Set(tools.map((tool) => tool.name));
  const problems = [
    ...[...names]
      .filter((name) => typeof options.handlers[name] !== 'function')
      .map((name) => `no handler for tool "${name}": add it to handlers`),
    ...[...names]
      .filter((name) => typeof toolSet.load[name] !== 'function')
      .map((name) => `no loader for tool "${name}": regenerate the tool module`),
    ...Object.keys(options.handlers)
      .filter((name) => !names.has(name))
      .map(
        (name) =>
          `a handler for "${name}", which is not a prepared tool: regenerate the manifest, or remove the handler`,
      ),
  ];
  if (problems.length > 0) throw new Error(`[toolprep] ${problems.join('\n[toolprep] ')}`);
}

async function parseWith(
  schema: unknown,
  value: unknown,
): Promise<{ ok: true; value: unknown } | { ok: false; issues: ToolIssue[] }> {
  const result = await (schema as StandardObject<unknown>)['~standard'].validate(value);
  if (result.issues === undefined) return { ok: true, value: result.value };
  return {
    ok: false,
    issues: result.issues.map((issue) => ({
      path: (issue.path ?? []).map((segment) => {
        const key =
          typeof segment === 'object' && segment !== null ? (segment as { key: unknown }).key : segment;
        return typeof key === 'number' ? key : String(key);
      }),
      message: issue.message,
    })),
  };
}

function validationError(issues: readonly ToolIssue[]): ToolError {
  const details = issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join('; ');
  return { code: 'VALIDATION_ERROR', message: `Invalid arguments: ${details}`, issues };
}

function shapeKeys(schema: unknown): readonly string[] {
  const shape = (schema as { _zod?: { def?: { shape?: object } } })._zod?.def?.shape;
  return shape ? Object.keys(shape) : [];
}

function split(
  record: Record<string, unknown>,
  keys: readonly string[],
): { picked: Record<string, unknown>; rest: Record<string, unknown> } {
  if (keys.length === 0) return { picked: {}, rest: record };
  const picked: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    setOwn(keys.includes(key) ? picked : rest, key, record[key]);
  }
  return { picked, rest };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
