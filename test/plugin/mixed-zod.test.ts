import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type BundlerName, bundlers } from '../support/bundlers.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';
import { runRecordingModules } from '../support/record-modules.js';

/**
 * A project in the middle of a migration, on zod 3.25: tools written with its root export (the
 * Zod 3 API), with `zod/v4` and with `zod/v4-mini`, side by side. The CLI and the plugin must write
 * the same bytes, and the built server must serve each tool with its own library's parser.
 */
const OUTPUTS = ['toolprep.manifest.json', 'src/toolprep.gen.ts'];
const LIST = 'paths is a list written as text — pass the array itself, not JSON written as text';

let reference: FixtureProject;
beforeAll(() => {
  reference = copyFixture('mixed-zod', { zod: 'zod325' });
  const generate = reference.cli('generate');
  expect(generate.stderr).toBe('');
  expect(generate.status).toBe(0);
});
afterAll(() => reference.remove());

test('the CLI records each tool with its own library, and the module brings both adapters', () => {
  const manifest = JSON.parse(reference.read('toolprep.manifest.json'));
  expect(
    manifest.tools.map((tool: { name: string; libraries: string[] }) => [tool.name, tool.libraries]),
  ).toEqual([
    ['archive_notes', ['zod4']],
    ['move_note', ['zod4']],
    ['read_files', ['zod3']],
    ['tag_notes', ['zod3']],
  ]);
  const generated = reference.read('src/toolprep.gen.ts');
  expect(generated).toContain(
    "import { zod3 } from 'toolprep/runtime/zod3';\nimport { zod4 } from 'toolprep/runtime/zod4';",
  );
  expect(generated).toContain('adapters: [zod3, zod4],');
});

describe.each(['vite', 'webpack'] as BundlerName[])('%s', (name) => {
  let project: FixtureProject;
  let outDir: string;
  beforeAll(async () => {
    project = copyFixture('mixed-zod', { zod: 'zod325' });
    outDir = path.join(project.dir, 'out', name);
    await bundlers[name](project.dir, outDir, {});
  }, 60_000);
  afterAll(() => project.remove());

  test('the plugin writes the same bytes as toolprep generate', () => {
    for (const file of OUTPUTS) expect(project.read(file)).toBe(reference.read(file));
  });

  test('the bundle serves Zod 3, Zod 4 and Zod 4 Mini tools, each repaired or refused by the rule', () => {
    const run = runRecordingModules(project.dir, path.join(outDir, 'main.js'));
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      tools: ['archive_notes', 'move_note', 'read_files', 'tag_notes'],
      zod3: { ok: true, value: ['a: x, y'] },
      zod4: { ok: true, value: 'a → b at 1,2' },
      mini: { ok: true, value: 2 },
      listAsText: { ok: false, error: expect.objectContaining({ message: LIST }) },
    });
  });
});
