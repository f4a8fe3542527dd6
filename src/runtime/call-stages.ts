import { issuePath } from '../adapters/issue-path.js';
import { isToolContract } from '../contract/define-tool.js';
import { isToolContent, type ToolContent } from '../contract/results.js';
import type { ToolContract } from '../contract/types.js';
import {
  type AcceptsAt,
  inverseStepsToRun,
  type PlanWalks,
  stepsIndex,
  stepsIndexesOf,
} from '../manifest/plan-walk.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import type { ProfileName } from '../manifest/profiles.js';
import type {
  GeneratedWalks,
  PlanWalkFactories,
  PreparedToolSet,
  RuntimeAdapter,
  StandardResult,
} from '../manifest/tool-set.js';
import { isRecord } from '../shared/run/is-record.js';
import { getOwn, splitKeys } from '../shared/run/own-property.js';
import { type CallState, callErrors, Failure, failure, refusalOf, validationError } from './call-failure.js';
import type { ExtensionKeys, ToolHandler, ToolIssue } from './call-types.js';
import { readHandlerValue } from './handler-value.js';
import { CoercionRefusal, tooDeep } from './json-text.js';
import { PLAN_WALK_HELPERS } from './plan-steps.js';
import { type Audience, isVisibleTo, visibleTools } from './visibility.js';

/**
 * A call's stages, each a plain function that returns its value or a `Failure`: resolve, load,
 * repair, extension, parse, handler, output. `call` runs them all and `check` the first five
 * (runner.ts); a value one of them throws fails the call with the code of that stage
 * (`thrownError`). None holds anything between calls but the loaded contracts. A stage returns a
 * promise only where it has to wait (a contract's first load, an asynchronous parser or
 * `extend.resolve`, a refusal being worded), so that a call whose parsers and handler are
 * synchronous takes no turn of the event loop per stage.
 */

/** What every call of one runtime shares: made once, by `createToolRuntime`. */
export interface Served {
  readonly tools: readonly PreparedTool[];
  readonly byName: ReadonlyMap<string, PreparedTool>;
  readonly load: PreparedToolSet['load'];
  readonly walks: PreparedToolSet['walks'];
  readonly handlers: { readonly [name: string]: ToolHandler };
  readonly extend: ExtensionKeys | undefined;
  /** The extension keys the tools were prepared with, which `extend` was checked to give. */
  readonly extensionKeys: readonly string[];
  readonly maxDepth: number;
  /** The run-time adapter of a schema's library, among those the generated module hands over. */
  readonly adapterOf: (schema: unknown) => RuntimeAdapter | undefined;
  /** Each tool's contract, loading and then loaded; a failed load is dropped, to be retried. */
  readonly loaded: Map<string, LoadedTool | Promise<LoadedTool>>;
}

export interface LoadedTool {
  readonly contract: ToolContract;
  /** The plan's walks by steps index: the build's code, or closures for a set made at run time. */
  readonly walks: PlanWalks;
  /** Where the plan defers a check to a member's own parser (`plan.defers`): the members, found. */
  readonly acceptsAt?: AcceptsAt;
}

/**
 * resolve: the tool by its name, if the audience sees it. A hidden tool is refused as one there is
 * not, naming only the tools the audience sees, so that its existence is not told.
 */
export function resolveTool(
  served: Served,
  name: string,
  audience: Audience | undefined,
): PreparedTool | Failure {
  const tool = served.byName.get(name);
  if (tool && (audience === undefined || isVisibleTo(tool, audience))) return tool;
  const shown = audience === undefined ? served.tools : visibleTools(served.tools, audience);
  const known = shown.map((candidate) => candidate.name).join(', ');
  return failure('UNKNOWN_TOOL', `Unknown tool "${name}". Available tools: ${known}.`);
}

/**
 * load: the tool's contract, imported on its first call only, and (where the manifest says its
 * plan defers checks) the members those checks ask; a tool prepared without the call's profile
 * cannot run through it.
 */
export function loadTool(
  served: Served,
  tool: PreparedTool,
  profile: ProfileName | undefined,
): LoadedTool | Failure | Promise<LoadedTool> {
  if (profile !== undefined && !tool.profiles?.[profile])
    return failure(
      'LOAD_ERROR',
      `Tool "${tool.name}" could not run: it was not prepared for the profile "${profile}" (add it to the config's profiles)`,
    );
  const known = served.loaded.get(tool.name);
  if (known) return known;
  const loading = importContract(served, tool).then((loaded) => {
    served.loaded.set(tool.name, loaded);
    return loaded;
  });
  // A failed load is retried on the next call rather than cached.
  loading.catch(() => served.loaded.delete(tool.name));
  served.loaded.set(tool.name, loading);
  return loading;
}

