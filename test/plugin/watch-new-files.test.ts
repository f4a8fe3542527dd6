import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import {
  type BundlerName,
  esbuildOptions,
  isPackage,
  RSPACK_TS_LOADER,
  tsFromJs,
  WEBPACK_TS_LOADER,
  webpackLikeConfig,
} from '../support/bundlers.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';

/**
 * Every watch mode sees contract files added and removed under `include`, not only the files it
 * bundles: the new tool reaches the manifest and the bundle, and leaves both when its file goes.
 */
let fixture: FixtureProject | undefined;
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
  fixture?.remove();
});

const ENTRY = 'bundle-entry.ts';
/** What the plugin said under Rollup, whose logs a test can read. */
const rollupLogs: string[] = [];
const EXTRA = `import { defineTool } from 'toolprep';
import { z } from 'zod';

/** Count the words of a text. */
export const countWords = defineTool({ input: z.object({ text: z.string() }) });
`;

async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts the bundler's watch mode on the project; resolves once it is watching. */
type StartWatch = (root: string, outDir: string) => Promise<() => Promise<void>>;

const rollupLike =
  (
    watchOf: () => Promise<
      (options: object) => {
        close(): Promise<void>;
        on(
          event: string,
          listener: (event: { code: string; result?: { close(): Promise<void> } }) => void,
        ): void;
      }
    >,
    options: (root: string, outDir: string) => Promise<object>,
  ): StartWatch =>
  async (root, outDir) => {
    const watch = await watchOf();
    const watcher = watch(await options(root, outDir));
    watcher.on('event', (event) => {
      if (event.code === 'BUNDLE_END') void event.result?.close();
    });
    return () => watcher.close();
  };

const WATCHERS: Record<BundlerName, StartWatch> = {
  rollup: rollupLike(
    async () => (await import('rollup')).watch as never,
    async (root, outDir) => {
      const { default: esbuild } = await import('rollup-plugin-esbuild');
      const { default: toolprep } = await import('@toolprep/build/rollup');
      return {
        input: path.join(root, ENTRY),
        external: isPackage,
        plugins: [toolprep({ root }), tsFromJs, esbuild({ target: 'node20' })],
        output: { dir: outDir, format: 'es', entryFileNames: 'main.js' },
        onLog: (_level: string, log: { plugin?: string; message: string }) => {
          if (log.plugin === 'toolprep') rollupLogs.push(log.message);
        },
        watch: { buildDelay: 50 },
      };
    },
  ),
  rolldown: rollupLike(
    async () => (await import('rolldown')).watch as never,
    async (root, outDir) => {
      const { default: toolprep } = await import('@toolprep/build/rolldown');
      return {
        input: path.join(root, ENTRY),
        cwd: root,
        platform: 'node',
        external: isPackage,
        plugins: [toolprep()],
        resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
        logLevel: 'silent',
        output: { dir: outDir, format: 'es', entryFileNames: 'main.js' },
      };
    },
  ),
  async vite(root, outDir) {
    const { build } = await import('vite');
    const { default: toolprep } = await import('@toolprep/build/vite');
    const watcher = (await build({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [toolprep()],
      ssr: { external: true },
      build: {
        ssr: ENTRY,
        outDir,
        watch: {},
        rolldownOptions: { output: { format: 'es', entryFileNames: 'main.js' } },
      },
    })) as unknown as { close(): Promise<void> };
    return () => watcher.close();
  },
  async esbuild(root, outDir) {
    const { context } = await import('esbuild');
    const { default: toolprep } = await import('@toolprep/build/esbuild');
    const built = await context(esbuildOptions(root, outDir, toolprep()));
    await built.watch();
    return () => built.dispose();
  },
  async webpack(root, outDir) {
    const { default: webpack } = await import('webpack');
    const { default: toolprep } = await import('@toolprep/build/webpack');
    const compiler = webpack(webpackLikeConfig(root, outDir, toolprep(), WEBPACK_TS_LOADER) as never);
    const watching = compiler.watch({ aggregateTimeout: 50 }, () => {});
    return () => new Promise((resolve) => (watching ? watching.close(() => resolve()) : resolve()));
  },
  async rspack(root, outDir) {
    const { rspack } = await import('@rspack/core');
    const { default: toolprep } = await import('@toolprep/build/rspack');
    const compiler = rspack(webpackLikeConfig(root, outDir, toolprep(), RSPACK_TS_LOADER) as never);
    const watching = compiler.watch({ aggregateTimeout: 50 }, () => {});
    return () => new Promise((resolve) => (watching ? watching.close(() => resolve()) : resolve()));
  },
};

