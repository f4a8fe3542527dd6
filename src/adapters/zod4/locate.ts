import type { $ZodType } from 'zod/v4/core';
import type { Position } from '../../manifest/plan.js';
import { getOwn } from '../../shared/run/own-property.js';
import { followSteps, type StepTargets } from '../steps.js';
import { defOf, heldBy } from './def.js';

/**
 * The Zod 4 schema at a position's steps under a root (see `Position`), found through `_zod.def`;
 * the plan compiler checks every position it records with this same function. Before each step
 * every schema that holds an inner one is looked through (a wrapper, a promise, a pipe's input, a
 * lazy's target): positions only ever step into containers, so looking through more than the
 * view's wrappers finds the same place, with less code. Loaded by a server only for a deferred
 * refusal.
 */
export function schemaAt(root: unknown, steps: Position): unknown {
  return followSteps(root as $ZodType, steps, targetsOf);
}

function targetsOf(schema: $ZodType): StepTargets<$ZodType> {
  for (let inner = heldBy(schema); inner; inner = heldBy(schema)) schema = inner;
  const def = defOf(schema);
  return {
    field: (name) => getOwn(def.shape, name),
    items: () => def.element ?? def.rest ?? undefined,
    item: (index) => def.items?.[index],
    values: () => def.valueType ?? def.catchall,
    member: (index) => def.options?.[index],
    side: (index) => [def.left, def.right][index],
    variant: (tag) =>
      def.options?.find((option) =>
        getOwn(
          (option._zod as { propValues?: Record<string, Set<unknown>> }).propValues,
          def.discriminator as string,
        )?.has(tag),
      ),
  };
}