async function importContract(served: Served, tool: PreparedTool): Promise<LoadedTool> {
  const contract = await getOwn(served.load, tool.name)?.();
  if (!isToolContract(contract))
    throw new Error(
      `[toolprep] tool "${tool.name}" loaded no defineTool() contract: regenerate the tool module`,
    );
  const walks = await walksOf(served, tool);
  if (!tool.plan.defers) return { contract, walks };
  const { deferredChecks } = await import('./deferred-checks.js');
  const roots = { ...contract, extend: served.extend?.schema };
  return { contract, walks, acceptsAt: await deferredChecks(tool.plan, roots, served.adapterOf) };
}

/** Each walks module's factories, made once: its prelude runs on the first call of any tool. */
const factoriesOf = new WeakMap<GeneratedWalks, PlanWalkFactories>();

/** The walks the build wrote for the tool; closures, loaded now, for a tool set made at run time. */
async function walksOf(served: Served, tool: PreparedTool): Promise<PlanWalks> {
  const walks = served.walks && (await served.walks()).walks;
  let factories = walks && factoriesOf.get(walks);
  if (walks && !factories) {
    factories = walks(PLAN_WALK_HELPERS);
    factoriesOf.set(walks, factories);
  }
  const generated = factories && getOwn(factories, tool.name);
  if (generated) return generated();
  const { closureWalks } = await import('./plan-closures.js');
  return closureWalks(tool.plan, stepsIndexesOf(tool));
}

/**
 * repair: the arguments as the plan repairs them, with the inverse steps of the call's profile. The
 * plan's walk refuses by throwing a `CoercionRefusal`: that is this stage's failure, a
 * `VALIDATION_ERROR`; anything else it throws is thrown on.
 */
export function repairArguments(
  served: Served,
  tool: PreparedTool,
  { acceptsAt, walks }: LoadedTool,
  args: unknown,
  profile: ProfileName | undefined,
): Record<string, unknown> | Failure {
  const { maxDepth } = served;
  const inverse = profile === undefined ? undefined : inverseStepsToRun(tool, profile);
  const walk = walks[stepsIndex(tool.plan, inverse)];
  if (!walk)
    throw new Error(
      `[toolprep] tool "${tool.name}" has no plan walk for ${profile === undefined ? 'its own calls' : `the profile "${profile}"`}: run toolprep generate; if the module is current, this is a bug in toolprep`,
    );
  let repaired: unknown;
  try {
    checkDepth(args, maxDepth);
    repaired = walk(args, { path: [], maxDepth, acceptsAt });
  } catch (cause) {
    if (!(cause instanceof CoercionRefusal)) throw cause;
    const issues = [{ path: cause.path, message: cause.message }];
    return new Failure({ code: 'VALIDATION_ERROR', message: cause.message, issues }, cause);
  }
  if (isRecord(repaired)) return repaired;
  return new Failure(
    validationError([{ path: [], message: '(arguments): The arguments must be an object' }]),
  );
}

/**
 * extension: the extension keys parsed by their own schema and resolved into the context the
 * handler and the hooks see from here on; returns the arguments without them.
 */
export function parseExtension(
  served: Served,
  call: CallState,
  tool: PreparedTool,
  repaired: Record<string, unknown>,
): Record<string, unknown> | Promise<Record<string, unknown> | Failure> {
  const { picked, rest } = splitKeys(repaired, served.extensionKeys);
  return served.extend ? resolveContext(served, served.extend, call, tool, repaired, picked, rest) : rest;
}

async function resolveContext(
  served: Served,
  extend: ExtensionKeys,
  call: CallState,
  tool: PreparedTool,
  repaired: Record<string, unknown>,
  values: Record<string, unknown>,
  rest: Record<string, unknown>,
): Promise<Record<string, unknown> | Failure> {
  const parsed = await parse(served, extend.schema, values);
  if (parsed.issues.length > 0) return refuse(served, tool, repaired, parsed.issues);
  call.context = extend.resolve ? await extend.resolve(parsed.value, call.context) : parsed.value;
  return rest;
}

/**
 * parse: params split from input by the params schema's keys, and each run through the contract's
 * own parser, once; returns the handler's arguments, the two merged.
 */
export function parseArguments(
  served: Served,
  tool: PreparedTool,
  { contract }: LoadedTool,
  rest: Record<string, unknown>,
  repaired: Record<string, unknown>,
): object | Promise<object | Failure> {
  const { picked, rest: inputValues } = splitKeys(rest, tool.params ?? []);
  const params = parse(served, contract.params, picked);
  const input = parse(served, contract.input, inputValues);
  if (isPromiseLike(params) || isPromiseLike(input))
    return Promise.all([params, input]).then(([paramsParsed, inputParsed]) =>
      handlerArguments(served, tool, repaired, paramsParsed, inputParsed),
    );
  return handlerArguments(served, tool, repaired, params, input);
}

