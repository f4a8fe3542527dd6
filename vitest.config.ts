import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/slow-first-sequencer.js';

const fromRoot = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests import both packages by their public names; these resolve to the sources, not dist/.
    alias: [
      { find: /^@toolprep\/build$/, replacement: fromRoot('./src/build.ts') },
      { find: /^toolprep\/mcp$/, replacement: fromRoot('./src/surfaces/mcp/index.ts') },
      { find: /^toolprep\/mcp\/web$/, replacement: fromRoot('./src/surfaces/mcp/web.ts') },
      { find: /^toolprep\/mcp\/fetch$/, replacement: fromRoot('./src/surfaces/mcp/fetch.ts') },
      { find: /^toolprep\/mcp\/jwt$/, replacement: fromRoot('./src/surfaces/mcp/jwt.ts') },
      { find: /^toolprep\/mcp\/server$/, replacement: fromRoot('./src/surfaces/mcp/server.ts') },
      { find: /^toolprep\/mcp\/v2$/, replacement: fromRoot('./src/surfaces/mcp/v2.ts') },
      { find: /^toolprep\/cli$/, replacement: fromRoot('./src/surfaces/cli.ts') },
      { find: /^toolprep\/ai$/, replacement: fromRoot('./src/surfaces/ai.ts') },
      { find: /^toolprep\/openai$/, replacement: fromRoot('./src/surfaces/openai.ts') },
      { find: /^toolprep\/openai-agents$/, replacement: fromRoot('./src/surfaces/openai-agents.ts') },
      { find: /^toolprep\/anthropic$/, replacement: fromRoot('./src/surfaces/anthropic.ts') },
      { find: /^toolprep\/gemini$/, replacement: fromRoot('./src/surfaces/gemini.ts') },
      { find: /^@toolprep\/build\/rspack$/, replacement: fromRoot('./plugin/rspack.ts') },
      { find: /^@toolprep\/build\/webpack$/, replacement: fromRoot('./plugin/webpack.ts') },
      { find: /^@toolprep\/build\/esbuild$/, replacement: fromRoot('./plugin/esbuild.ts') },
      { find: /^@toolprep\/build\/rolldown$/, replacement: fromRoot('./plugin/rolldown.ts') },
      { find: /^@toolprep\/build\/rollup$/, replacement: fromRoot('./plugin/rollup.ts') },
      { find: /^@toolprep\/build\/vite$/, replacement: fromRoot('./plugin/vite.ts') },
      { find: /^toolprep\/tasks$/, replacement: fromRoot('./src/tasks/index.ts') },
      { find: /^toolprep\/tasks\/redis$/, replacement: fromRoot('./src/tasks/redis/index.ts') },
      { find: /^toolprep\/tasks\/client$/, replacement: fromRoot('./src/tasks/client/index.ts') },
      { find: /^toolprep\/testing$/, replacement: fromRoot('./src/testing/index.ts') },
      { find: /^toolprep\/runtime$/, replacement: fromRoot('./src/runtime/index.ts') },
      { find: /^toolprep\/runtime\/zod4$/, replacement: fromRoot('./src/adapters/zod4/runtime.ts') },
      { find: /^toolprep\/runtime\/zod3$/, replacement: fromRoot('./src/adapters/zod3/runtime.ts') },
      { find: /^toolprep\/runtime\/standard$/, replacement: fromRoot('./src/adapters/standard/runtime.ts') },
      { find: /^toolprep$/, replacement: fromRoot('./src/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // ArkType keeps every type it has made: the property suites make a few hundred per file, and
    // `npm run fuzz` up to 2,000, some 3 GB (test/support/schema-libraries.ts).
    execArgv: ['--max-old-space-size=6144'],
    testTimeout: 60_000,
    // Hooks get the tests' time: a beforeAll that runs the built CLI once or twice takes a few
    // seconds here and several times that on a loaded machine (vitest's default is 10 s).
    hookTimeout: 60_000,
    // Three workers on two cores: most files wait on processes they start (servers, bundlers, npm),
    // and vitest's default (cores - 1) left one core idle for most of the run. Measured here:
    // one worker 542 s, two 360 s, three 337 s, every test passing.
    maxWorkers: 3,
    sequence: { sequencer: SlowFirstSequencer },
  },
});
