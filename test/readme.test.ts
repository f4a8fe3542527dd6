import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { createToolRuntime } from 'toolprep/runtime';
import { expect, test } from 'vitest';
import { z } from 'zod';

// The README's quick start, step by step (prepareToolSet standing in for the generated module):
// what it claims must stay true.
test('the README quick start does what it says', async () => {
  const readNotes = defineTool({
    description: 'Read one note, or several at once.',
    input: z.object({ paths: z.union([z.string(), z.array(z.string())]) }),
    annotations: { readOnlyHint: true },
  });
  const tools = prepareToolSet({ readNotes });
  const handlers = {
    read_notes: async ({ paths }: { paths: string | string[] }) =>
      Promise.all([paths].flat().map((file) => readFile(file, 'utf8'))),
  };
  const runtime = createToolRuntime(tools, { handlers });

  const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-readme-'));
  try {
    const [a, b] = [path.join(dir, 'a.md'), path.join(dir, 'b.md')];
    writeFileSync(a, 'A');
    writeFileSync(b, 'B');
    expect(await runtime.call('read_notes', { paths: [a, b] })).toEqual({ ok: true, value: ['A', 'B'] });
    expect(await runtime.call('read_notes', { paths: a })).toEqual({ ok: true, value: ['A'] });
    expect(await runtime.call('read_notes', { paths: JSON.stringify([a, b]) })).toMatchObject({
      ok: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: 'paths is a list written as text — pass the array itself, not JSON written as text',
      },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
