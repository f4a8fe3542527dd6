import type { ToolRuntime } from '../../../runtime/runner.js';
import { groupCatalogOf } from '../service/group-views.js';
import { callingRuntimeOf, toolListOf } from '../service/views.js';
import { ERRORS, errorAnswer, type Id, responseText, type WireAnswer } from '../wire/jsonrpc.js';
import type { ServingKit } from './method-table.js';
import { toolPages } from './tool-methods.js';

/**
 * The work of the groups draft's rows once their requests passed the checks (group-methods.ts):
 * the top-level `tools/list`, `groups/list` and `groups/get`, each answer's JSON text made once
 * per process and view. Over HTTP with `auth`, a caller's view has its own groups: those holding
 * scoped tools it sees, each listing those only, so that no group answer tells of a hidden tool.
 * Loaded as the serving starts when some group has deferred tools.
 */

export interface GroupWork {
  /** `tools/list` for a client that declared the extension: the tools no group scopes. */
  readonly topLevel: (request: {
    readonly id: Id;
    readonly params: Record<string, unknown>;
    readonly capabilities: Record<string, unknown>;
  }) => WireAnswer;
  list(id: Id): WireAnswer;
  /** A group's scoped tools, listed as `tools/list` lists them to a client with these capabilities. */
  get(id: Id, name: string, capabilities: Readonly<Record<string, unknown>>): WireAnswer;
}

/**
 * The group work of each view a request comes with (the whole runtime without `auth`), as the
 * client calls it: a client that renders no view meets no app-only tool in a group, its
 * description or `groups/get`, as it meets none in `tools/list` (decision 0073). Made on the
 * first request of each.
 */
export function groupWorkOf(
  kit: ServingKit,
): (view: ToolRuntime, capabilities: Readonly<Record<string, unknown>>) => GroupWork {
  // Weakly: a caller's view dropped from its bounded cache takes its answers with it.
  const works = new WeakMap<ToolRuntime, GroupWork>();
  return (view, capabilities) => {
    const calling = callingRuntimeOf(view, capabilities);
    let work = works.get(calling);
    if (!work) {
      work = groupWork(kit, calling);
      works.set(calling, work);
    }
    return work;
  };
}

function groupWork(kit: ServingKit, view: ToolRuntime): GroupWork {
  const catalog = groupCatalogOf(view, kit.runtime.groups);
  const { cache, resultMeta } = kit;
  const offered = new Map(catalog.offered.map((group) => [group.name, group]));
  const listText = JSON.stringify({
    resultType: 'complete',
    groups: catalog.offered.map(({ name, description }) => ({ name, description })),
    ...cache,
    _meta: resultMeta,
  });
  const getTexts = new Map<string, string>();
  return {
    topLevel: toolPages(kit, ({ capabilities }) => toolListOf(catalog.topLevel, capabilities)),
    list: (id) => ({ status: 200, body: responseText(id, listText) }),
    get(id, name, capabilities) {
      const group = offered.get(name);
      if (!group)
        return errorAnswer(
          id,
          ERRORS.notFound,
          `Unknown group "${name}". Groups: ${[...offered.keys()].join(', ')}.`,
        );
      let text = getTexts.get(name);
      if (text === undefined) {
        // The group's scoped tools on one page, as tools/list writes each tool to this client (linked
        // or plain: one choice per work, since the capabilities chose the calling runtime too).
        const scoped = toolListOf(catalog.scopedView(group), capabilities).page(
          group.scoped.length,
          undefined,
        );
        if ('error' in scoped) return kit.callError(id, scoped.error);
        const contents = { tools: scoped.page.tools };
        text = JSON.stringify({ resultType: 'complete', contents, ...cache, _meta: resultMeta });
        getTexts.set(name, text);
      }
      return { status: 200, body: responseText(id, text) };
    },
  };
}
