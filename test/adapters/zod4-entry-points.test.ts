import { prepareTool } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { describe, expect, test, vi } from 'vitest';
import * as classic from 'zod';
import * as mini from 'zod/mini';
import * as classic325 from 'zod325/v4';
import * as mini325 from 'zod325/v4-mini';

/** One tool, written with the classic API of a Zod 4 copy. */
function withClassic(z: typeof classic) {
  return z.object({
    paths: z.union([z.string(), z.array(z.string().min(1))]).describe('A path, or a list of paths'),
    mode: z.enum(['read', 'write']).default('read'),
    limit: z.number().int().min(1).max(50).optional(),
    edit: z.discriminatedUnion('action', [
      z.object({ action: z.literal('rename'), to: z.string() }),
      z.object({ action: z.literal('delete') }),
    ]),
    tags: z.record(z.string(), z.array(z.string())),
  });
}

/** The same tool, written with the mini API of a Zod 4 copy (metadata through the registry). */
function withMini(z: typeof mini) {
  return z.object({
    paths: z
      .union([z.string(), z.array(z.string().check(z.minLength(1)))])
      .register(z.globalRegistry, { description: 'A path, or a list of paths' }),
    mode: z._default(z.enum(['read', 'write']), 'read'),
    limit: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(50))),
    edit: z.discriminatedUnion('action', [
      z.object({ action: z.literal('rename'), to: z.string() }),
      z.object({ action: z.literal('delete') }),
    ]),
    tags: z.record(z.string(), z.array(z.string())),
  });
}

const prepared = (input: unknown) =>
  prepareTool(defineTool({ name: 'edit_files', description: 'Edit files.', input: input as never }));

describe('Zod 4 from every entry point gives the same bytes for the same schema', () => {
  const reference = prepared(withClassic(classic));

  test.each([
    ['zod/mini (zod 4)', () => withMini(mini)],
    ['zod/v4 (zod 3.25)', () => withClassic(classic325 as unknown as typeof classic)],
  ])('%s', (_case, make) => {
    expect(JSON.stringify(prepared(make()))).toBe(JSON.stringify(reference));
  });

  test('zod/v4-mini (zod 3.25): the same bytes, but for metadata kept in zod 3.25’s own registry', () => {
    const { digest: _digest, ...tool } = prepared(withMini(mini325 as unknown as typeof mini));
    const { digest: _reference, ...expected } = reference;
    const withoutDescription = JSON.parse(
      JSON.stringify(expected).replaceAll(',"description":"A path, or a list of paths"', ''),
    );
    expect(tool).toEqual(withoutDescription);
  });

  test('no stray output: nothing is printed while preparing from any entry point', () => {
    const spies = (['log', 'warn', 'error', 'info'] as const).map((method) => vi.spyOn(console, method));
    try {
      for (const input of [withClassic(classic325 as unknown as typeof classic), withMini(mini325 as never)])
        prepared(input);
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
