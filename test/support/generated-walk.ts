import { transformSync } from 'esbuild';
import { emitPlanWalk, emitPlanWalks } from '../../src/emit/plan-walk.js';
import type { Plan } from '../../src/manifest/plan.js';
import { type AcceptsAt, type PlanWalks, stepsIndex } from '../../src/manifest/plan-walk.js';
import type { InverseStep } from '../../src/manifest/profiles.js';
import type { GeneratedWalks } from '../../src/manifest/tool-set.js';
import { PLAN_WALK_HELPERS } from '../../src/runtime/plan-steps.js';

/** Every steps index: a test may call a plan with any inverse steps. */
const EVERY_INDEX = [0, 1, 2, 3];

const generated = new WeakMap<Plan, PlanWalks>();

/**
 * A plan's walk as the build writes it into the walks module (`emitPlanWalk`, `emitPlanWalks`), its
 * types taken out as a bundler takes them, then evaluated: what a server runs, here for a plan made
 * in the test.
 */
function generatedWalks(plan: Plan): PlanWalks {
  let walks = generated.get(plan);
  if (!walks) {
    const source = emitPlanWalks([['tool', emitPlanWalk(plan, EVERY_INDEX)]]).join('');
    const { code } = transformSync(`const walks = ${source};`, { loader: 'ts' });
    const module = new Function(`${code}\nreturn walks;`)() as GeneratedWalks;
    walks = module(PLAN_WALK_HELPERS).tool?.() ?? [];
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
