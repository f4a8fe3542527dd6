import type { $ZodType } from 'zod/v4/core';
import type { Position } from '../../manifest/plan.js';
import { getOwn } from '../../shared/run/own-property.js';
import { followSteps, type StepTargets } from '../steps.js';
import type { Zod4Def } from './view.js';

/**
 * The Zod 4 schema at a position's steps under a root (see `Position`), found through `_zod.def`;
 * the plan compiler checks every position it records with this same function. Before each step
 * every wrapper is looked through (anything with an inner schema, a pipe's input, a lazy's
 * target): positions only ever step into containers, so looking through more than the view's
 * wrappers finds the same place, with less code. Loaded by a server only for a deferred refusal.
 */
export function schemaAt(root: unknown, steps: Position): unknown {
  return followSteps(root as $ZodType, steps, targetsOf);
}

function targetsOf(schema: $ZodType): StepTargets<$ZodType> {
  const def = defOf(unwrap(schema));
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

function unwrap(schema: $ZodType): $ZodType {
  for (;;) {
    const def = defOf(schema);
    const inner =
      def.innerType ??
      def.in ??
      (def.type === 'lazy' ? (schema._zod as { innerType?: $ZodType }).innerType : undefined);
    if (!inner) return schema;
    schema = inner;
  }
}

function defOf(schema: $ZodType): Zod4Def {
  return schema._zod.def as unknown as Zod4Def;
}
