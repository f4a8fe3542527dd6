import { runtimeAdapterOf } from '../adapters/runtime-adapters.js';
import type { PositionFinder } from '../adapters/types.js';
import { accepts } from './accepts.js';
import type { AcceptsAt } from './apply-plan.js';

/**
 * Answers the refusals a plan deferred to an array member's own parser: the member is found at its
 * position in the loaded contract, through its library's run-time adapter, and parses the value
 * itself. Loaded only by a tool whose plan has such a refusal.
 */
export async function deferredChecks(roots: {
  readonly input?: unknown;
  readonly params?: unknown;
  readonly extend?: unknown;
}): Promise<AcceptsAt> {
  const finders: Record<string, PositionFinder | undefined> = {};
  for (const root of ['input', 'params', 'extend'] as const) {
    const schema = roots[root];
    finders[root] = await runtimeAdapterOf(schema)?.locate();
  }
  return ([root = '', ...steps], value) => {
    const member = finders[root]?.(roots[root as keyof typeof roots], steps);
    if (member === undefined)
      throw new Error(
        `[toolprep] no schema at ${[root, ...steps].join(' ')} in the contract: regenerate the manifest`,
      );
    return accepts(member, value);
  };
}
