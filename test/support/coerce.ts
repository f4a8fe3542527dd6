import { prepareTool } from '@toolprep/build';
import { applyPlan, coerceJsonArgs, defineTool } from 'toolprep';
import type { Plan } from 'toolprep/runtime';
import { expect } from 'vitest';
import { builderOf } from '../../src/adapters/builders.js';
import type { RepairName } from '../../src/manifest/plan.js';
import { accepts } from '../../src/runtime/accepts.js';
import { walkGenerated } from './generated-walk.js';

export type Outcome = { value: unknown } | { refused: string };

function outcome(run: () => unknown): Outcome {
  try {
    return { value: run() };
  } catch (error) {
    if ((error as Error).name === 'CoercionRefusal') return { refused: (error as Error).message };
    throw error;
  }
}

const EVERY_REPAIR: readonly RepairName[] = ['scalarText', 'nullAbsent', 'loneValue', 'caseFold'];

/** The plan prepareTool compiles, with these repairs on (default: every one, as the config's default). */
export function planOf(input: unknown, repairs: readonly RepairName[] = EVERY_REPAIR): Plan {
  return prepareTool(defineTool({ name: 't', description: 'd', input: input as never }), {
    unrepresentable: 'degrade',
    warn: () => {},
    repairs: Object.fromEntries(EVERY_REPAIR.map((repair) => [repair, repairs.includes(repair)])),
  }).plan;
}

/** What a plan's deferred checks ask, answered as the runner answers it: by the member's own parser. */
export function acceptsAtOf(input: unknown) {
  // The runner finds a deferred member at its position in the contract, as here.
  const builder = builderOf(input);
  if (!builder) throw new Error('a schema of no library toolprep reads');
  return ([, ...steps]: readonly string[], value: unknown) =>
    accepts(builder.runtime, builder.schemaAt(input, steps), value);
}

/**
 * Runs the compiled plan (as the code the build generates, and as the closures that walk a plan
 * made at run time) and the reference on the same arguments, with the same repairs (default:
 * every one); all three must agree.
 */
export function coerceBothWays(
  input: unknown,
  args: unknown,
  plan?: Plan,
  repairs: readonly RepairName[] = EVERY_REPAIR,
): Outcome {
  const acceptsAt = acceptsAtOf(input);
  const compiled = plan ?? planOf(input, repairs);
  const viaPlan = outcome(() => walkGenerated(compiled, args, { acceptsAt }));
  const viaClosures = outcome(() => applyPlan(compiled, args, { acceptsAt }));
  const viaReference = outcome(() => coerceJsonArgs(args, input, { repairs }));
  expect(viaPlan).toEqual(viaReference);
  expect(viaClosures).toEqual(viaReference);
  return viaPlan;
}
