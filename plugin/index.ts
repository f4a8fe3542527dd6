import { existsSync, type FSWatcher, watch } from 'node:fs';
import path from 'node:path';
import {
  createUnplugin,
  type UnpluginBuildContext,
  type UnpluginContext,
  type UnpluginFactory,
} from 'unplugin';
import type { ResolvedToolprepConfig, ToolprepConfig } from '../src/config/options.js';
import {
  createGeneratorContext,
  type GeneratorContext,
  type GeneratorContextOptions,
} from '../src/generate/context.js';
import { describeOutcome } from '../src/generate/outcome.js';
import { manifestInHead, surfaceReport } from '../src/generate/report.js';
import type { Manifest } from '../src/manifest/manifest.js';
import { describeError } from '../src/shared/build/problems.js';

/**
 * Every configuration key (they override the config file), and the generator context's own
 * options under the names the CLI uses (`--root`, `--config`).
 */
export type ToolprepPluginOptions = ToolprepConfig &
  Pick<GeneratorContextOptions, 'check' | 'write'> & {
    /**
     * The project root. Default: the bundler's own (Vite `root`, webpack/Rspack `context`, esbuild
     * `absWorkingDir`, Rolldown `cwd`), else the working directory.
     */
    root?: string;
    /** A config file to use instead of `toolprep.config.{ts,mts,js,mjs}` in the root. */
    config?: GeneratorContextOptions['configFile'];
  };

/** Where a run's messages go in a given bundler. */
interface Sink {
  info(text: string): unknown;
  warn(text: string): unknown;
  error(text: string): unknown;
}

/** The part of a webpack or Rspack compiler the plugin uses. */
interface WebpackLikeCompiler {
  context: string;
  modifiedFiles?: ReadonlySet<string>;
  getInfrastructureLogger(name: string): { info(text: string): void; warn(text: string): void };
  hooks: {
    beforeRun: { tapPromise(name: string, run: () => Promise<void>): void };
    watchRun: { tapPromise(name: string, run: (compiler: WebpackLikeCompiler) => Promise<void>): void };
    watchClose: { tap(name: string, close: () => void): void };
  };
}

/** Where Vite's dev server serves the surface report. */
const REPORT_PATH = '/__toolprep';

const fail = (text: string): never => {
  // Throwing fails the build in every bundler.
  throw new Error(text);
};

/**
 * One plugin for every bundler: each hook is one call into the generator context the CLI shares,
 * reported in the CLI's words. The generated module is a real file (`src/toolprep.gen.ts`)
 * imported by its path, so every bundler and `tsc` resolve it without a virtual id. See
 * docs/decisions/0005-bundler-plugin.md.
 */
