import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { coerceBothWays, type Outcome, planOf } from '../support/coerce.js';
import { PROPERTY_TIMEOUT, propertyRuns } from '../support/property-runs.js';
import { sampleOf, serialiseSome } from '../support/schema-arbitrary.js';
import { LIBRARIES } from '../support/schema-libraries.js';

const LIST_AS_TEXT = / is a list written as text — pass the array itself, not JSON written as text$/;
/** The suite's own runs give at least 10,000 plan-versus-reference cases per library. */
const RUNS = propertyRuns(2000);

/** A seeded coin, so that fast-check can shrink which structures were written as text. */
function coin(seed: number): () => boolean {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % 2 === 0;
  };
}

function isRefusedList(outcome: Outcome): boolean {
  return 'refused' in outcome && LIST_AS_TEXT.test(outcome.refused);
}

describe.each(LIBRARIES)('coercion properties: $name', (library) => {
  const caseArbitrary = library.inputs.chain((spec) =>
    fc.record({
      spec: fc.constant(spec),
      value: sampleOf(spec),
      seed: fc.integer(),
      noise: fc.jsonValue({ maxDepth: 3 }),
    }),
  );

  test(
    `no harm: an accepted value comes out unchanged, unless it is a refused list written as text (${Math.ceil(RUNS / 4)} random contracts)`,
    () => {
      fc.assert(
        fc.property(caseArbitrary, ({ spec, value }) => {
          const input = library.build(spec);
          fc.pre(input !== undefined);
          const accepted = library.accepts(input, value);
          fc.pre(library.followsSpecs ? accepted !== undefined : accepted === true);
          expect(accepted).toBe(true);
          const outcome = coerceBothWays(input, value);
          if (!isRefusedList(outcome)) expect(outcome).toEqual({ value });
        }),
        { numRuns: Math.ceil(RUNS / 4) },
      );
    },
    PROPERTY_TIMEOUT,
  );

  test(
    `repair: writing structures inside an accepted value as JSON text, at any depth, gives the value back (${Math.ceil(RUNS / 4)} random contracts)`,
    () => {
      fc.assert(
        fc.property(caseArbitrary, ({ spec, value, seed }) => {
          const input = library.build(spec);
          fc.pre(input !== undefined);
          const plan = planOf(input);
          if (isRefusedList(coerceBothWays(input, value, plan))) return;
          const serialised = serialiseSome(spec, value, coin(seed));
          expect(coerceBothWays(input, serialised, plan)).toEqual({ value });
        }),
        { numRuns: Math.ceil(RUNS / 4) },
      );
    },
    PROPERTY_TIMEOUT,
  );

  test(
    `plan = reference on every generated case (${RUNS} random contracts, 5 argument sets each)`,
    () => {
      let cases = 0;
      let refusals = 0;
      fc.assert(
        fc.property(caseArbitrary, ({ spec, value, seed, noise }) => {
          const input = library.build(spec);
          fc.pre(input !== undefined);
          const plan = planOf(input);
          const pick = coin(seed);
          const variants = [
            value,
            serialiseSome(spec, value, pick),
            serialiseSome(spec, value, pick, true),
            noise,
            {
              ...(typeof value === 'object' ? value : {}),
              ...(typeof noise === 'object' && !Array.isArray(noise) ? noise : {}),
            },
          ];
          for (const args of variants) {
            // coerceBothWays asserts that the plan and the reference give the same outcome.
            if (isRefusedList(coerceBothWays(input, args, plan))) refusals++;
            cases++;
          }
        }),
        { numRuns: RUNS },
      );
      expect(cases).toBeGreaterThanOrEqual(10_000);
      expect(refusals).toBeGreaterThan(0);
    },
    PROPERTY_TIMEOUT,
  );
});

describe('one value or a list: the repair and the refusal', () => {
  const input = z.object({ paths: z.union([z.string(), z.array(z.string())]) });

  test('every list of strings written as text is refused, and every one sent as a list passes', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (paths) => {
        expect(coerceBothWays(input, { paths })).toEqual({ value: { paths } });
        expect(coerceBothWays(input, { paths: JSON.stringify(paths) })).toEqual({
          refused: 'paths is a list written as text — pass the array itself, not JSON written as text',
        });
      }),
    );
  });
});
