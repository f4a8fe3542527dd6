import path from 'node:path';
import type { ToolprepConfig } from '../src/config/options.js';
import {
  createGeneratorContext,
  type GeneratorContext,
  type GeneratorContextOptions,
} from '../src/generate/context.js';
import { describeOutcome } from '../src/generate/outcome.js';
import { createReportServer, type ReportServer } from '../src/generate/report-server.js';
import { type SourceWatcher, watchSources } from '../src/generate/watch.js';
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
export interface Sink {
  info(text: string): unknown;
  warn(text: string): unknown;
  error(text: string): unknown;
}

/** A sink's `error` in a build: throwing fails the build in every bundler. */
export const fail = (text: string): never => {
  throw new Error(text);
};

/** What one plugin instance keeps across a bundler's builds: one generator context, one watcher. */
export interface PluginSession {
  /** The generator context, made on first use, at the bundler's root unless the options name one. */
  context(): GeneratorContext;
  /** The bundler's own project root (and whether it serves or watches, when it says so), before a run. */
  useBundlerRoot(root: string | undefined, watching?: boolean): void;
  /** The bundler watches: a problem is shown and the last good output stays; in a build it fails. */
  watchMode(): void;
  readonly watching: boolean;
  /** The bundler reported `file` changed: its next run says so. */
  noteChange(file: string | undefined): void;
  /** Generates, and reports the outcome to `sink` in the CLI's words. */
  run(sink: Sink, reason?: string): Promise<void>;
  /**
   * Starts the source watcher (once): a bundler watches only the files it bundles, so a new
   * contract file would wait for some other change. Its runs are outside any build: what they
   * report never throws. A host with its own watcher gives `fileSystem: false` and calls `notice`.
   */
  watch(sink: Sink, fileSystem?: boolean): SourceWatcher;
  unwatch(): void;
  /** The dev server's surface report, fed by every run. */
  report(): ReportServer;
}

export function createPluginSession(options: ToolprepPluginOptions = {}): PluginSession {
  const { root, config, check, write, ...inline } = options;
  let generator: GeneratorContext | undefined;
  /** The bundler's own idea of the project root, when it has one. */
  let bundlerRoot: string | undefined;
  let watching = false;
  /** The file whose change the bundler reported last: what starts its next build. */
  let changed: string | undefined;
  let watcher: SourceWatcher | undefined;
  let report: ReportServer | undefined;

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

  const run = async (sink: Sink, reason = takeReason()): Promise<void> => {
    const outcome = await context()
      .run()
      .catch((error: unknown) => {
        // A config problem is an outcome; what is thrown is a bug, worded as the CLI words it.
        sink.error(describeError(error));
      });
    if (!outcome) return;
    report?.publish(outcome);
    // The run may have changed `include` or the config file.
    watcher?.update();
    const described = describeOutcome(outcome, { reason, watching });
    if (watching && described.summary) sink.info(described.summary);
    for (const warning of described.warnings) sink.warn(warning);
    if (described.problems.length > 0) (watching ? sink.warn : sink.error)(described.problems.join('\n'));
    if (described.stale) sink.error(described.stale);
  };

  return {
    context,
    useBundlerRoot(root, watch) {
      bundlerRoot = root;
      if (watch !== undefined) watching = watch;
    },
    watchMode() {
      watching = true;
    },
    get watching() {
      return watching;
    },
    noteChange(file) {
      if (file && !context().isOutput(file)) changed = file;
    },
    run,
    watch(sink, fileSystem = true) {
      const quiet: Sink = { ...sink, error: sink.warn };
      watcher ??= watchSources(context(), {
        configFile: config,
        fileSystem,
        onChange: (reason) => run(quiet, reason),
      });
      return watcher;
    },
    unwatch() {
      watcher?.close();
      watcher = undefined;
    },
    report() {
      report ??= createReportServer(context());
      return report;
    },
  };
}
