import { prepareTool } from '@toolprep/build';
import fc from 'fast-check';
import { defineTool } from 'toolprep';
import { describe, expect, test } from 'vitest';
import { compileSchema } from '../support/ajv.js';
import { PROPERTY_TIMEOUT, propertyRuns } from '../support/property-runs.js';
import { buildSchema, inputSpecArbitrary, sampleOf } from '../support/schema-arbitrary.js';
import { LIBRARIES, randomContract } from '../support/schema-libraries.js';

const SUPERSET_RUNS = propertyRuns(300);

describe.each(LIBRARIES)('presentation properties: $name', (library) => {
  const caseArbitrary = library.inputs.chain((spec) =>
    fc.record({ spec: fc.constant(spec), values: fc.array(sampleOf(spec), { minLength: 1, maxLength: 5 }) }),
  );

  test(
    `superset: every value the parser accepts validates against every emitted document (${SUPERSET_RUNS} random contracts, flattened and not, 2020-12 and draft-07)`,
    () => {
      fc.assert(
        fc.property(caseArbitrary, ({ spec, values }) => {
          const { input, contract } = randomContract(library, spec);
          for (const flatten of [true, false]) {
            const prepared = prepareTool(contract, { flatten });
            const validators = [
              compileSchema(prepared.inputSchema.mcp),
              compileSchema(prepared.inputSchema.agent),
            ];
            for (const value of values) {
              const accepted = library.accepts(input, value);
              fc.pre(library.followsSpecs ? accepted !== undefined : accepted === true);
              expect(accepted).toBe(true);
              for (const validate of validators) expect(validate(value)).toBe(true);
            }
          }
        }),
        { numRuns: SUPERSET_RUNS },
      );
    },
    PROPERTY_TIMEOUT,
  );
});

describe('presentation properties', () => {
  test('determinism: the same contract, built twice, gives identical bytes (200 random contracts)', () => {
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
