import { createUnplugin, type UnpluginFactory } from 'unplugin';
import { generateAtBuildStart } from './build-start.js';
import { createPluginSession, type ToolprepPluginOptions } from './session.js';
import { configureDevServer } from './vite-dev-server.js';
import { generateBeforeCompiling } from './webpack-like.js';

export type { ToolprepPluginOptions } from './session.js';

/**
 * One plugin for every bundler: each hook is one call into the plugin's session, which holds the
 * generator context the CLI shares and the same source watcher, and reports in the CLI's words.
 * The generated module is a real file (`src/toolprep.gen.ts`) imported by its path, so every
 * bundler and `tsc` resolve it without a virtual id. See docs/decisions/0005-bundler-plugin.md.
 */
const unpluginFactory: UnpluginFactory<ToolprepPluginOptions | undefined, false> = (options) => {
  const session = createPluginSession(options);
  return {
    name: 'toolprep',
    enforce: 'pre',
    buildStart() {
      return generateAtBuildStart(this, session);
    },
    watchChange: (id) => session.noteChange(id),
    rollup: { closeWatcher: session.unwatch },
    vite: {
      configResolved: (resolved) => session.useBundlerRoot(resolved.root, resolved.command === 'serve'),
      configureServer: (server) => configureDevServer(server, session),
      closeWatcher: session.unwatch,
      closeServer: session.unwatch,
    },
    rolldown: {
      options: (input) => session.useBundlerRoot(input.cwd),
      closeWatcher: session.unwatch,
    },
    esbuild: {
      config: (build) => session.useBundlerRoot(build.absWorkingDir),
      setup: (build) => build.onDispose(session.unwatch),
    },
    webpack: (compiler) => generateBeforeCompiling(compiler, session),
    rspack: (compiler) => generateBeforeCompiling(compiler, session),
  };
};

export const unplugin = createUnplugin(unpluginFactory);
