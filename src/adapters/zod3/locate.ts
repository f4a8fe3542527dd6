import type { Position } from '../../manifest/plan.js';
import { getOwn } from '../../shared/run/own-property.js';
import { followSteps, type StepTargets } from '../steps.js';
import { factsOf, wrappedBy, type Zod3Schema } from './def.js';

/**
 * The Zod 3 schema at a position's steps under a root (see `Position`), found through `_def`, with
 * wrappers looked through before each step; the plan compiler checks every position it records
 * with this same function. Loaded by a server only for a deferred refusal.
 */
export function schemaAt(root: unknown, steps: Position): unknown {
  return followSteps(root as Zod3Schema, steps, targetsOf);
}

function targetsOf(schema: Zod3Schema): StepTargets<Zod3Schema> {
  for (let inner = wrappedBy(schema); inner; inner = wrappedBy(schema)) schema = inner;
  const def = schema._def;
  return {
    field: (name) => getOwn(def.shape?.(), name),
    items: () => (factsOf(def).kind === 'array' ? def.type : (def.rest ?? undefined)),
    item: (index) => def.items?.[index],
    values: () => def.valueType ?? def.catchall,
    member: (index) => def.options?.[index],
    side: (index) => [def.left, def.right][index],
    variant: (tag) => def.optionsMap?.get(tag),
  };
}
