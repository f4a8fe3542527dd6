import { transformSync } from 'esbuild';
import { emitPlanWalk } from '../../src/emit/plan-walk.js';
import type { Plan } from '../../src/manifest/plan.js';
import {
  type AcceptsAt,
  type PlanWalkFactory,
  type PlanWalks,
  stepsIndex,
} from '../../src/manifest/plan-walk.js';
import type { InverseStep } from '../../src/manifest/profiles.js';
import { PLAN_WALK_HELPERS } from '../../src/runtime/plan-steps.js';

/** Every steps index: a test may call a plan with any inverse steps. */
const EVERY_INDEX = [0, 1, 2, 3];

const generated = new WeakMap<Plan, PlanWalks>();

/**
 * A plan's walk as the build writes it into the generated module (`emitPlanWalk`), its types taken
 * out as a bundler takes them, then evaluated: what a server runs, here for a plan made in the test.
 */
function generatedWalks(plan: Plan): PlanWalks {
  let walks = generated.get(plan);
  if (!walks) {
    const { code } = transformSync(`const factory = ${emitPlanWalk(plan, EVERY_INDEX)};`, { loader: 'ts' });
    const factory = new Function(`${code}\nreturn factory;`)() as PlanWalkFactory;
    walks = factory(PLAN_WALK_HELPERS);
    generated.set(plan, walks);
  }
  return walks;
}

/** `applyPlan`, by the walk the build generates as code. */
export function walkGenerated(
  plan: Plan,
  args: unknown,
  options: { maxDepth?: number; acceptsAt?: AcceptsAt; inverse?: readonly InverseStep[] } = {},
): unknown {
  const walk = generatedWalks(plan)[stepsIndex(plan, options.inverse)];
  if (!walk) throw new Error('no generated walk for these steps');
  return walk(args, { path: [], maxDepth: options.maxDepth ?? 64, acceptsAt: options.acceptsAt });
}
