import { expect, test } from 'vitest';
import { z } from 'zod';
import { compileDocument } from '../../src/generate/document-validator.js';
import { filledValue } from '../../src/generate/sample-values.js';
import type { JsonSchema } from '../../src/shared/json-schema/schema.js';

/**
 * The value a view's preview is sent (decision 0061): the sampler's typical value, filled, so
 * that a view has something to show; and always a value the document itself accepts.
 */
const cases: { name: string; schema: z.ZodType; filled: unknown }[] = [
  {
    name: 'optional fields present, each list one item long',
    schema: z.object({
      board: z.string().default('main'),
      notes: z.array(z.object({ id: z.string(), pinned: z.boolean().optional() })),
    }),
    filled: { board: 'a', notes: [{ id: 'a', pinned: true }] },
  },
  {
    name: 'bounds kept: a list of at least two, a number from its minimum, a format',
    schema: z.object({ tags: z.array(z.string().min(3)).min(2), count: z.int().min(5), at: z.iso.date() }),
    filled: { tags: ['aaa', 'aaa'], count: 5, at: '2026-01-01' },
  },
  {
    name: 'an enum and a union take their first member',
    schema: z.object({ unit: z.enum(['c', 'f']), when: z.union([z.number(), z.string()]).optional() }),
    filled: { unit: 'c', when: 1 },
  },
  {
    name: 'a list that may hold nothing still holds one item',
    schema: z.array(z.number()).max(3),
    filled: [1],
  },
];

test.each(cases)('$name', ({ schema, filled }) => {
  const document = z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
  expect(filledValue(document)).toEqual(filled);
  expect(compileDocument(document)(filled)).toBe(true);
});

test('a document the sampler can write nothing of: no value', () => {
  expect(filledValue({ type: 'object', properties: { never: false }, required: ['never'] })).toBeUndefined();
});
