import { describe, expect, test } from 'vitest';
import { compileDocument } from '../../src/generate/document-validator.js';
import type { JsonSchema } from '../../src/shared/json-schema/schema.js';

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
