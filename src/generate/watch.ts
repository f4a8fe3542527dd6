import { existsSync, type FSWatcher, watch } from 'node:fs';
import path from 'node:path';
import { resolveConfigFile } from '../config/config-file.js';
import type { GeneratorContext } from './context.js';

/** What happened to a path, in the words a regeneration's reason uses. */
export type SourceChange = 'added' | 'removed' | 'changed';

/** The sources' files toolprep reads: a change to any other file cannot change what it generates. */
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** How long a burst of events (an editor's save, a moved folder) waits for its last event. */
const DEBOUNCE_MS = 50;

export interface SourceWatcherOptions {
  /** The config file the generator was given, as in `GeneratorContextOptions`. */
  readonly configFile?: string;
  /** Starts a regeneration; `reason` says what started it: `src/tools/a.ts added`. */
  readonly onChange: (reason: string) => unknown;
  /**
   * Watch the file system (the default); false for a host with a watcher of its own (Vite's dev
   * server), which passes its events to `notice`.
   */
  readonly fileSystem?: boolean;
}

export interface SourceWatcher {
  /** A path the host's own watcher saw change; it starts a regeneration if the rules say so. */
  notice(file: string, change: SourceChange): void;
  /** Follows the generator's last run: the folders `include` names now, and the config file. */
  update(): void;
  close(): void;
}

/**
 * The one source watcher of watch mode and every bundler plugin. A path starts a regeneration
 * when it is the config file in use (or becomes it), or a source file (`.ts`, `.tsx`, `.mts`,
 * `.cts`, `.js`, `.jsx`, `.mjs`, `.cjs`) under a folder `include` searches, outside node_modules
 * and other than toolprep's own output; added, removed and changed alike. One regeneration per
 * burst, named after its first path. Call `update` after each run: `include` may have changed.
 */
export function watchSources(generator: GeneratorContext, options: SourceWatcherOptions): SourceWatcher {
  const { root } = generator;
  let folders: readonly string[] = [];
  /** The config file in use at the last update: its removal counts too. */
  let configFile: string | undefined;
  /** Default config files live in the root; a named one, where it is named. */
  const configFolder = options.configFile ? path.dirname(path.resolve(root, options.configFile)) : root;
  const watchers = new Map<string, FSWatcher>();
  let pending: { timer: NodeJS.Timeout; reason: string } | undefined;
  /** A run that ends after `close` updates nothing: a closed watcher stays closed. */
  let closed = false;

  const startsRun = (file: string): boolean => {
    if (file === configFile || file === resolveConfigFile(root, options.configFile)) return true;
    // A view's HTML, styles and modules, wherever they are.
    if (generator.watchFiles().includes(file)) return true;
    if (!SOURCE.test(file) || generator.isOutput(file)) return false;
    if (file.includes(`${path.sep}node_modules${path.sep}`)) return false;
    return folders.some((folder) => file.startsWith(`${folder}${path.sep}`));
  };

  const notice = (file: string, change: SourceChange): void => {
    const absolute = path.resolve(root, file);
    if (closed || !startsRun(absolute)) return;
    clearTimeout(pending?.timer);
    const reason = pending?.reason ?? `${path.relative(root, absolute)} ${change}`;
    pending = {
      reason,
      timer: setTimeout(() => {
        pending = undefined;
        options.onChange(reason);
      }, DEBOUNCE_MS),
    };
  };

  /** Watches `folder` (with its subfolders when `recursive`) unless it is watched already. */
  const watchFolder = (folder: string, recursive: boolean, wanted: Set<string>): void => {
    const key = `${recursive ? 'tree' : 'folder'}:${folder}`;
    wanted.add(key);
    if (watchers.has(key) || !existsSync(folder)) return;
    const watcher = watch(folder, { recursive }, (event, name) => {
      if (!name) return;
      const file = path.join(folder, name.toString());
      notice(file, event === 'change' ? 'changed' : existsSync(file) ? 'added' : 'removed');
    });
    // A folder removed under the watcher ends it; it never keeps a process alive.
    watcher.on('error', () => {
      watcher.close();
      watchers.delete(key);
    });
    watcher.unref();
    watchers.set(key, watcher);
  };

  const update = (): void => {
    if (closed) return;
    folders = generator.watchFolders();
    configFile = resolveConfigFile(root, options.configFile);
    if (options.fileSystem === false) return;
    const wanted = new Set<string>();
    for (const folder of folders) watchFolder(folder, true, wanted);
    // The config file's folder is watched for that file alone, unless a folder of `include` holds it.
    const outside = (file: string) => !folders.some((folder) => file.startsWith(`${folder}${path.sep}`));
    if (outside(`${configFolder}${path.sep}`)) watchFolder(configFolder, false, wanted);
    // The folders of what the views are built from, where `include` does not reach.
    for (const file of generator.watchFiles())
      if (outside(file) && !file.includes(`${path.sep}node_modules${path.sep}`))
        watchFolder(path.dirname(file), false, wanted);
    for (const [key, watcher] of watchers)
      if (!wanted.has(key)) {
        watcher.close();
        watchers.delete(key);
      }
  };

  update();
  return {
    notice,
    update,
    close() {
      closed = true;
      clearTimeout(pending?.timer);
      pending = undefined;
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
