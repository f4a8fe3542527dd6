import { createHash } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ResolvedToolprepConfig } from '../config/options.js';
import type { StaleReport } from '../emit/compare.js';
import { isViewFile, removeStaleViewFiles, staleViewFiles } from '../emit/views.js';
import { walksModulePath } from '../emit/walks-module.js';
import { TEMPORARY_SUFFIX, writeChangedFiles } from '../emit/write-files.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import { NO_EXTENSION, type PreparedExtension } from '../prepare/prepared-extension.js';
import { type Problem, ToolprepError } from '../shared/build/problems.js';
import type { ExplainOptions, Explanation, ToolPass } from './explain.js';
import type { GenerateOptions, Generation } from './generate.js';
import { type Project, resolveProject } from './project.js';
import { recordedRun } from './run-record.js';
import { cacheFor, createGeneratorState, type GeneratorState, stateEntries } from './state.js';

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
  /** The built views removed, no longer kept (`views.keepVersions`), relative to the root. */
  readonly removed?: readonly string[];
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
  /**
   * The explain stage over the last generation's tools, after any run in progress: the hidden
   * constraints and, with `prove`, the superset proof. The passes the generation ran are taken as
   * they are; a tool from the cache has its contract loaded and passed, never prepared again. The
   * same options give the same explanation until the next generation.
   */
  explain(options?: ExplainOptions): Promise<Explanation>;
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
  /** The files the last generation's views were built from (HTML, styles, modules), absolute. */
  let viewInputs: readonly string[] = [];
  let generation: Generation | undefined;
  /** Passes by the prepared tool they are of: a tool the cache keeps between runs keeps its pass. */
  const passes = new WeakMap<PreparedTool, ToolPass>();
  let explained: { generation: Generation; key: string; value: Explanation } | undefined;

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
    const fingerprint = fingerprintOf(project, viewInputs);
    if (fingerprint === lastFingerprint)
      return outcome({ ran: false, problems: [], warnings: [], written: [] });
    // Discovery, loading and preparing are imported only when the last run's record does not hold.
    generation =
      (await recordedGeneration(project, state, options, started)) ??
      (await (await import('./generate.js')).generateProject(project, state, options));
    contractFiles = generation.contractFiles.map((file) => path.resolve(root, file));
    const reported = (generation.viewInputs ?? []).map((file) => path.resolve(root, file));
    // After a failed run, what the last views were built from stays watched too: a failed build
    // knows only the files its errors name, and the fix may be in another (decision 0074).
    const built =
      generation.problems.length > 0 ? [...new Set([...viewInputs, ...reported])].sort() : reported;
    // The views' files are known once they are built: the next run compares them too.
    lastFingerprint =
      built.join('\n') === viewInputs.join('\n') ? fingerprint : fingerprintOf(project, built);
    viewInputs = built;
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
      const { compareWithDisk } = await import('../emit/compare.js');
      return outcome({
        ...base,
        written: [],
        stale: await compareWithDisk(
          root,
          generation.files,
          manifest,
          await staleViewFiles(root, project.config, generation.files),
        ),
      });
    }
    if (options.write === false) return outcome({ ...base, written: [] });
    const written = await writeChangedFiles(root, generation.files, state.written);
    const removed = await removeStaleViewFiles(root, project.config, generation.files);
    return outcome({ ...base, written, ...(removed.length > 0 ? { removed } : {}) });
  };
  const explainOnce = async (options: ExplainOptions): Promise<Explanation> => {
    const { EXPLAIN_MILLISECONDS, explainTools, passHolds } = await import('./explain.js');
    const { loadContracts } = await import('./generate.js');
    // The pass's own time: the modules it needs are loaded as a generation loads them.
    const started = performance.now();
    const milliseconds = options.milliseconds ?? EXPLAIN_MILLISECONDS;
    const key = JSON.stringify([milliseconds, Boolean(options.prove)]);
    const current = generation;
    if (!current || !project) return (await explainTools([])).explanation;
    if (explained?.generation === current && explained.key === key) return explained.value;
    const known = current.tools.map((tool) => tool.pass ?? passes.get(tool.prepared));
    // Only the tools with no pass that holds for this budget need their contracts: loaded, not prepared.
    const toPass = current.tools.filter((_tool, index) => !passHolds(known[index], milliseconds));
    const loaded = await loadContracts(
      project,
      toPass.map((tool) => tool.ref),
    );
    const { explanation, passes: ran } = await explainTools(
      current.tools.map((tool, index) => {
        const pass = known[index];
        const contract = loaded.contracts.get(tool.ref);
        return { ...tool, ...(pass ? { pass } : {}), ...(contract ? { contract } : {}) };
      }),
      { ...options, milliseconds, extend: project.config.extend },
    );
    for (const [index, pass] of ran.entries()) {
      const tool = current.tools[index];
      if (pass && tool) passes.set(tool.prepared, pass);
    }
    const value = {
      ...explanation,
      problems: [...loaded.problems, ...explanation.problems],
      milliseconds: performance.now() - started,
    };
    explained = { generation: current, key, value };
    return value;
  };
  // One edit can bring several watch events: runs go one after another, so a run that follows
  // another sees its fingerprint and its writes, and does nothing when nothing else changed. An
  // explanation waits in the same line, so that it explains the generation a run in progress makes.
  let queue: Promise<unknown> = Promise.resolve();
  const enqueue = <T>(job: () => Promise<T>): Promise<T> => {
    const next = queue.then(job);
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    root,
    run: () => enqueue(runOnce),
    explain: (options = {}) => enqueue(() => explainOnce(options)),
    isOutput(file) {
      if (!project) return false;
      // The outputs, and the temporary files they are written through.
      const absolute = path.resolve(root, file).replace(TEMPORARY_SUFFIX, '');
      const { module, manifest } = project.config;
      return (
        absolute === path.resolve(root, module) ||
        absolute === path.resolve(root, walksModulePath(module)) ||
        absolute === path.resolve(root, manifest) ||
        isViewFile(absolute)
      );
    },
    watchFiles() {
      const sources = [...contractFiles, ...viewInputs.filter((file) => !contractFiles.includes(file))];
      return project?.configFile ? [project.configFile, ...sources] : sources;
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

/**
 * The generation the last recorded run made, when this process has discovered nothing yet and
 * every file that run read and wrote is as it was: neither ts-morph nor a contract is loaded.
 * See docs/decisions/0056-a-run-where-nothing-changed.md.
 */
async function recordedGeneration(
  project: Project,
  state: GeneratorState,
  options: GenerateOptions,
  started: number,
): Promise<Generation | undefined> {
  if (options.cache === false || state.discovery.size > 0) return undefined;
  const extension = await extensionOf(project.config.extend);
  const recorded = recordedRun(project, cacheFor(state, project, extension), state.written);
  if (!recorded) return undefined;
  const stats = { ...recorded.stats, fromCache: recorded.contractFiles.length };
  return { ...recorded, problems: [], stats: { ...stats, milliseconds: performance.now() - started } };
}

/** The source files, the views' and the config file, with their stamps: equal when nothing was touched. */
function fingerprintOf(project: Project, viewInputs: readonly string[]): string {
  const files = [...project.files, ...viewInputs, ...(project.configFile ? [project.configFile] : [])];
  return createHash('sha256')
    .update(files.map((file) => `${file}:${project.stampOf(file)}`).join('\n'))
    .digest('hex');
}

/** The project's extension; the schema libraries' converters load only for an `extend` schema. */
async function extensionOf(extend: ResolvedToolprepConfig['extend']): Promise<PreparedExtension> {
  return extend ? (await import('../prepare/extension.js')).prepareExtension(extend) : NO_EXTENSION;
}
