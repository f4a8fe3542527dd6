import type { PreparedTool } from '../../../manifest/prepared-tool.js';
import type { ToolGroup } from '../../../manifest/tool-set.js';
import { runtimeFor, type ToolRuntime } from '../../../runtime/runner.js';
import { isScoped, listing } from './groups.js';
import { partOf } from './tool-service.js';

/**
 * A runtime's groups as MCP serves them, worked out once per runtime on first use: the groups a
 * client of the progressive-disclosure draft (`io.modelcontextprotocol/groups`) is offered, the
 * tools scoped to them (the deferred ones: the build's one decision on what is loaded on the first
 * turn), and the views the serving lists through — the top-level tools, a group's scoped tools, a
 * group's endpoint. A view is a runtime whose `list` is the view's tools, so every era and
 * transport serves it as it serves a whole runtime (decision 0046).
 */

/** A group with its tools, in the order of the prepared tools. */
interface ServedGroup {
  readonly name: string;
  readonly description: string;
  /** Every tool of the group: what its endpoint lists. */
  readonly tools: readonly PreparedTool[];
  /** Its deferred tools: what `groups/get` hands out and `tools/list` leaves out for a client of the draft. */
  readonly scoped: readonly PreparedTool[];
}

interface GroupCatalog {
  /** The groups a client of the draft is offered: those with scoped tools. */
  readonly offered: readonly ServedGroup[];
  /** The tools a client of the draft finds in `tools/list`: every tool not scoped to a group. */
  readonly topLevel: ToolRuntime;
  /** A group's scoped tools, as `groups/get` lists them. */
  scopedView(group: ServedGroup): ToolRuntime;
  /** A group's endpoint, by the group's name: its tools, and a call to any other tool refused as unknown. */
  endpointView(name: string): ToolRuntime;
}

const catalogs = new WeakMap<ToolRuntime, GroupCatalog>();

/**
 * The groups of a runtime that has some (groups.ts checked their names as serving started), or of
 * a caller's view of it, given the runtime's groups: a view's groups hold the tools it sees only,
 * and a group none of whose scoped tools it sees is not offered to it (decision 0060).
 */
export function groupCatalogOf(
  runtime: ToolRuntime,
  declared: readonly ToolGroup[] = runtime.groups ?? [],
): GroupCatalog {
  let catalog = catalogs.get(runtime);
  if (!catalog) {
    catalog = groupCatalog(runtime, declared);
    catalogs.set(runtime, catalog);
  }
  return catalog;
}

function groupCatalog(runtime: ToolRuntime, declared: readonly ToolGroup[]): GroupCatalog {
  const tools = runtime.list();
  const groups = new Map<string, ServedGroup>();
  for (const { name, description } of declared) {
    const members = tools.filter((tool) => tool.groups?.includes(name));
    groups.set(name, {
      name,
      description: description ?? describedByTools(members),
      tools: members,
      scoped: members.filter(isScoped),
    });
  }
  const views = new Map<string, ToolRuntime>();
  const viewOf = (key: string, make: () => ToolRuntime): ToolRuntime => {
    let view = views.get(key);
    if (!view) {
      view = make();
      views.set(key, view);
    }
    return view;
  };
  return {
    offered: [...groups.values()].filter((group) => group.scoped.length > 0),
    topLevel: listing(
      runtime,
      tools.filter((tool) => !isScoped(tool)),
    ),
    scopedView: (group) => viewOf(`scoped:${group.name}`, () => listing(runtime, group.scoped)),
    endpointView: (name) =>
      viewOf(`endpoint:${name}`, () => partOf(runtimeFor(runtime, { group: name }), runtime)),
  };
}

/** A group the build left undescribed, described for the model by its tools (the draft requires one). */
function describedByTools(tools: readonly PreparedTool[]): string {
  const named = tools.slice(0, 8).map((tool) => tool.name);
  const more = tools.length > named.length ? ` and ${tools.length - named.length} more` : '';
  return `Tools: ${named.join(', ')}${more}.`;
}
