import type { PreparedTool } from '../../../manifest/prepared-tool.js';
import type { CallOptions, CallResult, ToolRuntime } from '../../../runtime/runner.js';
import { type Audience, type Caller, isVisibleTo, joinAudiences } from '../../../runtime/visibility.js';

export type { Caller };

import { partOf } from './tool-service.js';

/**
 * What a caller of an HTTP handler with `auth` may see and call, as a view of the runtime: a
 * runtime listing the caller's tools only, whose call of any other name is refused as the call of
 * an unknown tool (naming only the tools the caller sees), before anything of it loads. Every era
 * serves a view as it serves a whole runtime, so a list per caller is the same prepared entries,
 * paged and written once per view. Views are made per set of the scopes that matter (those some
 * tool asks for), and the most recently used are kept (decision 0054).
 */

/**
 * What a caller without a tool's scopes meets: `hidden` (the tool is not in its list, and a call
 * to it is answered as a call to an unknown tool), or `step-up` (every tool is listed, and a call
 * without the tool's scopes is refused `403 insufficient_scope`, naming them).
 */
export type WithoutScopes = 'hidden' | 'step-up';

export interface CallerViews {
  /** Whether two callers may see different lists: some tool has access rules. */
  readonly vary: boolean;
  /** Whether this is the name of a tool open without a token. */
  isPublic(name: string): boolean;
  /** The view of this caller (`undefined`: a request without a token). */
  viewOf(caller: Caller | undefined): ToolRuntime;
  /** What tells this caller's view from others': two callers with one key see one list. */
  keyOf(caller: Caller | undefined): string;
  /** The scopes of a tool this caller may see but not call (`step-up`), or undefined. */
  lackedScopes(name: string, caller: Caller | undefined): readonly string[] | undefined;
}

/** How many views are kept: past it, the least recently used is made again when next asked for. */
const VIEWS_KEPT = 256;

export function callerViews(runtime: ToolRuntime, withoutScopes: WithoutScopes = 'hidden'): CallerViews {
  const tools = runtime.list();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  // Only the scopes some tool asks for tell views apart: any others a token carries change nothing.
  const asked = new Set(tools.flatMap((tool) => tool.access?.scopes ?? []));
  const views = new Map<string, ToolRuntime>();
  const keyOf = (caller: Caller | undefined): string => {
    if (!caller) return '';
    if (withoutScopes === 'step-up') return '*';
    return `:${[...new Set(caller.scopes.filter((scope) => asked.has(scope)))].sort().join(' ')}`;
  };
  return {
    vary: tools.some((tool) => tool.access !== undefined),
    isPublic: (name) => byName.get(name)?.access?.public === true,
    keyOf,
    viewOf(caller) {
      const key = keyOf(caller);
      let view = views.get(key);
      if (view) {
        // Most recently used last: the first is the one to drop.
        views.delete(key);
        views.set(key, view);
        return view;
      }
      const seen = tools.filter((tool) =>
        withoutScopes === 'step-up' && caller ? true : mayCall(tool, caller),
      );
      // The caller's audience goes with each call, so that search_tools names no tool it hides.
      view =
        seen.length === tools.length
          ? runtime
          : restrictedView(runtime, seen, { caller: caller ?? 'anonymous' });
      views.set(key, view);
      if (views.size > VIEWS_KEPT) views.delete(views.keys().next().value as string);
      return view;
    },
    lackedScopes(name, caller) {
      const tool = byName.get(name);
      if (withoutScopes !== 'step-up' || !caller || !tool || mayCall(tool, caller)) return undefined;
      return tool.access?.scopes;
    },
  };
}

/** Whether a caller may see and call a tool: without a token (undefined), the public tools only. */
function mayCall(tool: PreparedTool, caller: Caller | undefined): boolean {
  return isVisibleTo(tool, { caller: caller ?? 'anonymous' });
}

/** The runtime, listing and calling these tools only: a call to any other is a call to an unknown tool. */
export function restrictedView(
  runtime: ToolRuntime,
  tools: readonly PreparedTool[],
  audience?: Audience,
): ToolRuntime {
  const listed = Object.freeze(tools.slice());
  const names = new Set(listed.map((tool) => tool.name));
  // The views of these tools, every version kept: another tool's view would tell of that tool.
  const linked = new Set(listed.map((tool) => tool.view?.resourceUri));
  const viewNames = new Set(runtime.views?.filter((view) => linked.has(view.uri)).map((view) => view.name));
  const views = runtime.views?.filter((view) => viewNames.has(view.name));
  const unknown = (name: string): CallResult<never> => ({
    ok: false,
    error: {
      code: 'UNKNOWN_TOOL',
      message: `Unknown tool "${name}". Available tools: ${[...names].join(', ')}.`,
      issues: [],
    },
  });
  const withAudience = (options: CallOptions | undefined): CallOptions | undefined =>
    audience ? { ...options, audience: joinAudiences(audience, options?.audience) } : options;
  return partOf(
    {
      list: () => listed,
      call: async (name, args, context, options) =>
        names.has(name) ? runtime.call(name, args, context, withAudience(options)) : unknown(name),
      check: async (name, args, context, options) =>
        names.has(name) ? runtime.check(name, args, context, withAudience(options)) : unknown(name),
      ...(runtime.handshake ? { handshake: runtime.handshake } : {}),
      ...(views?.length ? { views } : {}),
    },
    runtime,
  );
}
