import { MANIFEST_FORMAT } from '../manifest/manifest.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import type { ProfileName } from '../manifest/profiles.js';
import type { PreparedSearch } from '../manifest/search-index.js';
import type { PreparedHandshake, PreparedToolSet, PreparedView, ToolGroup } from '../manifest/tool-set.js';
import { getOwn } from '../shared/run/own-property.js';
import {
  announce,
  type CallState,
  Failure,
  fail,
  startCall,
  succeed,
  thrownFailure,
} from './call-failure.js';
import {
  isPromiseLike,
  type LoadedTool,
  loadTool,
  parseArguments,
  parseExtension,
  parseOutput,
  repairArguments,
  resolveTool,
  runHandler,
  type Served,
} from './call-stages.js';
import type { CallResult, ExtensionKeys, ToolHandler, ToolHooks } from './call-types.js';
import { reportFailures } from './failure-report.js';

export type {
  CallResult,
  ExtensionKeys,
  ProtocolError,
  ToolError,
  ToolErrorCode,
  ToolHandler,
  ToolHooks,
  ToolIssue,
} from './call-types.js';

// biome-ignore lint/suspicious/noExplicitAny: the extension values are whatever the schema parses to.
export interface ToolRuntimeOptions<ExtensionValues = any> {
  readonly handlers: { readonly [name: string]: ToolHandler };
  /**
   * `error` replaces the default, which writes the server's failures (a contract that did not
   * load, code that threw, a value its output schema refused) to stderr once per cause: give one,
   * `error() {}` at the least, to keep the log quiet (decision 0044).
   */
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
  /** The project's groups, with their descriptions (each tool's `groups` names its own); absent without groups. */
  readonly groups?: readonly ToolGroup[];
  /** The views (MCP Apps) built with the tools, current versions and those still kept; absent: none. */
  readonly views?: readonly PreparedView[];
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
  const { handlers, extend, maxDepth = 64, jitless } = options;
  const hooks: ToolHooks = { error: reportFailures(), ...options.hooks };
  const served: Served = {
    tools,
    byName,
    load: toolSet.load,
    handlers,
    extend: extend as ExtensionKeys | undefined,
    extensionKeys: checkCoverage(new Set(byName.keys()), toolSet, options, keysOf),
    maxDepth,
    jitless,
    adapterOf,
    loaded: new Map(),
  };

  // search_tools (config `search.tool`) is listed last and answered from the index, with no handler.
  const search = toolSet.search;
  const searchTool = search?.tool;
  const listed = searchTool ? Object.freeze([...tools, searchTool]) : tools;
  const isSearch = (name: string): boolean => searchTool?.name === name && !byName.has(name);
  // Loaded on the first search: a server that never searches does not load the code either.
  const answerSearch = async (args: unknown, profile: ProfileName | undefined) =>
    (await import('./search.js')).answerSearch(search as PreparedSearch, tools, args, profile);
  const searchCall = async (
    name: string,
    args: unknown,
    context: unknown,
    profile: ProfileName | undefined,
  ) => {
    const call = startCall(name, args, context);
    const answer = await answerSearch(args, profile);
    if (answer instanceof Failure) return fail(hooks, call, answer);
    announce(hooks, call);
    return succeed(hooks, call, args, answer);
  };

  return {
    list: () => listed,
    ...(toolSet.handshake ? { handshake: toolSet.handshake } : {}),
    ...(toolSet.groups ? { groups: toolSet.groups } : {}),
    ...(toolSet.views ? { views: toolSet.views } : {}),
    async call(name, args, context, { profile } = {}) {
      if (isSearch(name)) return searchCall(name, args, context, profile);
      const call = startCall(name, args, context);
      try {
        const parsed = await parsedCall(served, call, profile);
        if (parsed instanceof Failure) return fail(hooks, call, parsed);
        announce(hooks, call);
        call.step = 'handler';
        const running = runHandler(served, call, parsed.args);
        const returned = isPromiseLike(running) ? await running : running;
        call.step = 'output';
        const output = parseOutput(served, name, parsed.loaded, returned);
        const value = isPromiseLike(output) ? await output : output;
        if (value instanceof Failure) return fail(hooks, call, value);
        return succeed(hooks, call, parsed.args, value);
      } catch (cause) {
        return fail(hooks, call, await thrownFailure(call, cause));
      }
    },
    async check(name, args, context, { profile } = {}) {
      if (isSearch(name)) {
        const answer = await answerSearch(args, profile);
        if (answer instanceof Failure) return fail(hooks, startCall(name, args, context), answer);
        return { ok: true, value: args as Readonly<Record<string, unknown>> };
      }
      const call = startCall(name, args, context);
      try {
        const parsed = await parsedCall(served, call, profile);
        if (parsed instanceof Failure) return fail(hooks, call, parsed);
        return { ok: true, value: parsed.repaired };
      } catch (cause) {
        return fail(hooks, call, await thrownFailure(call, cause));
      }
    },
  };
}

/**
 * The stages before the handler, which are all of `check`: resolve, load, repair, extension, parse.
 * A stage's value is awaited only where it is a promise (see call-stages.ts).
 */
async function parsedCall(
  served: Served,
  call: CallState,
  profile: ProfileName | undefined,
): Promise<Failure | { loaded: LoadedTool; repaired: Record<string, unknown>; args: object }> {
  const tool = resolveTool(served, call.tool);
  if (tool instanceof Failure) return tool;
  call.step = 'load';
  const loading = loadTool(served, tool, profile);
  const loaded = isPromiseLike(loading) ? await loading : loading;
  if (loaded instanceof Failure) return loaded;
  call.step = 'repair';
  const repaired = repairArguments(served, tool, loaded, call.args, profile);
  if (repaired instanceof Failure) return repaired;
  call.step = 'extension';
  const extended = parseExtension(served, call, tool, repaired);
  const rest = isPromiseLike(extended) ? await extended : extended;
  if (rest instanceof Failure) return rest;
  call.step = 'parse';
  const parsing = parseArguments(served, tool, loaded, rest, repaired);
  const args = isPromiseLike(parsing) ? await parsing : parsing;
  if (args instanceof Failure) return args;
  return { loaded, repaired, args };
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