/** Whether any file the bundler wrote names this tool (in the prepared tools it carries). */
function bundled(outDir: string, name: string): boolean {
  if (!existsSync(outDir)) return false;
  return readdirSync(outDir, { recursive: true, withFileTypes: true }).some(
    (entry) => entry.isFile() && readFileSync(path.join(entry.parentPath, entry.name), 'utf8').includes(name),
  );
}

test.each(Object.keys(WATCHERS) as BundlerName[])(
  '%s watch: a contract file added and then removed is a tool, then none, in the manifest and the bundle',
  async (name) => {
    fixture = copyFixture('project');
    const project = fixture;
    const outDir = path.join(project.dir, 'out', name);
    const manifestNames = () =>
      existsSync(path.join(project.dir, 'toolprep.manifest.json'))
        ? (JSON.parse(project.read('toolprep.manifest.json')).tools as { name: string }[]).map(
            (tool) => tool.name,
          )
        : [];
    stop = await WATCHERS[name](project.dir, outDir);
    await until(() => manifestNames().length === 8 && bundled(outDir, 'note_stats'), 'the first build');

    project.write('src/tools/extra.ts', EXTRA);
    await until(() => manifestNames().includes('count_words'), 'the manifest to list the added tool');
    await until(() => bundled(outDir, 'count_words'), 'the bundle to carry the added tool');

    rmSync(path.join(project.dir, 'src/tools/extra.ts'));
    await until(() => !manifestNames().includes('count_words'), 'the manifest to drop the removed tool');
    expect(manifestNames()).toHaveLength(8);
    if (name === 'rollup') {
      // One regeneration per change: the rebuild the new module starts finds nothing to generate.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(rollupLogs.filter((line) => line.includes('tools found'))).toEqual([
        expect.stringMatching(/\[toolprep\] build: .* 8 tools found/),
        expect.stringMatching(/\[toolprep\] src\/tools\/extra\.ts added: .* 9 tools found .*; wrote/),
        expect.stringMatching(/\[toolprep\] src\/tools\/extra\.ts removed: .* 8 tools found .*; wrote/),
      ]);
    }
  },
  60_000,
);

test('Vite dev server: a contract file added and then removed is a tool, then none', async () => {
  fixture = copyFixture('project');
  const project = fixture;
  const { createServer } = await import('vite');
  const { default: toolprep } = await import('@toolprep/build/vite');
  const server = await createServer({
    root: project.dir,
    configFile: false,
    appType: 'custom',
    logLevel: 'silent',
    plugins: [toolprep()],
    server: { middlewareMode: true, ws: false },
  });
  stop = () => server.close();
  const listed = async () =>
    (
      (await server.ssrLoadModule('/src/toolprep.gen.ts')) as { tools: { prepared: { name: string }[] } }
    ).tools.prepared.map((tool) => tool.name);
  await until(() => existsSync(path.join(project.dir, 'toolprep.manifest.json')), 'the first generation');
  project.write('src/tools/extra.ts', EXTRA);
  await until(() => project.read('toolprep.manifest.json').includes('count_words'), 'the added tool');
  // The module the server loads follows once Vite's own watcher has seen the rewritten file.
  await until(async () => (await listed()).includes('count_words'), 'the added tool in the loaded module');
  rmSync(path.join(project.dir, 'src/tools/extra.ts'));
  await until(() => !project.read('toolprep.manifest.json').includes('count_words'), 'the removed tool');
  await until(
    async () => !(await listed()).includes('count_words'),
    'the removed tool gone from the loaded module',
  );
  expect(await listed()).not.toContain('count_words');
}, 60_000);
