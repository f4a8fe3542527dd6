import type { PreparedTool } from '../manifest/prepared-tool.js';

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
 */
export interface Audience {
  readonly caller?: Caller | 'anonymous';
  readonly model?: boolean;
}

/** Whether the audience sees the tool: hidden tools are listed nowhere and called as unknown ones. */
export function isVisibleTo(tool: PreparedTool, { caller, model }: Audience): boolean {
  if (model && tool.view && !tool.view.visibility.includes('model')) return false;
  if (caller === undefined) return true;
  if (caller === 'anonymous') return tool.access?.public === true;
  return (tool.access?.scopes ?? []).every((scope) => caller.scopes.includes(scope));
}

/** The tools the audience sees, in the order given. */
export function visibleTools(tools: readonly PreparedTool[], audience: Audience): readonly PreparedTool[] {
  return tools.filter((tool) => isVisibleTo(tool, audience));
}

/** Two audiences as one: the caller of either (the inner one's first), a model if either says so. */
export function joinAudiences(outer: Audience | undefined, inner: Audience | undefined): Audience {
  const caller = inner?.caller ?? outer?.caller;
  return {
    ...(caller === undefined ? {} : { caller }),
    ...(outer?.model || inner?.model ? { model: true } : {}),
  };
}
