import type { ToolRuntime } from '../../../runtime/runner.js';
import { groupCatalogOf } from '../service/group-views.js';
import { groupsOf } from '../service/groups.js';

/**
 * One endpoint per group (`groupEndpoints: true`), as Google's MCP Toolbox serves them: a path
 * ending in `/mcp/<group>` is answered by an exchange of that group's view of the runtime (its
 * tools only), made on the group's first request. Loaded with the first request of a handler
 * that serves them. With `auth`, the refusal of a path that names no group names no other group
 * either, and is what a caller that sees none of a group's tools is told at its endpoint
 * (decision 0060).
 */

/**
 * The exchange a path's group is served by; why a path of that form names no group; or undefined
 * for any other path, which serves every tool.
 */
export type GroupEndpoints<Exchange> = (path: string) => Exchange | string | undefined;

export function groupEndpoints<Exchange>(
  runtime: ToolRuntime,
  exchangeOf: (view: ToolRuntime, noGroup: string) => Exchange,
  { nameGroups }: { readonly nameGroups: boolean },
): GroupEndpoints<Exchange> {
  const names = (groupsOf(runtime) ?? []).map((group) => group.name);
  const noGroup = (name: string) =>
    nameGroups ? `no group "${name}" (groups: ${names.join(', ')})` : `no group "${name}"`;
  const exchanges = new Map<string, Exchange>();
  return (path) => {
    const name = /\/mcp\/([^/]+)\/?$/.exec(path)?.[1];
    if (name === undefined) return undefined;
    if (!names.includes(name)) return noGroup(name);
    let exchange = exchanges.get(name);
    if (!exchange) {
      exchange = exchangeOf(groupCatalogOf(runtime).endpointView(name), noGroup(name));
      exchanges.set(name, exchange);
    }
    return exchange;
  };
}
