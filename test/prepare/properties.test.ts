import fc from 'fast-check';
import { defineTool } from 'toolprep';
import { prepareTool } from 'toolprep/build';
import { describe, expect, test } from 'vitest';
import type { $ZodType } from 'zod/v4/core';
import { safeParse } from 'zod/v4/core';
import { compileSchema } from '../support/ajv.js';
import { buildSchema, inputSpecArbitrary, sampleOf } from '../support/schema-arbitrary.js';

const caseArbitrary = inputSpecArbitrary.chain((spec) =>
  fc.record({ spec: fc.constant(spec), values: fc.array(sampleOf(spec), { minLength: 1, maxLength: 5 }) }),
);

describe('presentation properties', () => {
  test('superset: every value the Zod schema accepts validates against every emitted document', () => {
    fc.assert(
      fc.property(caseArbitrary, ({ spec, values }) => {
        const input = buildSchema(spec);
        const contract = defineTool({ name: 'random_tool', description: 'A random tool.', input });
        for (const flatten of [true, false]) {
          const prepared = prepareTool(contract, { flatten });
          const validators = [
            compileSchema(prepared.inputSchema.mcp),
            compileSchema(prepared.inputSchema.agent),
          ];
          for (const value of values) {
            expect(safeParse(input as $ZodType, value).success).toBe(true);
            for (const validate of validators) expect(validate(value)).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  test('determinism: the same contract, built twice, gives identical bytes', () => {
    fc.assert(
      fc.property(inputSpecArbitrary, (spec) => {
        const build = () =>
          JSON.stringify(prepareTool(defineTool({ name: 't', description: 'd', input: buildSchema(spec) })));
        expect(build()).toBe(build());
      }),
      { numRuns: 200 },
    );
  });
});
