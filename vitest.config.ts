import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const fromRoot = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests import the package by its public name; these resolve to the sources, not dist/.
    alias: [
      { find: /^toolprep\/build$/, replacement: fromRoot('./src/build.ts') },
      { find: /^toolprep\/runtime$/, replacement: fromRoot('./src/runtime/index.ts') },
      { find: /^toolprep$/, replacement: fromRoot('./src/contract/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