export const unpluginFactory: UnpluginFactory<ToolprepPluginOptions | undefined, false> = (options = {}) => {
  const { root, config, check, write, ...inline } = options;
  let generator: GeneratorContext | undefined;
  /** The bundler's own idea of the project root, when it has one. */
  let bundlerRoot: string | undefined;
  /** In dev and watch mode a problem is shown and the last good output stays; in a build it fails. */
  let watching = false;
  /** The file whose change the bundler reported last: what starts its next build. */
  let changed: string | undefined;
  const context = (): GeneratorContext =>
    (generator ??= createGeneratorContext({
      root: root ?? bundlerRoot,
      configFile: config,
      inline,
      check,
      write,
    }));

  /** What starts a run: the file the bundler reported changed, if any; taken once. */
  const takeReason = (): string => {
    const reason = changed ? `${path.relative(context().root, changed)} changed` : 'build';
    changed = undefined;
    return reason;
  };
  /** The last surface generated, for the dev server's report page; its version counts regenerations. */
  let surface: { manifest: Manifest; config: ResolvedToolprepConfig; version: number } | undefined;
  const run = async (sink: Sink, reason = takeReason()): Promise<void> => {
    const outcome = await context()
      .run()
      .catch((error: unknown) => {
        // A config problem is an outcome; what is thrown is a bug, worded as the CLI words it.
        sink.error(describeError(error));
      });
    if (!outcome) return;
    if (outcome.generation?.manifest && outcome.config)
      surface = {
        manifest: outcome.generation.manifest,
        config: outcome.config,
        version: (surface?.version ?? 0) + 1,
      };
    const report = describeOutcome(outcome, { reason, watching });
    if (watching && report.summary) sink.info(report.summary);
    for (const warning of report.warnings) sink.warn(warning);
    if (report.problems.length > 0) (watching ? sink.warn : sink.error)(report.problems.join('\n'));
    if (report.stale) sink.error(report.stale);
  };

  /**
   * Files added, removed or renamed under `include`: a bundler watches only the files it bundles,
   * so a new contract file would wait for some other change. Regenerating rewrites the generated
   * module, which the bundler does watch; its rebuild then finds nothing more to generate.
   */
  let folderWatchers: FSWatcher[] | undefined;
  let folderChange: { timer: NodeJS.Timeout; reason: string } | undefined;
  const watchFolders = (sink: Sink): void => {
    if (folderWatchers) return;
    // A run started by the watcher is outside any build: what it reports must not throw.
    const quiet: Sink = { ...sink, error: sink.warn };
    folderWatchers = context()
      .watchFolders()
      .filter((folder) => existsSync(folder))
      .map((folder) => {
        const watcher = watch(folder, { recursive: true }, (event, name) => {
          if (event !== 'rename' || !name) return;
          const file = path.join(folder, name.toString());
          if (context().isOutput(file)) return;
          // One regeneration for a burst of events (an editor's save, a moved folder).
          clearTimeout(folderChange?.timer);
          const reason = `${path.relative(context().root, file)} ${existsSync(file) ? 'added' : 'removed'}`;
          folderChange = {
            reason,
            timer: setTimeout(() => {
              folderChange = undefined;
              void run(quiet, reason);
            }, 50),
          };
        });
        // A folder removed under the watcher ends it; it never keeps a process alive.
        watcher.on('error', () => watcher.close());
        watcher.unref();
        return watcher;
      });
  };
  const unwatchFolders = (): void => {
    clearTimeout(folderChange?.timer);
    for (const watcher of folderWatchers ?? []) watcher.close();
    folderWatchers = undefined;
  };
  /** Vite's dev server watches the whole root itself. */
  let devServer = false;

  /**
   * webpack and Rspack run buildStart alongside the entry's build, so the module could be resolved
   * before it is written: generate before compiling instead (buildStart then finds nothing new).
   */
  const generateBeforeCompiling = (compiler: WebpackLikeCompiler): void => {
    bundlerRoot = compiler.context;
    const logger = compiler.getInfrastructureLogger('toolprep');
    const sink: Sink = { info: (text) => logger.info(text), warn: (text) => logger.warn(text), error: fail };
    compiler.hooks.beforeRun.tapPromise('toolprep', () => run(sink));
    compiler.hooks.watchRun.tapPromise('toolprep', async (watched) => {
      watching = true;
      changed = [...(watched.modifiedFiles ?? [])][0];
      await run(sink);
      watchFolders(sink);
    });
    compiler.hooks.watchClose.tap('toolprep', unwatchFolders);
  };

  return {
    name: 'toolprep',
    enforce: 'pre',
    async buildStart() {
      const native = this as UnpluginBuildContext &
        Partial<UnpluginContext> & { meta?: { watchMode?: boolean }; info?: (text: string) => void };
      watching ||= Boolean(native.meta?.watchMode);
      const sink: Sink = {
        info: (text) => native.info?.(text),
        // esbuild's context has no warn: stderr is where its own warnings go too.
        warn: (text) => (native.warn ? native.warn(text) : process.stderr.write(`${text}\n`)),
        error: fail,
      };
      await run(sink);
      // esbuild has no watch flag: its folder watcher ends when the build or the context is disposed.
      const esbuild = native.getNativeBuildContext?.().framework === 'esbuild';
      if ((watching && !devServer) || esbuild) watchFolders(sink);
      // esbuild watches what it bundles, and has no addWatchFile outside resolve and load hooks.
      if (esbuild) return;
      for (const file of context().watchFiles()) this.addWatchFile(file);
    },
    watchChange(id) {
      if (!context().isOutput(id)) changed = id;
    },
    rollup: { closeWatcher: unwatchFolders },
    vite: {
      closeWatcher: unwatchFolders,
      configResolved(resolved) {
        bundlerRoot = resolved.root;
        watching = resolved.command === 'serve';
      },
      configureServer(server) {
        // The dev server builds nothing on change: regenerate here; Vite then sees the module change.
        devServer = true;
        const { logger } = server.config;
        const sink: Sink = {
          info: (text) => logger.info(text, { timestamp: true }),
          warn: (text) => logger.warn(text, { timestamp: true }),
          error: (text) => logger.error(text, { timestamp: true }),
        };
        server.watcher.on('all', (_event, file) => {
          if (context().isOutput(file)) return;
          const reason = `${path.relative(context().root, file)} changed`;
          void run(sink, reason);
        });
        // The surface report, live, compared with the manifest of the last commit.
        const project = { root: context().root, configFile: config, inline };
        const pages = new Map<number, Promise<string>>();
        server.middlewares.use(REPORT_PATH, (request, response) => {
          const shown = surface;
          if (request.url?.startsWith('/version')) return response.end(String(shown?.version ?? 0));
          if (!shown) {
            response.statusCode = 503;
            return response.end('toolprep has not generated the tools yet');
          }
          if (!pages.has(shown.version)) {
            pages.clear();
            const live = { versionUrl: `${REPORT_PATH}/version`, version: shown.version };
            const committed = manifestInHead(project.root, shown.config);
            pages.set(shown.version, surfaceReport(project, shown.manifest, shown.config, committed, live));
          }
          void (pages.get(shown.version) as Promise<string>).then(
            (page) => response.setHeader('content-type', 'text/html; charset=utf-8').end(page),
            (error: unknown) => {
              response.statusCode = 500;
              response.end(describeError(error));
            },
          );
        });
        logger.info(`[toolprep] the tool surface report: ${REPORT_PATH}`, { timestamp: true });
      },
    },
    rolldown: {
      closeWatcher: unwatchFolders,
      options(input) {
        bundlerRoot = input.cwd;
      },
    },
    esbuild: {
      config(build) {
        bundlerRoot = build.absWorkingDir;
      },
      setup(build) {
        build.onDispose(unwatchFolders);
      },
    },
    webpack: (compiler) => generateBeforeCompiling(compiler),
    rspack: (compiler) => generateBeforeCompiling(compiler),
  };
};

export const unplugin = createUnplugin(unpluginFactory);
export default unplugin;
