import type { PositionFinder, RuntimeAdapter } from '../manifest/tool-set.js';
import { accepts } from './accepts.js';
import type { AcceptsAt } from './apply-plan.js';

/**
 * Answers the refusals a plan deferred to an array member's own parser: the member is found at its
 * position in the loaded contract, through its library's run-time adapter, and parses the value
 * itself. Loaded only by a tool whose plan has such a refusal.
 */
export async function deferredChecks(
  roots: { readonly input?: unknown; readonly params?: unknown; readonly extend?: unknown },
  adapterOf: (schema: unknown) => RuntimeAdapter | undefined,
): Promise<AcceptsAt> {
  const found: Record<string, { adapter: RuntimeAdapter; find: PositionFinder }> = {};
  for (const root of ['input', 'params', 'extend'] as const) {
    const adapter = adapterOf(roots[root]);
    if (adapter) found[root] = { adapter, find: await adapter.locate() };
  }
  return ([root = '', ...steps], value) => {
    const at = found[root];
    const member = at?.find(roots[root as keyof typeof roots], steps);
    if (!at || member === undefined)
      throw new Error(
        `[toolprep] no schema at ${[root, ...steps].join(' ')} in the contract: regenerate the manifest`,
      );
    return accepts(at.adapter, member, value);
  };
}
