import type { ToolRuntime } from '../../../runtime/runner.js';
import { groupCatalogOf } from '../service/group-views.js';
import { toolServiceOf } from '../service/tool-service.js';
import { toolListOf } from '../service/views.js';
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
  get(id: Id, name: string): WireAnswer;
}

/** The group work of each view a request comes with (the whole runtime without `auth`), made on its first request. */
export function groupWorkOf(kit: ServingKit): (view: ToolRuntime) => GroupWork {
  // Weakly: a caller's view dropped from its bounded cache takes its answers with it.
  const works = new WeakMap<ToolRuntime, GroupWork>();
  return (view) => {
    let work = works.get(view);
    if (!work) {
      work = groupWork(kit, view);
      works.set(view, work);
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
    get(id, name) {
      const group = offered.get(name);
      if (!group)
        return errorAnswer(
          id,
          ERRORS.notFound,
          `Unknown group "${name}". Groups: ${[...offered.keys()].join(', ')}.`,
        );
      let text = getTexts.get(name);
      if (text === undefined) {
        // The group's scoped tools on one page, as tools/list writes each tool.
        const scoped = toolServiceOf(catalog.scopedView(group)).page(group.scoped.length, undefined);
        if ('error' in scoped) return kit.callError(id, scoped.error);
        const contents = { tools: scoped.page.tools };
        text = JSON.stringify({ resultType: 'complete', contents, ...cache, _meta: resultMeta });
        getTexts.set(name, text);
      }
      return { status: 200, body: responseText(id, text) };
    },
  };
}
