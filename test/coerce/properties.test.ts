import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import { safeParse } from 'zod/v4/core';
import { coerceBothWays, type Outcome, planOf } from '../support/coerce.js';
import { buildSchema, inputSpecArbitrary, sampleOf, serialiseSome } from '../support/schema-arbitrary.js';

const LIST_AS_TEXT = / is a list written as text — pass the array itself, not JSON written as text$/;
/** `npm run fuzz` raises this; the suite's own runs give at least 10,000 plan-versus-reference cases. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);

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

const caseArbitrary = inputSpecArbitrary.chain((spec) =>
  fc.record({
    spec: fc.constant(spec),
    value: sampleOf(spec),
    seed: fc.integer(),
    noise: fc.jsonValue({ maxDepth: 3 }),
  }),
);

function accepted(input: $ZodType, value: unknown): boolean {
  return safeParse(input, value).success;
}

function isRefusedList(outcome: Outcome): boolean {
  return 'refused' in outcome && LIST_AS_TEXT.test(outcome.refused);
}

describe('coercion properties', () => {
  test('no harm: an accepted value comes out unchanged, unless it is a refused list written as text', () => {
    fc.assert(
      fc.property(caseArbitrary, ({ spec, value }) => {
        const input = buildSchema(spec);
        expect(accepted(input, value)).toBe(true);
        const outcome = coerceBothWays(input, value);
        if (!isRefusedList(outcome)) expect(outcome).toEqual({ value });
      }),
      { numRuns: Math.ceil(RUNS / 4) },
    );
  });

  test('repair: writing structures inside an accepted value as JSON text, at any depth, gives the value back', () => {
    fc.assert(
      fc.property(caseArbitrary, ({ spec, value, seed }) => {
        const input = buildSchema(spec);
        const plan = planOf(input);
        if (isRefusedList(coerceBothWays(input, value, plan))) return;
        const serialised = serialiseSome(spec, value, coin(seed));
        expect(coerceBothWays(input, serialised, plan)).toEqual({ value });
      }),
      { numRuns: Math.ceil(RUNS / 4) },
    );
  });

  test('plan = reference on every generated case', () => {
    let cases = 0;
    let refusals = 0;
    fc.assert(
      fc.property(caseArbitrary, ({ spec, value, seed, noise }) => {
        const input = buildSchema(spec);
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
  });
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
