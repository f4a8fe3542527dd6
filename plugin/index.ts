import {
  createUnplugin,
  type UnpluginBuildContext,
  type UnpluginContext,
  type UnpluginFactory,
} from 'unplugin';
import type { ToolprepConfig } from '../src/config/options.js';
import { createGeneratorContext, type GeneratorContext, type RunOutcome } from '../src/generate/context.js';
import { formatGenerateProblem } from '../src/generate/problems.js';

export interface ToolprepPluginOptions extends ToolprepConfig {
  /**
   * The project root. Default: the bundler's own (Vite `root`, webpack/Rspack `context`, esbuild
   * `absWorkingDir`, Rolldown `cwd`), else the working directory.
   */
  root?: string;
  /** A config file to use instead of `toolprep.config.{ts,mts,js,mjs}` in the root. */
  config?: string;
  /** Write nothing, and fail the build when the committed manifest or module is stale (CI). Default false. */
  check?: boolean;
  /** Write the manifest and the module when their bytes change. Default true. */
  write?: boolean;
}

/** Where a run's messages go in a given bundler. */
interface Sink {
  info(text: string): unknown;
  warn(text: string): unknown;
  error(text: string): unknown;
}

/** The part of a webpack or Rspack compiler the plugin uses. */
interface WebpackLikeCompiler {
  context: string;
  getInfrastructureLogger(name: string): { info(text: string): void; warn(text: string): void };
  hooks: {
    beforeRun: { tapPromise(name: string, run: () => Promise<void>): void };
    watchRun: { tapPromise(name: string, run: () => Promise<void>): void };
  };
}

const fail = (text: string): never => {
  // Throwing fails the build in every bundler.
  throw new Error(text);
};

/**
 * One plugin for every bundler: each hook is one call into the generator context the CLI shares.
 * The generated module is a real file (`src/toolprep.gen.ts`) imported by its path, so every
 * bundler and `tsc` resolve it without a virtual id. See docs/decisions/0005-bundler-plugin.md.
 */
export const unpluginFactory: UnpluginFactory<ToolprepPluginOptions | undefined, false> = (options = {}) => {
  const { root, config, check, write, ...inline } = options;
  let generator: GeneratorContext | undefined;
  /** The bundler's own idea of the project root, when it has one. */
  let bundlerRoot: string | undefined;
  /** In dev and watch mode a problem is shown and the last good output stays; in a build it fails. */
  let watching = false;
  const context = (): GeneratorContext =>
    (generator ??= createGeneratorContext({
      root: root ?? bundlerRoot,
      configFile: config,
      inline,
      check,
      write,
    }));

  const report = (outcome: RunOutcome, sink: Sink): void => {
    if (watching && outcome.ran && outcome.result) {
      const { tools, milliseconds } = outcome.result.stats;
      const written = outcome.written.length > 0 ? `wrote ${outcome.written.join(', ')}` : 'no change';
      sink.info(`[toolprep] regenerated: ${tools} tools in ${Math.round(milliseconds)} ms; ${written}`);
    }
    for (const warning of outcome.warnings) sink.warn(formatGenerateProblem(warning));
    if (outcome.problems.length > 0) {
      const text = outcome.problems.map(formatGenerateProblem).join('\n');
      if (watching) sink.warn(`${text}\n[toolprep] the last good output stays in place`);
      else sink.error(text);
    }
    if (outcome.stale && outcome.stale.stale.length > 0) sink.error(outcome.stale.text);
  };

  /**
   * webpack and Rspack run buildStart alongside the entry's build, so the module could be resolved
   * before it is written: generate before compiling instead (buildStart then finds nothing new).
   */
  const generateBeforeCompiling = (compiler: WebpackLikeCompiler): void => {
    bundlerRoot = compiler.context;
    const logger = compiler.getInfrastructureLogger('toolprep');
    const sink: Sink = { info: (text) => logger.info(text), warn: (text) => logger.warn(text), error: fail };
    compiler.hooks.beforeRun.tapPromise('toolprep', async () => report(await context().run(), sink));
    compiler.hooks.watchRun.tapPromise('toolprep', async () => {
      watching = true;
      report(await context().run(), sink);
    });
  };

  return {
    name: 'toolprep',
    enforce: 'pre',
    async buildStart() {
      const native = this as UnpluginBuildContext &
        Partial<UnpluginContext> & { meta?: { watchMode?: boolean }; info?: (text: string) => void };
      watching ||= Boolean(native.meta?.watchMode);
      report(await context().run(), {
        info: (text) => native.info?.(text),
        // esbuild's context has no warn: stderr is where its own warnings go too.
        warn: (text) => (native.warn ? native.warn(text) : process.stderr.write(`${text}\n`)),
        error: fail,
      });
      // esbuild watches what it bundles, and has no addWatchFile outside resolve and load hooks.
      if (native.getNativeBuildContext?.().framework === 'esbuild') return;
      for (const file of context().watchFiles()) this.addWatchFile(file);
    },
    vite: {
      configResolved(resolved) {
        bundlerRoot = resolved.root;
        watching = resolved.command === 'serve';
      },
      configureServer(server) {
        // The dev server builds nothing on change: regenerate here; Vite then sees the module change.
        const { logger } = server.config;
        const sink: Sink = {
          info: (text) => logger.info(text, { timestamp: true }),
          warn: (text) => logger.warn(text, { timestamp: true }),
          error: (text) => logger.error(text, { timestamp: true }),
        };
        server.watcher.on('all', (_event, file) => {
          if (!context().isOutput(file))
            void context()
              .run()
              .then((outcome) => report(outcome, sink));
        });
      },
    },
    rolldown: {
      options(input) {
        bundlerRoot = input.cwd;
      },
    },
    esbuild: {
      config(build) {
        bundlerRoot = build.absWorkingDir;
      },
    },
    webpack: (compiler) => generateBeforeCompiling(compiler),
    rspack: (compiler) => generateBeforeCompiling(compiler),
  };
};

export const unplugin = createUnplugin(unpluginFactory);
export default unplugin;
