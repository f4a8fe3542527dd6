import type { Plan } from '../manifest/plan.js';
import type { InverseStep } from '../manifest/profiles.js';
import { closureWalk } from './plan-closures.js';
import { generatedWalk } from './plan-code.js';
import type { AcceptsAt, PlanWalk, Steps } from './plan-steps.js';

export type { AcceptsAt } from './plan-steps.js';

export interface ApplyPlanOptions {
  /** Deeper nesting, in the arguments or in JSON text, is refused. Default 64. */
  maxDepth?: number;
  /**
   * Answers a check the build deferred to an array member's own parser: is `value` accepted by the
   * schema at `position` in the contract? The runner supplies it from the loaded contract.
   */
  acceptsAt?: AcceptsAt;
  /**
   * The inverse steps to run, for a call through a profile (`INVERSE_STEPS[profile]`): they undo
   * how that provider's models answer, before the contract's parser runs, beside the repairs the
   * plan runs on every call (`plan.repairs`). None by default.
   */
  inverse?: readonly InverseStep[];
  /**
   * Walk by closures even where code generation from strings is allowed (as Zod's `jitless`):
   * for a Content Security Policy that reports `new Function`. Where it is not allowed (Workers,
   * a CSP without `unsafe-eval`) closures are used anyway. The two walks give the same result.
   */
  jitless?: boolean;
}

/**
 * Plans are compiled on first use, once for each set of inverse steps (by its index: bit 0
 * `nullAbsent`, bit 1 `caseFold`, bit 2 `jitless`): a call then tests only what its plan's
 * positions hold for it.
 */
const compiledPlans = new WeakMap<Plan, PlanWalk[] & { ownIndex?: number }>();

/** Whether `new Function` may be used here: false once it has thrown `EvalError`. */
let codeGenerationAllowed = true;

/**
 * Applies a coercion plan to arguments: parses double-serialised structure where the schema wants
 * it, refuses a list written as text, and makes the repairs the plan holds. The input is never
 * mutated; a repaired position is copied. Throws a `CoercionRefusal` naming the field's path.
 */
export function applyPlan(plan: Plan, args: unknown, options?: ApplyPlanOptions): unknown {
  let compiled = compiledPlans.get(plan);
  if (!compiled) {
    compiled = [];
    compiledPlans.set(plan, compiled);
  }
  const inverse = options?.inverse;
  // The index of a call with no inverse steps is the plan's own, kept past the first call.
  let index = inverse === undefined || inverse.length === 0 ? compiled.ownIndex : undefined;
  if (index === undefined) {
    const runs = (step: InverseStep) =>
      (inverse?.includes(step) ?? false) || (plan.repairs?.includes(step) ?? false);
    index = (runs('nullAbsent') ? 1 : 0) + (runs('caseFold') ? 2 : 0);
    if (inverse === undefined || inverse.length === 0) compiled.ownIndex = index;
  }
  const jitless = options?.jitless === true || !codeGenerationAllowed;
  if (jitless) index += 4;
  let walk = compiled[index];
  if (!walk) {
    walk = compileWalk(plan, { nullAbsent: (index & 1) === 1, caseFold: (index & 2) === 2 }, jitless);
    // A walk that fell back to closures is kept where the next call, now jitless, looks for it.
    compiled[codeGenerationAllowed ? index : index | 4] = walk;
  }
  return walk(args, { path: [], maxDepth: options?.maxDepth ?? 64, acceptsAt: options?.acceptsAt });
}

function compileWalk(plan: Plan, steps: Steps, jitless: boolean): PlanWalk {
  if (!jitless)
    try {
      return generatedWalk(plan, steps);
    } catch (error) {
      if (!(error instanceof EvalError)) throw error;
      codeGenerationAllowed = false;
    }
  return closureWalk(plan, steps);
}
