import { createHash } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ResolvedToolprepConfig } from '../config/options.js';
import { compareWithDisk, type StaleReport } from '../emit/compare.js';
import { TEMPORARY_SUFFIX, writeChangedFiles } from '../emit/write-files.js';
import { type Problem, ToolprepError } from '../shared/build/problems.js';
import { type GenerateOptions, type Generation, generateProject } from './generate.js';
import { type Project, resolveProject } from './project.js';
import { createGeneratorState, type GeneratorState, stateEntries } from './state.js';

export interface GeneratorContextOptions extends GenerateOptions {
  /** Write nothing; report stale committed files instead (for CI builds). Default false. */
  readonly check?: boolean;
  /** Write the manifest and the module when their bytes change. Default true. */
  readonly write?: boolean;
}

export interface RunOutcome {
  /** False when no source changed since the last run, so nothing was generated. */
  readonly ran: boolean;
  /** What stops the run (a config that cannot be used, or a generation's problems). */
  readonly problems: readonly Problem[];
  readonly warnings: readonly Problem[];
  /** The files written, relative to the root. */
  readonly written: readonly string[];
  /** In check mode, what is stale (nothing when current). */
  readonly stale?: StaleReport;
  readonly generation?: Generation;
  /** The options the run resolved, when it got that far. */
  readonly config?: ResolvedToolprepConfig;
  /** The whole run, the options and the file listing included. */
  readonly milliseconds: number;
}

export interface GeneratorContext {
  readonly root: string;
  /** Generates, then writes (or checks), unless no source changed since the last run. */
  run(): Promise<RunOutcome>;
  /** True for the files toolprep itself writes: a change to them never starts a run. */
  isOutput(file: string): boolean;
  /** The config file and the contract files, for a bundler to watch. */
  watchFiles(): readonly string[];
  /**
   * The folders `include` searches (each pattern's part before its first wildcard), for a
   * watcher of files added, removed and renamed: a bundler watches only the files it bundles.
   */
  watchFolders(): readonly string[];
  /** How many entries each part of the kept state holds (bounded by the project, not by runs). */
  stateEntries(): Record<string, number>;
}

/**
 * The one way toolprep turns sources into files, for the CLI (one run), watch mode and every
 * bundler plugin (many runs): resolve the project, generate unless nothing changed since the last
 * run, then write what changed, or compare in check mode; on problems, write nothing. The state it
 * keeps between runs is one `GeneratorState` (docs/decisions/0008-one-generator-state.md).
 */
export function createGeneratorContext(options: GeneratorContextOptions = {}): GeneratorContext {
  const root = path.resolve(options.root ?? process.cwd());
  const state: GeneratorState = createGeneratorState();
  let project: Project | undefined;
  let lastFingerprint: string | undefined;
  let contractFiles: readonly string[] = [];

  const runOnce = async (): Promise<RunOutcome> => {
    const started = performance.now();
    const outcome = (fields: Omit<RunOutcome, 'milliseconds'>): RunOutcome => ({
      ...fields,
      milliseconds: performance.now() - started,
    });
    try {
      project = await resolveProject({ ...options, root }, state);
    } catch (error) {
      if (!(error instanceof ToolprepError)) throw error;
      lastFingerprint = undefined;
      return outcome({ ran: true, problems: error.problems, warnings: [], written: [] });
    }
    const fingerprint = fingerprintOf(project);
    if (fingerprint === lastFingerprint)
      return outcome({ ran: false, problems: [], warnings: [], written: [] });
    const generation = await generateProject(project, state, options);
    lastFingerprint = fingerprint;
    contractFiles = generation.contractFiles.map((file) => path.resolve(root, file));
    const base = {
      ran: true,
      problems: generation.problems,
      warnings: generation.warnings,
      generation,
      config: project.config,
    };
    // On problems the last good output stays in place.
    if (generation.problems.length > 0 || !generation.manifest) return outcome({ ...base, written: [] });
    if (options.check) {
      const manifest = { path: project.config.manifest, value: generation.manifest };
      return outcome({
        ...base,
        written: [],
        stale: await compareWithDisk(root, generation.files, manifest),
      });
    }
    const written =
      options.write === false ? [] : await writeChangedFiles(root, generation.files, state.written);
    return outcome({ ...base, written });
  };
  // One edit can bring several watch events: runs go one after another, so a run that follows
  // another sees its fingerprint and its writes, and does nothing when nothing else changed.
  let queue: Promise<unknown> = Promise.resolve();

  return {
    root,
    run() {
      const next = queue.then(runOnce);
      queue = next.catch(() => undefined);
      return next;
    },
    isOutput(file) {
      if (!project) return false;
      // The outputs, and the temporary files they are written through.
      const absolute = path.resolve(root, file).replace(TEMPORARY_SUFFIX, '');
      const { module, manifest } = project.config;
      return absolute === path.resolve(root, module) || absolute === path.resolve(root, manifest);
    },
    watchFiles() {
      return project?.configFile ? [project.configFile, ...contractFiles] : contractFiles;
    },
    watchFolders() {
      const folders = (project?.config.include ?? []).map((pattern) => {
        const fixed = pattern.split('/');
        const wildcard = fixed.findIndex((segment) => /[*?[\]{}!]/.test(segment));
        return path.resolve(root, ...(wildcard === -1 ? fixed.slice(0, -1) : fixed.slice(0, wildcard)));
      });
      // A folder inside another is watched through it.
      return [...new Set(folders)].filter(
        (folder) => !folders.some((other) => other !== folder && folder.startsWith(`${other}${path.sep}`)),
      );
    },
    stateEntries: () => stateEntries(state),
  };
}

/** The source files and the config file, with their stamps: equal when nothing was touched. */
function fingerprintOf(project: Project): string {
  const files = project.configFile ? [...project.files, project.configFile] : project.files;
  return createHash('sha256')
    .update(files.map((file) => `${file}:${project.stampOf(file)}`).join('\n'))
    .digest('hex');
}
