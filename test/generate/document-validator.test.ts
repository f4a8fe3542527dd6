import { prepareTool } from '@toolprep/build';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compileDocument } from '../../src/generate/document-validator.js';
import type { JsonSchema } from '../../src/shared/json-schema/schema.js';
import { PROPERTY_TIMEOUT, propertyRuns } from '../support/property-runs.js';
import { sampleOf } from '../support/schema-arbitrary.js';
import { LIBRARIES, randomContract } from '../support/schema-libraries.js';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * A document the two dialects read alike shares one compiled validator across them; one they read
 * differently is read in its own dialect, whatever was compiled before it.
 */
describe('each document is read in its own dialect', () => {
  const neutral = {
    type: 'object',
    properties: { q: { type: 'string', minLength: 1 }, n: { type: 'integer', maximum: 10 } },
    required: ['q'],
    additionalProperties: false,
  };
  test.each([
    [{ q: 'a' }, true],
    [{ q: '' }, false],
    [{ q: 'a', n: 11 }, false],
    [{ q: 'a', extra: 1 }, false],
    [{ n: 1 }, false],
  ])('a document both dialects read alike: %j is %s in both', (value, valid) => {
    expect(compileDocument({ $schema: DRAFT_2020, ...neutral } as JsonSchema)(value)).toBe(valid);
    expect(compileDocument({ $schema: DRAFT_07, ...neutral } as JsonSchema)(value)).toBe(valid);
  });

  // `items` as a list is a tuple in draft-07 (the rest free unless additionalItems says otherwise);
  // 2020-12 has prefixItems for it, and its `items` is the rest.
  test.each([
    [{ $schema: DRAFT_07, type: 'array', items: [{ type: 'string' }], additionalItems: false }, ['a'], true],
    [
      { $schema: DRAFT_07, type: 'array', items: [{ type: 'string' }], additionalItems: false },
      ['a', 1],
      false,
    ],
    [{ $schema: DRAFT_07, type: 'array', items: [{ type: 'string' }] }, ['a', 1], true],
    [
      { $schema: DRAFT_2020, type: 'array', prefixItems: [{ type: 'string' }], items: false },
      ['a', 1],
      false,
    ],
    [{ $schema: DRAFT_2020, type: 'array', prefixItems: [{ type: 'string' }] }, ['a', 1], true],
    [{ $schema: DRAFT_2020, type: 'array', prefixItems: [{ type: 'string' }] }, [1], false],
  ])('%j takes %j: %s', (document, value, valid) => {
    expect(compileDocument(document as JsonSchema)(value)).toBe(valid);
  });

  test("a refusal's error is the validator's, with `__proto__` named as it is", () => {
    const validate = compileDocument({
      $schema: DRAFT_07,
      type: 'object',
      properties: { ['__proto__']: { type: 'string' } },
    } as JsonSchema);
    expect(validate(JSON.parse('{"__proto__": 1}'))).toBe(false);
    expect(validate.errors?.[0]?.instancePath).toBe('/__proto__');
  });
});

/**
 * The proof's validator leaves out annotations and compiles each property's subschema once for
 * every document that has it: its verdicts are Ajv's on the whole document as it is.
 */
describe('shared property validators say what Ajv says of the whole document', () => {
  const field = (description: string, minLength: number) => ({ type: 'string', minLength, description });
  test.each([
    [{ type: 'object', properties: { q: field('A query', 2) }, required: ['q'] }, { q: 'a' }, false],
    [{ type: 'object', properties: { q: field('Another query', 2) }, required: ['q'] }, { q: 'ab' }, true],
    [{ type: 'object', properties: { q: field('A query', 1) }, required: ['q'] }, { q: 'a' }, true],
    [{ type: 'object', properties: { q: field('A query', 2), n: { type: 'integer' } } }, { n: 1.5 }, false],
    // A field named as an annotation keyword is a field.
    [
      { type: 'object', properties: { description: { type: 'string' } }, required: ['description'] },
      {},
      false,
    ],
    [{ type: 'object', properties: { description: { type: 'string' } } }, { description: 1 }, false],
    [{ type: 'object', properties: { title: field('Its title', 0) } }, { title: 'x' }, true],
    // A pointer into another field's subschema, or at an annotation, still names what it named.
    [
      {
        type: 'object',
        properties: {
          a: { type: 'object', properties: { x: { type: 'integer' } } },
          b: { $ref: '#/properties/a/properties/x' },
        },
      },
      { b: 1.5 },
      false,
    ],
    [
      {
        type: 'object',
        properties: {
          a: { type: 'string', default: { type: 'integer' } },
          b: { $ref: '#/properties/a/default' },
        },
      },
      { b: 'x' },
      false,
    ],
    [
      {
        type: 'object',
        properties: { a: { $ref: '#/$defs/n' }, b: field('B', 1) },
        $defs: { n: { type: 'integer' } },
      },
      { a: 2, b: 'b' },
      true,
    ],
  ])('%j takes %j: %s', (document, value, valid) => {
    expect(compileDocument({ $schema: DRAFT_2020, ...document } as JsonSchema)(value)).toBe(valid);
    expect(compileDocument({ $schema: DRAFT_07, ...document } as JsonSchema)(value)).toBe(valid);
  });

  test("a shared field's refusal is at its place in the value", () => {
    const validate = compileDocument({
      type: 'object',
      properties: { outer: { type: 'object', properties: { q: field('A query', 2) } } },
    } as JsonSchema);
    expect(validate({ outer: { q: 'a' } })).toBe(false);
    expect(validate.errors?.[0]?.instancePath).toBe('/outer/q');
  });

  const plain = { strict: false, validateFormats: false, ownProperties: true } as const;
  const whole = { draft2020: new Ajv2020(plain), draft07: new Ajv(plain) };
  const library = LIBRARIES.find(({ name }) => name === 'zod 4');
  const runs = propertyRuns(60);
  test(
    `random contracts' documents, values they accept and random JSON: the same verdicts (${runs} runs)`,
    () => {
      if (!library) throw new Error('zod 4 is no longer among the test libraries');
      const caseArbitrary = library.inputs.chain((spec) =>
        fc.record({
          spec: fc.constant(spec),
          values: fc.array(fc.oneof(sampleOf(spec), fc.jsonValue()), { minLength: 1, maxLength: 6 }),
        }),
      );
      fc.assert(
        fc.property(caseArbitrary, ({ spec, values }) => {
          const prepared = prepareTool(randomContract(library, spec).contract, { flatten: false });
          for (const document of [prepared.inputSchema.mcp, prepared.inputSchema.agent]) {
            // Plain Ajv never checks a `__proto__` key; the proof's validator does (tested above).
            fc.pre(![document, ...values].some((part) => JSON.stringify(part).includes('__proto__')));
            const ajv = String(document.$schema).includes('draft-07') ? whole.draft07 : whole.draft2020;
            const reference = ajv.compile(document);
            const validate = compileDocument(document);
            for (const value of values) expect(validate(value)).toBe(reference(value));
          }
        }),
        { numRuns: runs },
      );
    },
    PROPERTY_TIMEOUT,
  );
});
