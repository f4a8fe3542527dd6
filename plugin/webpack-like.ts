import { fail, type PluginSession, type Sink } from './session.js';

/** The part of a webpack or Rspack compiler the plugin uses. */
export interface WebpackLikeCompiler {
  context: string;
  modifiedFiles?: ReadonlySet<string>;
  getInfrastructureLogger(name: string): { info(text: string): void; warn(text: string): void };
  hooks: {
    beforeRun: { tapPromise(name: string, run: () => Promise<void>): void };
    watchRun: { tapPromise(name: string, run: (compiler: WebpackLikeCompiler) => Promise<void>): void };
    watchClose: { tap(name: string, close: () => void): void };
  };
}

/**
 * webpack and Rspack run buildStart alongside the entry's build, so the module could be resolved
 * before it is written: generate before compiling instead (buildStart then finds nothing new).
 */
export function generateBeforeCompiling(compiler: WebpackLikeCompiler, session: PluginSession): void {
  session.useBundlerRoot(compiler.context);
  const logger = compiler.getInfrastructureLogger('toolprep');
  const sink: Sink = {
    info: (text) => logger.info(text),
    warn: (text) => logger.warn(text),
    error: fail,
  };
  compiler.hooks.beforeRun.tapPromise('toolprep', () => session.run(sink));
  compiler.hooks.watchRun.tapPromise('toolprep', async (watched) => {
    session.watchMode();
    session.noteChange([...(watched.modifiedFiles ?? [])][0]);
    await session.run(sink);
    session.watch(sink);
  });
  compiler.hooks.watchClose.tap('toolprep', session.unwatch);
}
