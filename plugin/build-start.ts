import type { UnpluginBuildContext, UnpluginContext } from 'unplugin';
import { fail, type PluginSession, type Sink } from './session.js';

/** The build context unplugin gives `buildStart`, with what some bundlers add to it. */
type BuildStartContext = UnpluginBuildContext &
  Partial<UnpluginContext> & { meta?: { watchMode?: boolean }; info?: (text: string) => void };

/**
 * Generates at the start of a build (every bundler but webpack and Rspack), then has the bundler
 * watch the config file and the contract files; in watch mode, starts the source watcher.
 */
export async function generateAtBuildStart(native: BuildStartContext, session: PluginSession): Promise<void> {
  if (native.meta?.watchMode) session.watchMode();
  const sink: Sink = {
    info: (text) => native.info?.(text),
    // esbuild's context has no warn: stderr is where its own warnings go too.
    warn: (text) => (native.warn ? native.warn(text) : process.stderr.write(`${text}\n`)),
    error: fail,
  };
  await session.run(sink);
  // esbuild has no watch flag: its source watcher ends when the build or the context is disposed.
  const esbuild = native.getNativeBuildContext?.().framework === 'esbuild';
  if (session.watching || esbuild) session.watch(sink);
  // esbuild watches what it bundles, and has no addWatchFile outside resolve and load hooks.
  if (esbuild) return;
  for (const file of session.context().watchFiles()) native.addWatchFile(file);
}
