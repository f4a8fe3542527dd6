import type { PreparedTool } from '../../../manifest/prepared-tool.js';
import { runtimeFor, type ToolRuntime } from '../../../runtime/runner.js';
import { type Caller, isVisibleTo } from '../../../runtime/visibility.js';

export type { Caller };

import { partOf } from './tool-service.js';

/**
 * What a caller of an HTTP handler with `auth` may see and call, as a view of the runtime: the
 * runtime as the caller's audience sees it (`runtimeFor`), listing the caller's tools only, whose
 * call of any other name is refused by the runtime as the call of an unknown tool (naming only the
 * tools the caller sees, and told to the hooks), before anything of it loads. Every era serves a
 * view as it serves a whole runtime, so a list per caller is the same prepared entries, paged and
 * written once per view. Views are made per set of the scopes that matter (those some tool asks
 * for), and the most recently used are kept (decisions 0054, 0073).
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
  /**
   * The view of this caller (`undefined`: a request without a token), and its key: what tells it
   * from others' views (two callers with one key see one list).
   */
  viewOf(caller: Caller | undefined): { readonly view: ToolRuntime; readonly key: string };
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
    viewOf(caller) {
      const key = keyOf(caller);
      let view = views.get(key);
      if (view) {
        // Most recently used last: the first is the one to drop.
        views.delete(key);
        views.set(key, view);
        return { view, key };
      }
      // The caller's audience goes with each call: a hidden tool is refused as an unknown one, in
      // the runtime, so that the hooks see it, and search_tools names no tool it hides.
      const sees = (withoutScopes === 'step-up' && caller) || tools.every((tool) => mayCall(tool, caller));
      view = sees ? runtime : partOf(runtimeFor(runtime, { caller: caller ?? 'anonymous' }), runtime);
      views.set(key, view);
      if (views.size > VIEWS_KEPT) views.delete(views.keys().next().value as string);
      return { view, key };
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
