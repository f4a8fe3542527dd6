import { defineTool } from 'toolprep';
import { prepareTool } from 'toolprep/build';
import { createToolRuntime } from 'toolprep/runtime';
import { expect, test } from 'vitest';
import { z } from 'zod';

// The README's example, statement for statement: what it claims must stay true.
test('the README example gives what it says', async () => {
  const readFiles = defineTool({
    description: 'Read one file or several files from the workspace.',
    input: z.object({
      paths: z.union([z.string(), z.array(z.string())]).describe('A path, or a list of paths'),
      encoding: z.enum(['utf8', 'base64']).default('utf8'),
    }),
    annotations: { readOnlyHint: true },
  });

  const prepared = prepareTool(readFiles, { exportName: 'readFiles' });
  expect(prepared.name).toBe('read_files');
  expect(prepared.inputSchema.mcp).toMatchObject({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
  });
  expect(Object.isFrozen(prepared.inputSchema.mcp)).toBe(true);
  expect(prepared.inputSchema.agent.$schema).toBe('http://json-schema.org/draft-07/schema#');

  const runtime = createToolRuntime(
    { tools: [prepared], load: { read_files: () => readFiles } },
    { handlers: { read_files: ({ paths }: { paths: string[] }) => paths } },
  );
  expect(await runtime.call('read_files', { paths: ['a.png'] })).toEqual({ ok: true, value: ['a.png'] });
  expect(await runtime.call('read_files', { paths: '["a.png"]' })).toMatchObject({
    ok: false,
    error: {
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/^paths is a list written as text — /),
    },
  });
});
