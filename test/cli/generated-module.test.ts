import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyFixture, type FixtureProject, REPO } from '../support/fixture-project.js';
import { runRecordingModules } from '../support/record-modules.js';

let fixture: FixtureProject;
beforeAll(() => {
  fixture = copyFixture('project');
  expect(fixture.cli('generate').status).toBe(0);
});
afterAll(() => fixture.remove());

function typeCheck(): { status: number | null; output: string } {
  const result = spawnSync(
    process.execPath,
    [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
    { cwd: fixture.dir, encoding: 'utf8' },
  );
  return { status: result.status, output: result.stdout + result.stderr };
}

let built: Promise<unknown> | undefined;
/** Runs `source` beside the fixture's server built with esbuild (`out/`), recording what it resolves. */
async function runBuilt(name: string, source: string): Promise<ReturnType<typeof runRecordingModules>> {
  const out = path.join(fixture.dir, 'out');
  built ??= build({
    entryPoints: [path.join(fixture.dir, 'src/**/*.ts')],
    outdir: out,
    outbase: path.join(fixture.dir, 'src'),
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
  });
  await built;
  writeFileSync(path.join(out, name), source);
  const run = runRecordingModules(fixture.dir, `out/${name}`);
  expect(run.stderr).toBe('');
  return run;
}

function manifestTools(): Record<string, unknown>[] {
  return JSON.parse(fixture.read('toolprep.manifest.json')).tools;
}

describe('the generated module', () => {
  test('type-checks with tsc, and checks each handler against its contract', () => {
    expect(typeCheck()).toEqual({ status: 0, output: '' });
    const server = fixture.read('src/server.ts');
    fixture.write(
      'src/server.ts',
      server.replace(
        'note_stats: async () => ({ notes: 0, words: 0 })',
        'note_stats: async ({ by }) => ({ notes: by, words: 0 })',
      ),
    );
    const broken = typeCheck();
    expect(broken.status).not.toBe(0);
    expect(broken.output).toMatch(
      /src\/server\.ts\(\d+,\d+\): error TS2322: Type 'Promise<\{ notes: "tag" \| "month" \| undefined; words: number; \}>' is not assignable to type '\{ notes: number; words: number; \}/,
    );
    fixture.write('src/server.ts', server);
  });

  test('a server built from it lists the tools without importing Zod or any contract module', async () => {
    const run = await runBuilt(
      'list.mjs',
      "import { runtime } from './server.js';\nconsole.log(JSON.stringify(runtime.list().map((tool) => tool.name)));\n",
    );
    expect(JSON.parse(run.stdout)).toEqual(manifestTools().map((tool) => tool.name));
    const { resolved } = run;
    expect(resolved.some((url) => url.endsWith('/out/server.js'))).toBe(true);
    expect(resolved.filter((url) => url.includes('/zod/') || url.includes('/out/tools/'))).toEqual([]);
  });

  test("its prepared tools read, part by part, as the manifest's", async () => {
    const run = await runBuilt(
      'prepared.mjs',
      "import { tools } from './toolprep.gen.js';\nconsole.log(JSON.stringify(tools.prepared));\n",
    );
    const prepared = manifestTools().map(
      ({ source: _source, size: _size, intents: _intents, ...tool }) => tool,
    );
    // The manifest writes its keys in an order of its own; a tool's own order is held in
    // test/manifest/later-parts.test.ts.
    expect(JSON.parse(run.stdout)).toEqual(prepared);
  });
});
