import { deferredPositions, type Plan, type Position } from '../manifest/plan.js';
import type { AcceptsAt } from '../manifest/plan-walk.js';
import type { PositionFinder, RuntimeAdapter } from '../manifest/tool-set.js';
import { accepts } from './accepts.js';

type Roots = { readonly input?: unknown; readonly params?: unknown; readonly extend?: unknown };

/**
 * Answers the checks a plan deferred to an array member's own parser: the member is found at its
 * position in the loaded contract, through its library's run-time adapter, and parses the value
 * itself. Loaded only for a tool whose plan says it defers (`plan.defers`), with its contract:
 * every position the plan defers to is found then, so that a contract the plan does not match
 * fails the tool's load, not some later call.
 */
export async function deferredChecks(
  plan: Plan,
  roots: Roots,
  adapterOf: (schema: unknown) => RuntimeAdapter | undefined,
): Promise<AcceptsAt> {
  const found: Record<string, { adapter: RuntimeAdapter; find: PositionFinder }> = {};
  for (const root of ['input', 'params', 'extend'] as const) {
    const adapter = adapterOf(roots[root]);
    if (adapter) found[root] = { adapter, find: await adapter.locate() };
  }
  const memberAt = ([root = '', ...steps]: Position) => {
    const at = found[root];
    const member = at?.find(roots[root as keyof Roots], steps);
    if (!at || member === undefined)
      throw new Error(
        `[toolprep] the plan defers a check to ${[root, ...steps].join(' ')}, which the contract does not have: the manifest is older than the contract; run toolprep generate`,
      );
    return { adapter: at.adapter, member };
  };
  for (const position of deferredPositions(plan)) memberAt(position);
  return (position, value) => {
    const { adapter, member } = memberAt(position);
    return accepts(adapter, member, value);
  };
}
