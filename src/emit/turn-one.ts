import type { Size, TurnOne } from '../manifest/manifest.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import type { ToolGroup } from '../manifest/tool-set.js';
import { sizeOf } from '../shared/build/tokens.js';
import { sumOf } from './size.js';

/** The ways a client takes a tool set on its first turn, as `totals.turnOne` names them. */
export type TurnOneStrategy = keyof TurnOne;

/** A tool with its `tools/list` entry's size (`toolSize`). */
export interface SizedTool {
  readonly prepared: PreparedTool;
  readonly size: Size;
}

const NOTHING: Size = { bytes: 0, tokens: 0 };

/** What a value shown to a model costs: `sizeOf`, or a lookup of counts made beforehand. */
export type Measure = (shown: unknown) => Size;

/** A deferred tool in a group: scoped to it under the groups draft, out of the top-level list. */
const isScoped = ({ prepared }: SizedTool): boolean =>
  prepared.loading === 'deferred' && (prepared.groups?.length ?? 0) > 0;

/**
 * What a client is sent of `tool` before the first message under `strategy`: an eager tool whole,
 * every tool whole under `everything`; a deferred tool's name and description under `deferred`
 * (what OpenAI's tool search shows of a deferred function; Claude Code lists the name alone, so
 * this is its upper bound); nothing of a scoped tool under `groups`, where it waits in its group.
 */
export function turnOneShare(tool: SizedTool, strategy: TurnOneStrategy, measure: Measure = sizeOf): Size {
  if (strategy === 'everything' || tool.prepared.loading !== 'deferred') return tool.size;
  if (strategy === 'groups') return isScoped(tool) ? NOTHING : tool.size;
  return measure(briefOf(tool.prepared));
}

/** A deferred tool as a client that searches is shown it, or a group as `groups/list` shows it. */
function briefOf({ name, description }: { readonly name: string; readonly description?: string }): object {
  return { name, description };
}

/**
 * What the first turns show beyond the tools' sizes: each deferred tool's name and description,
 * each group's entry. A generation counts them before it measures the turns with those counts.
 */
export function turnOneShown(tools: readonly SizedTool[], groups: readonly ToolGroup[] = []): object[] {
  return [
    ...tools
      .filter(({ prepared }) => prepared.loading === 'deferred')
      .map(({ prepared }) => briefOf(prepared)),
    ...groups.map(briefOf),
  ];
}

/**
 * Each strategy's first turn for the tool set (docs/reference/manifest.md, `totals.turnOne`); the
 * groups strategy only when the project has groups. `groups/list` offers the groups that hold a
 * scoped tool, as the MCP surface serves it.
 */
export function turnOneSizes(
  tools: readonly SizedTool[],
  groups?: readonly ToolGroup[],
  measure: Measure = sizeOf,
): TurnOne {
  const total = (strategy: TurnOneStrategy): Size =>
    sumOf(tools.map((tool) => turnOneShare(tool, strategy, measure)));
  const offered = new Set(tools.filter(isScoped).flatMap(({ prepared }) => prepared.groups ?? []));
  const listed = (groups ?? [])
    .filter((group) => offered.has(group.name))
    .map((group) => measure(briefOf(group)));
  return {
    everything: total('everything'),
    deferred: total('deferred'),
    ...(groups && groups.length > 0 ? { groups: sumOf([total('groups'), ...listed]) } : {}),
  };
}
