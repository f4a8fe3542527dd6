import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { emitPlanWalk, emitPlanWalks, type ToolWalk, walkSources } from '../../src/emit/plan-walk.js';
import type { Plan } from '../../src/manifest/plan.js';
import { planOf } from '../support/coerce.js';
import { propertyRuns } from '../support/property-runs.js';
import { buildSchema, inputSpecArbitrary } from '../support/schema-arbitrary.js';

/**
 * The tools of one walks module share what they compile alike (`walkSources`): a node compiled for
 * one tool is taken for the next node of the same JSON and steps. Taken or made anew, a tool's
 * walk must be the walk it has alone.
 */

const EVERY_INDEX = [0, 1, 2, 3];
const RUNS = propertyRuns(100);

const variantPlan = (tag: unknown): Plan => ({
  root: { tag: 'kind', variants: [{ tags: [tag], node: { fields: { body: { parse: ['object'] } } } }] },
});

const treePlan = (children: Plan['root']): Plan => ({
  root: { fields: { tree: { ref: 'Tree' } } },
  defs: { Tree: { parse: ['object'], fields: { children } } },
});

describe('walks written with what other tools compiled', () => {
  test(`each tool's walk is its walk alone (${RUNS} random sets of contracts, each written twice)`, () => {
    fc.assert(
      fc.property(fc.array(inputSpecArbitrary, { minLength: 2, maxLength: 5 }), (specs) => {
        const plans = specs.map((spec) => planOf(buildSchema(spec)));
        const sources = walkSources();
        // The second time through, every node is taken from the first.
        for (const plan of [...plans, ...plans])
          expect(emitPlanWalk(plan, EVERY_INDEX, sources)).toEqual(emitPlanWalk(plan, EVERY_INDEX));
      }),
      { numRuns: RUNS },
    );
  });

  // JSON writes these tags as `null` (or leaves them out), though a `null` tag is matched by a
  // `case` of its own and they are not: a node holding one is never taken for another.
  test.each([undefined, Number.NaN, Number.POSITIVE_INFINITY])(
    'a variant tagged %s is not taken for one tagged null',
    (tag) => {
      const [exact, inexact] = [variantPlan(null), variantPlan(tag)];
      const alone = emitPlanWalk(inexact, EVERY_INDEX);
      expect(alone).not.toEqual(emitPlanWalk(exact, EVERY_INDEX));
      const sources = walkSources();
      emitPlanWalk(exact, EVERY_INDEX, sources);
      expect(emitPlanWalk(inexact, EVERY_INDEX, sources)).toEqual(alone);
    },
  );

  test("a node that reaches a shared definition is its plan's own", () => {
    // The same root, by JSON, in two plans whose definitions differ.
    const [first, second] = [treePlan({ items: { ref: 'Tree' } }), treePlan({ parse: ['array'] })];
    const alone = emitPlanWalk(second, EVERY_INDEX);
    expect(alone).not.toEqual(emitPlanWalk(first, EVERY_INDEX));
    const sources = walkSources();
    emitPlanWalk(first, EVERY_INDEX, sources);
    expect(emitPlanWalk(second, EVERY_INDEX, sources)).toEqual(alone);
  });
});

describe('a walks module written again', () => {
  // A regeneration takes each unchanged tool's walk from its memo, and the module keeps the
  // factory it wrote for that walk; what the prelude holds, and so each factory and each id's
  // name, depends on every tool of the run.
  test(`it is the module written anew, whichever tools come and go (${RUNS} random runs)`, () => {
    fc.assert(
      fc.property(
        fc.array(inputSpecArbitrary, { minLength: 2, maxLength: 6 }),
        fc.array(fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), { minLength: 2, maxLength: 4 }),
        (specs, runs) => {
          // One walk object per tool, kept between runs as the generator's memo keeps it.
          const kept = specs.map((spec, index): readonly [string, ToolWalk] => [
            `tool${index}`,
            emitPlanWalk(planOf(buildSchema(spec)), EVERY_INDEX),
          ]);
          for (const present of runs) {
            const tools = kept.filter((_, index) => present[index]);
            const anew = tools.map(([key, walk]): readonly [string, ToolWalk] => [
              key,
              structuredClone(walk),
            ]);
            expect(emitPlanWalks(tools).join('')).toBe(emitPlanWalks(anew).join(''));
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
