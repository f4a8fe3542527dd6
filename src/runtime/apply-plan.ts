import type { Plan } from '../manifest/plan.js';
import { type AcceptsAt, type PlanWalk, stepsIndex, stepsOf } from '../manifest/plan-walk.js';
import type { InverseStep } from '../manifest/profiles.js';
import { closureWalk } from './plan-closures.js';

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
}

/** Plans are compiled on first use, once for each steps index (`stepsIndex`). */
const compiledPlans = new WeakMap<Plan, PlanWalk[]>();

/**
 * Applies a coercion plan made in this process to arguments, by closures: parses double-serialised
 * structure where the schema wants it, refuses a list written as text, and makes the repairs the
 * plan holds. The input is never mutated; a repaired position is copied. Throws a
 * `CoercionRefusal` naming the field's path. A server runs the walk the build wrote as code
 * instead (`PreparedToolSet.walks`); both give the same result.
 */
export function applyPlan(plan: Plan, args: unknown, options?: ApplyPlanOptions): unknown {
  let compiled = compiledPlans.get(plan);
  if (!compiled) {
    compiled = [];
    compiledPlans.set(plan, compiled);
  }
  const index = stepsIndex(plan, options?.inverse);
  compiled[index] ??= closureWalk(plan, stepsOf(index));
  return (compiled[index] as PlanWalk)(args, {
    path: [],
    maxDepth: options?.maxDepth ?? 64,
    acceptsAt: options?.acceptsAt,
  });
}
