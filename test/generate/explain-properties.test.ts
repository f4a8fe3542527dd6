import { prepareTool, ToolprepError } from '@toolprep/build';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { prepareOptionsSchema } from '../../src/config/options-schema.js';
import { explainTools } from '../../src/generate/explain.js';
import { compileSchema } from '../support/ajv.js';
import { PROPERTY_TIMEOUT, propertyRuns } from '../support/property-runs.js';
import { isReadThroughPrototype, type Spec, someSpec } from '../support/schema-arbitrary.js';
import { LIBRARIES, randomContract } from '../support/schema-libraries.js';

/**
 * `check --explain` on random contracts, in each schema library: every hidden constraint it reports
 * is real (its counterexample is a value the tool's document describes and its parser refuses), a
 * contract with no rule beyond its document reports none, and the superset proof never fails.
 */
const RUNS = propertyRuns(60);
const REF = { file: 'src/tools/random.ts', exportName: 'randomTool', line: 1 };
// Flattened with two lenient profiles, and not flattened: the proof covers each document.
const SETTINGS = [
  prepareOptionsSchema.parse({ flatten: true, profiles: ['anthropic', 'gemini'] }),
  prepareOptionsSchema.parse({ flatten: false }),
];
/**
 * A rule no document shows: a refinement, or a field that may be left out named after a member of
 * `Object.prototype`, which the parser then reads from the prototype and refuses (a real finding).
 */
const hasRefinement = (spec: Spec) =>
  someSpec(
    spec,
    (node) =>
      (node.kind === 'string' && node.check === 'even') ||
      fieldsOf(node).some(
        (field) => (field.optional || mayBeLeftOut(field.spec)) && isReadThroughPrototype(field.name),
      ),
  );
/** A field its document does not require: a default or a catch, under any nullable. */
const mayBeLeftOut = (spec: Spec): boolean =>
  spec.kind === 'default' || spec.kind === 'catch' || (spec.kind === 'nullable' && mayBeLeftOut(spec.inner));
const fieldsOf = (node: Spec) =>
  node.kind === 'object'
    ? node.fields
    : node.kind === 'discriminated'
      ? node.variants.flatMap((variant) => variant.fields)
      : [];

describe.each(LIBRARIES)('check --explain properties: $name', (library) => {
  test(
    `every finding is real, none without a rule the document cannot show, and the proof holds (${RUNS} random contracts, two settings each)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(library.inputs, async (spec) => {
          const { input, contract } = randomContract(library, spec);
          for (const settings of SETTINGS) {
            const prepared = preparedOrNone(contract, settings);
            if (prepared === undefined) continue;
            const { explanation: explained } = await explainTools([{ contract, prepared, ref: REF }], {
              milliseconds: 5_000,
              prove: true,
              extend: settings.extend,
            });
            expect(explained.outOfTime).toEqual([]);
            expect(explained.problems).toEqual([]);
            const unflattened = compileSchema(
              prepareTool(contract, { ...settings, flatten: false, profiles: [] }).inputSchema.mcp,
            );
            for (const finding of explained.findings) {
              expect(unflattened(finding.counterexample)).toBe(true);
              expect(library.accepts(input, finding.counterexample)).not.toBe(true);
            }
            // ArkType's parser departs from the specs on purpose (see schema-libraries.ts).
            if (library.followsSpecs && !hasRefinement(spec)) expect(explained.findings).toEqual([]);
          }
        }),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT,
  );
});

/** The tool as the generator prepares it; none for a contract it refuses (generate reports that). */
function preparedOrNone(contract: Parameters<typeof prepareTool>[0], settings: (typeof SETTINGS)[number]) {
  try {
    return prepareTool(contract, { ...settings, exportName: REF.exportName, warn: () => undefined });
  } catch (error) {
    if (error instanceof ToolprepError) return undefined;
    throw error;
  }
}
