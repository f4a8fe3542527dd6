import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import * as classic from 'zod';
import * as mini from 'zod/mini';
import * as classic325 from 'zod325/v4';
import * as mini325 from 'zod325/v4-mini';
import { zod4Builder } from '../../src/adapters/zod4/build.js';
import { zod4 } from '../../src/adapters/zod4/runtime.js';
import { propertyRuns } from '../support/property-runs.js';
import { sampleOf, specArbitraries, zodBuilder } from '../support/schema-arbitrary.js';

/**
 * The explain stage parses each value with `validateFew` (Zod 4 without its compiled object
 * parsers): every result, value, issues and messages alike, is the run-time parser's.
 */
const RUNS = propertyRuns(200);

/** What a parse gives, or the message of what it threw (a parser may throw, or reject). */
const outcomeOf = (parse: () => unknown): Promise<unknown> =>
  Promise.resolve()
    .then(parse)
    .catch((error: Error) => ({ threw: error.message }));
const { input } = specArbitraries();

/** Values of the spec's schema, values near them, and any JSON, so that refusals come too. */
const valuesOf = (sample: fc.Arbitrary<unknown>) =>
  fc.array(fc.oneof(sample, fc.jsonValue({ maxDepth: 3 }), fc.dictionary(fc.string(), sample)), {
    minLength: 1,
    maxLength: 8,
  });

describe.each([
  ['zod 4', classic],
  ['zod 3.25 zod/v4', classic325],
])('validateFew is the run-time parse: %s', (_name, z) => {
  const build = zodBuilder(z);
  test(`on random schemas and values (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        input.chain((spec) => fc.tuple(fc.constant(spec), valuesOf(sampleOf(spec)))),
        async ([spec, values]) => {
          const schema = build(spec);
          for (const value of values)
            expect(await outcomeOf(() => zod4Builder.validateFew(schema, value))).toEqual(
              await outcomeOf(() => zod4.validate(schema, value)),
            );
        },
      ),
      { numRuns: RUNS },
    );
  });
});

/** The mini API, with a refinement that throws and one that is async (each left to `~standard`). */
function miniSchema(z: typeof mini) {
  return z.object({
    name: z.string().check(z.minLength(2)),
    count: z.optional(z.number().check(z.int(), z.minimum(0))),
    nested: z.optional(z.object({ flag: z.boolean(), tags: z.array(z.string()) })),
  });
}

describe.each([
  ['zod/mini', miniSchema(mini)],
  ['zod 3.25 zod/v4-mini', miniSchema(mini325 as unknown as typeof mini)],
  [
    'a refinement that throws',
    classic.object({
      name: classic.string().refine((value) => {
        if (value === 'boom') throw new Error('boom');
        return true;
      }),
    }),
  ],
  [
    'an async refinement',
    classic.object({ name: classic.string().refine(async (value) => value.length > 1) }),
  ],
])('validateFew is the run-time parse: %s', (_name, schema) => {
  test.each([
    [{ name: 'ab' }],
    [{ name: 'a' }],
    [{ name: 'boom' }],
    [{ name: 'ab', count: 1.5 }],
    [{ name: 'ab', nested: { flag: 'yes', tags: [1] } }],
    [{ name: 'ab', nested: { flag: true, tags: ['x'] }, extra: 1 }],
    [[]],
    [null],
  ])('%j', async (value) => {
    expect(await outcomeOf(() => zod4Builder.validateFew(schema as never, value))).toEqual(
      await outcomeOf(() => zod4.validate(schema, value)),
    );
  });
});

describe('a refinement runs as often as at run time', () => {
  test.each([
    [
      'throws',
      () => {
        throw new Error('boom');
      },
    ],
    ['is async', async () => true],
    ['passes', () => true],
  ])('one that %s', async (_name, check: () => unknown) => {
    let runs = 0;
    const schema = classic.object({
      name: classic.string().refine(() => {
        runs++;
        return check();
      }),
    });
    await outcomeOf(() => zod4.validate(schema, { name: 'x' }));
    const atRunTime = runs;
    runs = 0;
    await outcomeOf(() => zod4Builder.validateFew(schema, { name: 'x' }));
    expect(runs).toBe(atRunTime);
  });
});
