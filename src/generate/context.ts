import { createHash } from 'node:crypto';
import path from 'node:path';
import type { ResolvedToolprepConfig } from '../config/options.js';
import { type WriteMemo, writeChangedFiles } from '../emit/write-files.js';
import { fileStamp } from '../file-stamp.js';
import { compareWithDisk, type StaleReport } from './check.js';
import { resolveConfigFile } from './config-file.js';
import {
  createGenerateMemo,
  type GenerateOptions,
  type GenerateResult,
  generate,
  listSourceFiles,
} from './generate.js';
import type { GenerateProblem } from './problems.js';

export interface GeneratorContextOptions extends GenerateOptions {
  /** Write nothing; report stale committed files instead (for CI builds). Default false. */
  readonly check?: boolean;
  /** Write the manifest and the module when their bytes change. Default true. */
  readonly write?: boolean;
}

export interface RunOutcome {
  /** False when no source changed since the last run, so nothing was generated. */
  readonly ran: boolean;
  readonly problems: readonly GenerateProblem[];
  readonly warnings: readonly GenerateProblem[];
  readonly written: readonly string[];
  /** In check mode, what is stale (nothing when current). */
  readonly stale?: StaleReport;
  readonly result?: GenerateResult;
}

export interface GeneratorContext {
  readonly root: string;
  /** Generates (and writes, or checks) unless no source changed since the last run. */
  run(): Promise<RunOutcome>;
  /** True for the files toolprep itself writes: a change to them never starts a run. */
  isOutput(file: string): boolean;
  /** The config file and the contract files, for a bundler to watch. */
  watchFiles(): readonly string[];
}

/**
 * The state a long-lived host (a bundler plugin, a dev server) keeps between runs: the last
 * fingerprint of the sources, so that a rebuild caused by toolprep's own write finds nothing new
 * and does not regenerate, and the last config, for what to watch and what to ignore.
 */
export function createGeneratorContext(options: GeneratorContextOptions): GeneratorContext {
  const root = path.resolve(options.root ?? process.cwd());
  let config: ResolvedToolprepConfig | undefined;
  let lastFingerprint: string | undefined;
  let contractFiles: string[] = [];
  const memo = createGenerateMemo();
  const writeMemo: WriteMemo = new Map();
  const configFile = (): string | undefined => resolveConfigFile(root, options.configFile);

  const fingerprint = async (): Promise<string | undefined> => {
    if (!config) return undefined;
    const entries = [...(await listSourceFiles(root, config, memo)), configFile()]
      .filter((file): file is string => file !== undefined)
      .map((file) => `${file}:${fileStamp(file)}`);
    return createHash('sha256').update(entries.join('\n')).digest('hex');
  };

  const runOnce = async (): Promise<RunOutcome> => {
    const before = await fingerprint();
    if (before !== undefined && before === lastFingerprint)
      return { ran: false, problems: [], warnings: [], written: [] };
    const result = await generate({ ...options, root, memo });
    config = result.config;
    lastFingerprint = before ?? (await fingerprint());
    contractFiles = [
      ...new Set(
        result.manifest?.tools.map((tool) =>
          path.resolve(root, tool.source.slice(0, tool.source.lastIndexOf('#'))),
        ) ?? [],
      ),
    ];
    const base = { ran: true, problems: result.problems, warnings: result.warnings, result };
    // On problems the last good output stays in place.
    if (result.problems.length > 0) return { ...base, written: [] };
    if (options.check) return { ...base, written: [], stale: await compareWithDisk(root, result) };
    const written = options.write === false ? [] : await writeChangedFiles(root, result.files, writeMemo);
    return { ...base, written };
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
      if (!config) return false;
      const absolute = path.resolve(root, file);
      return (
        absolute === path.resolve(root, config.module) || absolute === path.resolve(root, config.manifest)
      );
    },
    watchFiles() {
      const file = configFile();
      return file ? [file, ...contractFiles] : contractFiles;
    },
  };
}
