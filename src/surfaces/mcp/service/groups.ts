import type { PreparedTool } from '../../../manifest/prepared-tool.js';
import { GROUP_NAME, type ToolGroup } from '../../../manifest/tool-set.js';
import type { ToolRuntime } from '../../../runtime/runner.js';
import { partOf } from './tool-service.js';

/**
 * What serving must know of a runtime's groups at start, small enough to load with every server:
 * whether it has groups, their names checked, and the runtime as a server without groups lists
 * it. The views the groups are served through load on first use (group-views.ts).
 */

/** The runtime's groups, each name checked against the draft's rule; undefined without groups. */
export function groupsOf(runtime: ToolRuntime): readonly ToolGroup[] | undefined {
  for (const { name } of runtime.groups ?? [])
    if (!GROUP_NAME.test(name))
      throw new Error(
        `[toolprep] group "${name}" cannot be served over MCP: a group name is 1 to 64 lowercase letters, digits and single inner hyphens (the groups draft's rule, and an endpoint's path)`,
      );
  return runtime.groups;
}

/** Whether a client of the groups draft would find some tool scoped to a group: a deferred tool in one. */
export function scopesTools(runtime: ToolRuntime): boolean {
  return groupsOf(runtime) !== undefined && runtime.list().some(isScoped);
}

/** A tool a client of the draft finds through its groups, not `tools/list`: the build deferred it. */
export function isScoped(tool: PreparedTool): boolean {
  return tool.loading === 'deferred' && (tool.groups?.length ?? 0) > 0;
}

/** The runtime as a server that cannot declare the groups extension lists it: every tool, no groups. */
export function withoutGroups(runtime: ToolRuntime): ToolRuntime {
  return runtime.groups ? listing(runtime, runtime.list()) : runtime;
}

/**
 * The runtime, listing these tools: a call still reaches every tool (scoping a tool gates its
 * discovery, not its use, as the draft says).
 */
export function listing(runtime: ToolRuntime, tools: readonly PreparedTool[]): ToolRuntime {
  const listed = Object.freeze(tools.slice());
  return partOf(
    {
      list: () => listed,
      call: runtime.call,
      check: runtime.check,
      ...(runtime.handshake ? { handshake: runtime.handshake } : {}),
      ...(runtime.views ? { views: runtime.views } : {}),
    },
    runtime,
  );
}
