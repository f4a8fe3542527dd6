import { MANIFEST_FORMAT } from '../manifest/manifest.js';
import type { PreparedToolSet } from '../manifest/tool-set.js';
import { getOwn } from '../shared/run/own-property.js';
import type { Served } from './call-stages.js';
import type { ExtensionKeys, ToolHandler, ToolHooks, ToolRuntime } from './call-types.js';

export type {
  CallOptions,
  CallResult,
  ExtensionKeys,
  ProtocolError,
  ToolError,
  ToolErrorCode,
  ToolHandler,
  ToolHooks,
  ToolIssue,
  ToolRuntime,
} from './call-types.js';

import { type Audience, joinAudiences, viewsOfTools, visibleTools } from './visibility.js';

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
  const { handlers, extend, maxDepth = 64 } = options;
  const served: Served = {
    tools,
    byName,
    load: toolSet.load,
    walks: toolSet.walks,
    handlers,
    extend: extend as ExtensionKeys | undefined,
    extensionKeys: checkCoverage(new Set(byName.keys()), toolSet, options, keysOf),
    maxDepth,
    adapterOf,
    loaded: new Map(),
  };

  // The call's stages are loaded on the first call: a server answers its first request, the
  // list, without them (runtime/tool-calls.js in bench/sections.mjs's WHEN_LAZY_MODULES_LOAD).
  let calls: Pick<ToolRuntime, 'call' | 'check'> | undefined;
  let loading: Promise<Pick<ToolRuntime, 'call' | 'check'>> | undefined;
  const loadCalls = () =>
    (loading ??= import('./tool-calls.js').then(
      ({ createToolCalls }) => (calls = createToolCalls(served, options.hooks, toolSet.search)),
    ));
  // search_tools (config `search.tool`) is listed last and answered from the index, with no handler.
  const searchTool = toolSet.search?.tool;
  const listed = searchTool ? Object.freeze([...tools, searchTool]) : tools;

  return {
    // A group's endpoint serves its group's tools: search_tools searches the whole set, so not there.
    list: (audience) =>
      audience === undefined
        ? listed
        : Object.freeze([
            ...visibleTools(tools, audience),
            ...(audience.group === undefined ? listed.slice(tools.length) : []),
          ]),
    ...(toolSet.handshake ? { handshake: toolSet.handshake } : {}),
    ...(toolSet.groups ? { groups: toolSet.groups } : {}),
    ...(toolSet.views ? { views: toolSet.views } : {}),
    async call(name, args, context, options) {
      return (calls ?? (await loadCalls())).call(name, args, context, options);
    },
    async check(name, args, context, options) {
      return (calls ?? (await loadCalls())).check(name, args, context, options);
    },
  };
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

/**
 * The runtime as an audience sees it: its list (made once), the views of the tools it sees, and
 * its calls refused as unknown for the tools it does not see, through the hooks as any unknown
 * tool. Every surface takes it in place of the runtime (`openaiChatTools(runtimeFor(runtime, {
 * caller }))`), and a surface that shows tools to a model adds `model` itself. A group's audience
 * (its endpoint) has no groups of its own.
 */
export function runtimeFor(runtime: ToolRuntime, audience: Audience): ToolRuntime {
  const listed = runtime.list(audience);
  const { groups, views, ...rest } = runtime;
  const seenViews = viewsOfTools(views, listed);
  return {
    ...rest,
    ...(groups && audience.group === undefined ? { groups } : {}),
    ...(seenViews ? { views: seenViews } : {}),
    list: (more) => (more === undefined ? listed : runtime.list(joinAudiences(audience, more))),
    call: (name, args, context, options) =>
      runtime.call(name, args, context, { ...options, audience: joinAudiences(audience, options?.audience) }),
    check: (name, args, context, options) =>
      runtime.check(name, args, context, {
        ...options,
        audience: joinAudiences(audience, options?.audience),
      }),
  };
}
