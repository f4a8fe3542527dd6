import path from 'node:path';
import { glob } from 'tinyglobby';
import { loadConfigFile, resolveConfigFile } from '../config/config-file.js';
import { type ResolvedToolprepConfig, resolveOptions, type ToolprepConfig } from '../config/options.js';
import { VIEWS_FOLDER } from '../emit/views.js';
import { walksModulePath } from '../emit/walks-module.js';
import { fileStamp, type StampOf, stampsOfOneRun } from '../shared/build/file-stamp.js';
import { type Problem, ToolprepError } from '../shared/build/problems.js';
import { projectPath } from '../shared/build/project-path.js';
import { isRecord } from '../shared/run/is-record.js';

export interface ProjectOptions {
  /** The project root; paths in the config are relative to it. Default: the working directory. */
  readonly root?: string;
  /** A config file to use instead of `toolprep.config.{ts,mts,js,mjs}` in the root. */
  readonly configFile?: string;
  /** Options that override the config file (a plugin's inline options). */
  readonly inline?: ToolprepConfig;
  /** False: keep nothing under node_modules/.cache, the options checked included. Default true. */
  readonly cache?: boolean;
}

/** What one generation works on: the resolved options and the source files, listed once. */
export interface Project {
  /** Absolute. */
  readonly root: string;
  /** Where toolprep keeps its cache and its loader's bundles: under the project's node_modules. */
  readonly cacheDir: string;
  /** The config file in use (absolute), if any. */
  readonly configFile?: string;
  readonly config: ResolvedToolprepConfig;
  /** The source files the config includes, absolute, sorted, never toolprep's own output. */
  readonly files: readonly string[];
  /** The stamps of the files this run reads, each taken once. */
  readonly stampOf: StampOf;
}

/** The config file's default export, by the file's stamp, kept between runs. */
export interface ConfigMemo {
  config?: { readonly stamp: string; readonly value: unknown };
}

/**
 * Resolves the options (the config file is evaluated again only when it changed) and lists the
 * source files. Throws a `ToolprepError` for a config that cannot be loaded or is invalid.
 */
export async function resolveProject(options: ProjectOptions, state: ConfigMemo): Promise<Project> {
  const root = path.resolve(options.root ?? process.cwd());
  const cacheDir = path.join(root, 'node_modules', '.cache', 'toolprep');
  const configFile = resolveConfigFile(root, options.configFile);
  let fromFile: unknown;
  if (configFile) {
    const stamp = `${configFile}:${fileStamp(configFile)}`;
    if (state.config?.stamp !== stamp)
      state.config = { stamp, value: await loadConfigFile(root, configFile, cacheDir) };
    fromFile = state.config.value;
  }
  const config = await resolveOptions(
    fromFile,
    options.inline,
    configFile ? projectPath(root, configFile) : 'options',
    options.cache === false ? undefined : cacheDir,
  );
  const ignore = [
    ...config.exclude,
    config.module,
    walksModulePath(config.module),
    config.manifest,
    `**/${VIEWS_FOLDER}/**`,
  ];
  const matches = await Promise.all(
    config.include.map((pattern) => glob(pattern, { cwd: root, ignore, absolute: true })),
  );
  // A pattern the user wrote that matches nothing is a mistake (the defaults cover several kinds).
  if ((options.inline?.include ?? (isRecord(fromFile) ? fromFile.include : undefined)) !== undefined) {
    const source = configFile ? projectPath(root, configFile) : 'options';
    const problems = config.include.flatMap((pattern, index): Problem[] =>
      matches[index]?.length
        ? []
        : [
            {
              severity: 'error',
              code: 'include-matches-nothing',
              file: source,
              field: 'include',
              message: `the pattern "${pattern}" matches no file under ${root}`,
              hint: 'patterns are relative to the root; fix the pattern or remove it',
            },
          ],
    );
    if (problems.length > 0) throw new ToolprepError(problems);
  }
  const files = [...new Set(matches.flat())].sort();
  return { root, cacheDir, ...(configFile ? { configFile } : {}), config, files, stampOf: stampsOfOneRun() };
}
