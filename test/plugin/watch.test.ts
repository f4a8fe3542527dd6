import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { isPackage, tsFromJs } from '../support/bundlers.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';

let fixture: FixtureProject | undefined;
afterEach(() => fixture?.remove());

async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));
const describeStats = (manifest: string) =>
  JSON.parse(manifest).tools.find((tool: { name: string }) => tool.name === 'note_stats').description;

/** Edits the note_stats contract, waits until the manifest follows, then lets any echo settle. */
async function editStatsAndSettle(): Promise<void> {
  const project = fixture as FixtureProject;
  project.write(
    'src/tools/stats.ts',
    project.read('src/tools/stats.ts').replace('Count notes, words and tags.', 'Count notes.'),
  );
  await until(
    () => describeStats(project.read('toolprep.manifest.json')) === 'Count notes.',
    'the manifest to follow',
  );
  await settle();
}

test('Vite dev server: an edited contract regenerates once, and the module is reloaded', async () => {
  fixture = copyFixture('project');
  const { createServer } = await import('vite');
  const { default: toolprep } = await import('@toolprep/build/vite');
  const logs: string[] = [];
  const record = (message: string) => logs.push(message);
  const server = await createServer({
    root: fixture.dir,
    configFile: false,
    appType: 'custom',
    plugins: [toolprep()],
    server: { middlewareMode: true, ws: false },
    customLogger: {
      info: record,
      warn: record,
      warnOnce: record,
      error: record,
      clearScreen: () => {},
      hasErrorLogged: () => false,
      hasWarned: false,
    },
  });
  try {
    await until(() => logs.some((line) => line.includes('8 tools found')), 'the first generation');
    const load = async () =>
      (
        (await server.ssrLoadModule('/src/toolprep.gen.ts')) as {
          tools: { prepared: { name: string; description: string }[] };
        }
      ).tools.prepared;
    expect((await load()).find((tool) => tool.name === 'note_stats')?.description).toBe(
      'Count notes, words and tags.',
    );

    await editStatsAndSettle();
    expect((await load()).find((tool) => tool.name === 'note_stats')?.description).toBe('Count notes.');
    expect(logs.filter((line) => line.includes('tools found'))).toEqual([
      expect.stringMatching(
        /\[toolprep\] build: 10 files scanned, 8 tools found in \d+ ms; wrote toolprep\.manifest\.json, src\/toolprep\.gen\.ts/,
      ),
      expect.stringMatching(
        /\[toolprep\] src\/tools\/stats\.ts changed: 10 files scanned, 8 tools found \(4 files from cache\) in \d+ ms; wrote toolprep\.manifest\.json, src\/toolprep\.gen\.ts/,
      ),
    ]);

    // A broken edit is shown, and the last good output stays in place.
    const good = fixture.read('toolprep.manifest.json');
    fixture.write(
      'src/tools/stats.ts',
      fixture.read('src/tools/stats.ts').replace("description: 'Count notes.'", "description: ''"),
    );
    await until(
      () => logs.some((line) => line.includes('has an empty description')),
      'the problem to be shown',
    );
    expect(logs.join('\n')).toContain('[toolprep] the last good output stays in place');
    expect(fixture.read('toolprep.manifest.json')).toBe(good);
  } finally {
    await server.close();
  }
});

test('Rollup watch: an edited contract regenerates once; its own write rebuilds without regenerating', async () => {
  fixture = copyFixture('project');
  const root = fixture.dir;
  const { watch } = await import('rollup');
  const { default: esbuild } = await import('rollup-plugin-esbuild');
  const { default: toolprep } = await import('@toolprep/build/rollup');
  const logs: string[] = [];
  let builds = 0;
  const watcher = watch({
    input: path.join(root, 'bundle-entry.ts'),
    external: isPackage,
    plugins: [toolprep({ root }), tsFromJs, esbuild({ target: 'node20' })],
    output: { dir: path.join(root, 'out/rollup-watch'), format: 'es' },
    onLog: (_level, log) => {
      if (log.plugin === 'toolprep') logs.push(log.message);
    },
    watch: { buildDelay: 50 },
  });
  watcher.on('event', (event) => {
    if (event.code === 'BUNDLE_END') {
      builds++;
      void event.result.close();
    }
  });
  try {
    await until(() => builds >= 1, 'the first build');
    await editStatsAndSettle();
    expect(logs.filter((line) => line.includes('tools found'))).toEqual([
      expect.stringMatching(/\[toolprep\] build: .*; wrote toolprep\.manifest\.json/),
      expect.stringMatching(/\[toolprep\] src\/tools\/stats\.ts changed: .*; wrote toolprep\.manifest\.json/),
    ]);
    expect(builds).toBeGreaterThanOrEqual(2);
  } finally {
    await watcher.close();
  }
});
