import type { PreparedTool } from '../manifest/prepared-tool.js';
import type { PreparedView } from '../manifest/tool-set.js';

/** Who calls, as a token verified for them says: the subject, the scopes it grants, its claims. */
export interface Caller {
  readonly subject: string;
  readonly scopes: readonly string[];
  readonly claims?: Readonly<Record<string, unknown>>;
}

/**
 * Whom a surface shows the tools to. `caller`: absent, the process itself (stdio, a script: every
 * tool); `'anonymous'`, a request without a token (the public tools only); a `Caller`, the tools
 * whose scopes its scopes cover. `model`: a model picks from the list (the AI SDK and provider
 * surfaces), so tools only an app may call (`view.visibility` without `'model'`) are hidden too.
 * `group`: a group's own endpoint, which serves that group's tools only (and no search over the
 * whole set).
 */
export interface Audience {
  readonly caller?: Caller | 'anonymous';
  readonly model?: boolean;
  readonly group?: string;
}

/** Whether the audience sees the tool: hidden tools are listed nowhere and called as unknown ones. */
export function isVisibleTo(tool: PreparedTool, { caller, model, group }: Audience): boolean {
  if (model && tool.view && !tool.view.visibility.includes('model')) return false;
  if (group !== undefined && !tool.groups?.includes(group)) return false;
  if (caller === undefined) return true;
  if (caller === 'anonymous') return tool.access?.public === true;
  return (tool.access?.scopes ?? []).every((scope) => caller.scopes.includes(scope));
}

/** The tools the audience sees, in the order given. */
export function visibleTools(tools: readonly PreparedTool[], audience: Audience): readonly PreparedTool[] {
  return tools.filter((tool) => isVisibleTo(tool, audience));
}

/**
 * The views of these tools, every version kept: what an audience that sees these tools may list
 * and read (another tool's view would tell of that tool). Undefined when none is left.
 */
export function viewsOfTools(
  views: readonly PreparedView[] | undefined,
  tools: readonly PreparedTool[],
): readonly PreparedView[] | undefined {
  const linked = new Set(tools.map((tool) => tool.view?.resourceUri));
  const names = new Set(views?.filter((view) => linked.has(view.uri)).map((view) => view.name));
  const kept = views?.filter((view) => names.has(view.name));
  return kept?.length ? kept : undefined;
}

/**
 * Two audiences as one: the caller of either (the inner one's first: a request's verified caller
 * replaces its view's), the group of either, a model if either says so. A group is never widened
 * to another: two different groups are a mistake of the code that joins them.
 */
export function joinAudiences(outer: Audience | undefined, inner: Audience | undefined): Audience {
  const caller = inner?.caller ?? outer?.caller;
  if (outer?.group !== undefined && inner?.group !== undefined && outer.group !== inner.group)
    throw new Error(
      `toolprep: a view of group "${outer.group}" was asked to serve group "${inner.group}"; a group's view serves its own tools only`,
    );
  const group = inner?.group ?? outer?.group;
  return {
    ...(caller === undefined ? {} : { caller }),
    ...(outer?.model || inner?.model ? { model: true } : {}),
    ...(group === undefined ? {} : { group }),
  };
}
