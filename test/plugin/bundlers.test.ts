import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type BundlerName, bundlers } from '../support/bundlers.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';
import { runRecordingModules } from '../support/record-modules.js';

const OUTPUTS = ['toolprep.manifest.json', 'src/toolprep.gen.ts', 'src/toolprep.gen.walks.ts'];
let reference: FixtureProject;
beforeAll(() => {
  reference = copyFixture('project');
  expect(reference.cli('generate').status).toBe(0);
});
afterAll(() => reference.remove());

/** Runs a built bundle, recording every module it resolves. */
function runBundle(project: FixtureProject, main: string, ...args: string[]) {
  const run = runRecordingModules(project.dir, main, ...args);
  expect(run.stderr).toBe('');
  return { output: JSON.parse(run.stdout), resolved: run.resolved };
}

describe.each(Object.keys(bundlers) as BundlerName[])('%s', (name) => {
  let project: FixtureProject;
  let outDir: string;
  beforeAll(async () => {
    project = copyFixture('project');
    outDir = path.join(project.dir, 'out', name);
    await bundlers[name](project.dir, outDir, {});
  });
  afterAll(() => project.remove());

  test('the plugin writes the same bytes as toolprep generate', () => {
    for (const file of OUTPUTS) expect(project.read(file)).toBe(reference.read(file));
  });

  test('the bundle lists the tools of the manifest and repairs a call', () => {
    const { output } = runBundle(project, path.join(outDir, 'main.js'));
    const manifest = JSON.parse(project.read('toolprep.manifest.json'));
    expect(output.tools).toEqual(
      manifest.tools.map(({ source: _source, size: _size, ...tool }: Record<string, unknown>) => tool),
    );
    expect(output.call).toEqual({ ok: true, value: 1 });
  });

  test('listing loads no contract chunk and no Zod; the first call loads its chunk', () => {
    const bundleFiles = (resolved: string[]) =>
      resolved.filter((url) => url.includes(`/out/${name}/`)).map((url) => path.basename(url));
    const listed = runBundle(project, path.join(outDir, 'main.js'), 'list').resolved;
    expect(bundleFiles(listed)).toEqual(['main.js']);
    expect(listed.filter((url) => url.includes('/zod/'))).toEqual([]);
    const called = runBundle(project, path.join(outDir, 'main.js')).resolved;
    expect(bundleFiles(called).length).toBeGreaterThan(1);
    expect(called.some((url) => url.includes('/zod/'))).toBe(true);
    expect(readdirSync(outDir).length).toBeGreaterThan(1);
  });

  test('check: true fails the build on a stale manifest and passes on a current one', async () => {
    const stale = project
      .read('toolprep.manifest.json')
      .replace('"Count notes, words and tags."', '"Count notes."');
    writeFileSync(path.join(project.dir, 'toolprep.manifest.json'), stale);
    await expect(bundlers[name](project.dir, `${outDir}-check`, { check: true })).rejects.toThrow(
      /\[toolprep\] check: the committed tool surface is stale: toolprep\.manifest\.json[\s\S]*~ tool note_stats\n[\s│]+description changed/,
    );
    expect(project.read('toolprep.manifest.json')).toBe(stale);
    writeFileSync(path.join(project.dir, 'toolprep.manifest.json'), reference.read('toolprep.manifest.json'));
    await expect(bundlers[name](project.dir, `${outDir}-check`, { check: true })).resolves.toBeUndefined();
  });
});

describe('a problem in the project fails a production build, with its file and line', () => {
  test.each(Object.keys(bundlers) as BundlerName[])('%s', async (name) => {
    const project = copyFixture('project');
    try {
      project.write(
        'src/tools/stats.ts',
        project
          .read('src/tools/stats.ts')
          .replace("description: 'Count notes, words and tags.'", "description: ''"),
      );
      await expect(bundlers[name](project.dir, path.join(project.dir, 'out', name), {})).rejects.toThrow(
        /src\/tools\/stats\.ts:4 tool "note_stats", description: has an empty description/,
      );
    } finally {
      project.remove();
    }
  });
});