function handlerArguments(
  served: Served,
  tool: PreparedTool,
  repaired: Record<string, unknown>,
  params: Parsed,
  input: Parsed,
): object | Promise<Failure> {
  if (params.issues.length > 0 || input.issues.length > 0)
    return refuse(served, tool, repaired, [...params.issues, ...input.issues]);
  return { ...(params.value as object), ...(input.value as object) };
}

/** handler: what the tool's handler returns for the parsed arguments, in the call's context. */
export function runHandler(served: Served, call: CallState, args: object): unknown {
  return (getOwn(served.handlers, call.tool) as ToolHandler)(args, call.context);
}

/**
 * output: what the tool sends, which is what its output schema gives (parsed once, a refusal named
 * by field), and a value JSON can carry.
 */
export function parseOutput(
  served: Served,
  tool: string,
  { contract }: LoadedTool,
  returned: unknown,
): unknown | Promise<unknown> {
  const read = readHandlerValue(returned, () => [
    ...Object.keys(served.byName.get(tool)?.outputSchema?.properties ?? {}),
    ...(contract.output === undefined
      ? []
      : (served.adapterOf(contract.output)?.keysOf(contract.output) ?? [])),
  ]);
  if ('refused' in read)
    return failure('OUTPUT_ERROR', `Tool "${tool}" returned an MCP result that is not one: ${read.refused}`);
  if ('reported' in read) return reportedFailure(tool, read.reported);
  const { value } = read;
  if (contract.output === undefined) return sendable(tool, value);
  const parts = isToolContent(value) ? value : undefined;
  const output = parse(served, contract.output, parts ? parts.structured : value);
  return isPromiseLike(output)
    ? output.then((parsed) => sent(tool, parts, parsed))
    : sent(tool, parts, output);
}

/** The value the output schema gave, within its content parts where the handler returned some. */
function sent(tool: string, parts: ToolContent | undefined, output: Parsed): unknown {
  if (output.issues.length > 0) return outputFailure(tool, output.issues);
  return sendable(tool, parts ? { ...parts, structured: output.value } : output.value);
}

/** An MCP result with `isError: true`: the tool's error, as a throw would be, its result kept for MCP. */
async function reportedFailure(tool: string, result: ToolContent): Promise<Failure> {
  const unsendable = sendable(tool, result);
  if (unsendable instanceof Failure) return unsendable;
  const { reportedError } = await callErrors();
  return new Failure(reportedError(tool, result), result);
}

async function outputFailure(tool: string, issues: readonly ToolIssue[]): Promise<Failure> {
  const { outputError } = await callErrors();
  return new Failure(outputError(tool, issues));
}

/** The value, or why JSON cannot carry it (a BigInt, a cycle). */
function sendable(tool: string, value: unknown): unknown {
  if (typeof value !== 'object' && typeof value !== 'bigint') return value;
  try {
    JSON.stringify(value);
    return value;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return failure('OUTPUT_ERROR', `Tool "${tool}" returned a value JSON cannot carry: ${reason}`, error);
  }
}

/**
 * Whether a stage's value is one to wait for: a promise, or any thenable a handler returns (as
 * `await` would take it). Narrows to the promises among the stage's values.
 */
export function isPromiseLike<Value>(
  value: Value,
): value is unknown extends Value ? Value & PromiseLike<unknown> : Extract<Value, PromiseLike<unknown>> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/** Refused arguments, worded for the model (see refusals.ts). */
async function refuse(
  served: Served,
  tool: PreparedTool,
  repaired: Record<string, unknown>,
  issues: readonly ToolIssue[],
): Promise<Failure> {
  const call = {
    tool: tool.name,
    document: tool.inputSchema.mcp,
    args: repaired,
    taken: served.extensionKeys,
  };
  return new Failure(await refusalOf(issues, call));
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

type Parsed = { readonly value: unknown; readonly issues: readonly ToolIssue[] };

/** Parses with a schema's own parser, once; without a schema there is nothing to take. */
function parse(served: Served, schema: unknown, value: unknown): Parsed | Promise<Parsed> {
  if (!schema) return { value: {}, issues: [] };
  const result = (served.adapterOf(schema) as RuntimeAdapter).validate(schema, value);
  return isPromiseLike(result) ? Promise.resolve(result).then(parsedOf) : parsedOf(result);
}

function parsedOf(result: StandardResult): Parsed {
  return {
    value: (result as { value?: unknown }).value,
    issues: (result.issues ?? []).map((issue) => ({ path: issuePath(issue.path), message: issue.message })),
  };
}
