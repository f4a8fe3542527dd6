import type { $ZodType } from 'zod/v4/core';
import type { Position } from '../../manifest/plan.js';
import type { Zod4Def } from './view.js';

/**
 * The Zod 4 schema at a position's steps under a root (see `Position`), found through `_zod.def`;
 * the plan compiler checks every position it records with this same function. Before each step
 * every wrapper is looked through (anything with an inner schema, a pipe's input, a lazy's
 * target): positions only ever step into containers, so looking through more than the view's
 * wrappers finds the same place, with less code. Loaded by a server only for a deferred refusal.
 */
export function schemaAt(root: unknown, steps: Position): unknown {
  let schema = root as $ZodType | undefined;
  for (const step of steps) {
    if (!schema) return undefined;
    const def = defOf(unwrap(schema));
    const mark = step[0];
    const rest = step.slice(1);
    schema =
      step === '[]'
        ? (def.element ?? def.rest ?? undefined)
        : step === '{}'
          ? (def.valueType ?? def.catchall)
          : mark === '.'
            ? def.shape && Object.hasOwn(def.shape, rest)
              ? def.shape[rest]
              : undefined
            : mark === '['
              ? def.items?.[Number(rest.slice(0, -1))]
              : mark === '|'
                ? def.options?.[Number(rest)]
                : mark === '&'
                  ? [def.left, def.right][Number(rest)]
                  : def.options?.find((option) =>
                      (option._zod as { propValues?: Record<string, Set<unknown>> }).propValues?.[
                        def.discriminator as string
                      ]?.has(JSON.parse(rest)),
                    );
  }
  return schema;
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
