import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { glob } from 'tinyglobby';
import { type ResolvedToolprepConfig, resolveOptions, type ToolprepConfig } from '../config/options.js';
import { isToolContract } from '../contract/define-tool.js';
import { type ContractRef, type DiscoveryMemo, findContracts } from '../discover/find-contracts.js';
import { type EmittableTool, emitManifest } from '../emit/manifest.js';
import { emitModule } from '../emit/module.js';
import { fileStamp } from '../file-stamp.js';
import { type LoadedModule, loadModules } from '../load/load-modules.js';
import type { Manifest } from '../manifest/manifest.js';
import { canonicalJson } from '../prepare/canonical.js';
import { prepareTool } from '../prepare/prepare-tool.js';
import { ToolprepPrepareError } from '../prepare/problems.js';
import { projectPath } from '../project-path.js';
import { PreparedCache } from './cache.js';
import { loadConfigFile, resolveConfigFile } from './config-file.js';
import type { GenerateProblem } from './problems.js';

export interface GenerateOptions {
  /** The project root; paths in the config are relative to it. Default: the working directory. */
  readonly root?: string;
  /** A config file to use instead of looking for `toolprep.config.{ts,mts,js,mjs}` in the root. */
  readonly configFile?: string;
  /** Options that override the config file (a plugin's inline options). */
  readonly inline?: ToolprepConfig;
  /** Use the persistent cache under node_modules/.cache/toolprep. Default true. */
  readonly cache?: boolean;
  /** Receives progress on long runs. */
  readonly progress?: (message: string) => void;
  /**
   * State a long-lived caller (watch mode, a bundler plugin) keeps between runs, so that a run
   * re-reads only what changed. Leave it out for a one-shot run.
   */
  readonly memo?: GenerateMemo;
}

export interface GeneratedFile {
  /** Relative to the root. */
  readonly path: string;
  readonly text: string;
}

export interface GenerateResult {
  readonly config: ResolvedToolprepConfig;
  /** The manifest and the module, or none when there are problems. */
  readonly files: readonly GeneratedFile[];
  readonly manifest?: Manifest;
  readonly problems: readonly GenerateProblem[];
  readonly warnings: readonly GenerateProblem[];
  readonly stats: {
    readonly scanned: number;
    /** Files past the text pre-filter. */
    readonly parsed: number;
    readonly tools: number;
    /** Contract files whose tools came from the cache, unevaluated. */
    readonly fromCache: number;
    readonly milliseconds: number;
  };
}

/** Discovers, loads and prepares the project's tools and returns what to write. Writes nothing. */
export async function generate(options: GenerateOptions = {}): Promise<GenerateResult> {
  const started = performance.now();
  const root = path.resolve(options.root ?? process.cwd());
  const cacheDir = path.join(root, 'node_modules', '.cache', 'toolprep');
  const configFile = resolveConfigFile(root, options.configFile);
  const fileConfig = configFile ? await loadConfigOnce(root, configFile, cacheDir, options.memo) : undefined;
  const config = resolveOptions(
    fileConfig,
    options.inline,
    configFile ? path.relative(root, configFile) : 'options',
  );

  const files = await findSourceFiles(root, config, options.memo);
  const discovery = findContracts(root, files, options.memo?.discovery);
  const problems: GenerateProblem[] = [];
  const warnings: GenerateProblem[] = discovery.warnings.map(({ file, line, message }) => ({
    file,
    line,
    message,
  }));
  const cache = options.cache === false ? undefined : await openCache(root, cacheDir, config, options.memo);
  const refsByFile = new Map<string, ContractRef[]>();
  for (const ref of discovery.refs) refsByFile.set(ref.file, [...(refsByFile.get(ref.file) ?? []), ref]);

  const prepared: FoundTool[] = [];
  const toLoad: string[] = [];
  for (const [file, refs] of refsByFile) {
    const hit = cache?.lookup(file, cache.keyOf(refs));
    if (!hit) {
      toLoad.push(file);
      continue;
    }
    warnings.push(...hit.warnings);
    for (const tool of hit.tools) {
      const ref = refs.find((candidate) => candidate.exportName === tool.exportName) as ContractRef;
      prepared.push({ prepared: tool.prepared, source: `${file}#${tool.exportName}`, ref });
    }
  }
  if (toLoad.length > 20) options.progress?.(`[toolprep] loading ${toLoad.length} contract files…`);
  const loaded = await loadModules(root, toLoad, cacheDir);
  if (!loaded.ok) {
    problems.push(
      ...loaded.failures.map(({ file, line, message }) => ({
        file: file && projectPath(root, file),
        line,
        message: `could not be built: ${message}`,
      })),
    );
  } else {
    for (const file of toLoad) {
      const refs = refsByFile.get(file) ?? [];
      const module = loaded.modules.get(file);
      const result = prepareFile(refs, module, config);
      problems.push(...result.problems);
      warnings.push(...result.warnings);
      prepared.push(...result.tools);
      if (cache && module && result.problems.length === 0) {
        const tools = result.tools.map((tool) => ({
          exportName: tool.ref.exportName,
          prepared: tool.prepared,
        }));
        cache.store(file, {
          key: cache.keyOf(refs),
          inputs: module.inputs,
          tools,
          warnings: result.warnings,
        });
      }
    }
  }
  await cache?.save();
  problems.push(...duplicateNames(prepared));

  const stats = {
    scanned: files.length,
    parsed: discovery.parsed,
    tools: prepared.length,
    fromCache: cache?.hits ?? 0,
    milliseconds: performance.now() - started,
  };
  if (problems.length > 0) return { config, files: [], problems, warnings, stats };
  const { manifest, text: manifestText } = emitManifest(prepared);
  const moduleText = emitModule(manifest.tools, {
    modulePath: config.module,
    importExtension: config.importExtension,
  });
  return {
    config,
    files: [
      { path: config.manifest, text: manifestText },
      { path: config.module, text: moduleText },
    ],
    manifest,
    problems,
    warnings,
    stats,
  };
}

/**
 * The files the config includes, sorted, never toolprep's own output. A listing the memo holds for
 * the same patterns is taken instead, once: watch mode lists the files for its fingerprint first.
 */
export async function findSourceFiles(
  root: string,
  config: ResolvedToolprepConfig,
  memo?: GenerateMemo,
): Promise<readonly string[]> {
  const listed = memo?.listing;
  if (memo) memo.listing = undefined;
  if (listed?.patterns === sourcePatterns(config)) return listed.files;
  const ignore = [...config.exclude, config.module, config.manifest];
  return (await glob(config.include, { cwd: root, ignore, absolute: true })).sort();
}

/** Lists the source files now, and keeps the listing for the memo's next run. */
export async function listSourceFiles(
  root: string,
  config: ResolvedToolprepConfig,
  memo: GenerateMemo,
): Promise<readonly string[]> {
  const files = await findSourceFiles(root, config);
  memo.listing = { patterns: sourcePatterns(config), files };
  return files;
}

function sourcePatterns(config: ResolvedToolprepConfig): string {
  return JSON.stringify([config.include, config.exclude, config.module, config.manifest]);
}

/** What a long-lived caller keeps between runs; see `GenerateOptions.memo`. */
export interface GenerateMemo {
  readonly discovery: DiscoveryMemo;
  config?: { readonly stamp: string; readonly value: unknown };
  cache?: { readonly key: string; readonly value: PreparedCache };
  /** Source files just listed by the caller, for the next `findSourceFiles` only. */
  listing?: { readonly patterns: string; readonly files: readonly string[] };
}

export function createGenerateMemo(): GenerateMemo {
  return { discovery: new Map() };
}

/** The config file's default export, evaluated again only when the file changed. */
async function loadConfigOnce(
  root: string,
  file: string,
  cacheDir: string,
  memo: GenerateMemo | undefined,
): Promise<unknown> {
  const stamp = `${file}:${fileStamp(file)}`;
  if (memo?.config?.stamp === stamp) return memo.config.value;
  const value = await loadConfigFile(root, file, cacheDir);
  if (memo) memo.config = { stamp, value };
  return value;
}

/** The persistent cache, opened once per config for a long-lived caller. */
async function openCache(
  root: string,
  cacheDir: string,
  config: ResolvedToolprepConfig,
  memo: GenerateMemo | undefined,
): Promise<PreparedCache> {
  const key = canonicalJson({ cacheDir, ...config, extend: config.extend ? config.extend.advertise : null });
  if (memo?.cache?.key === key && memo.cache.value.extendSchema === config.extend?.schema)
    return memo.cache.value.reopened();
  const value = await PreparedCache.open(root, cacheDir, config);
  if (memo) memo.cache = { key, value };
  return value;
}

type FoundTool = EmittableTool & { readonly ref: ContractRef };

/** Prepares the contracts one loaded file exports; every problem is located at its export. */
function prepareFile(
  refs: readonly ContractRef[],
  module: LoadedModule | undefined,
  config: ResolvedToolprepConfig,
): { tools: FoundTool[]; problems: GenerateProblem[]; warnings: GenerateProblem[] } {
  const tools: FoundTool[] = [];
  const problems: GenerateProblem[] = [];
  const warnings: GenerateProblem[] = [];
  const [first] = refs;
  if (!module?.exports) {
    const cause = module?.error instanceof Error ? module.error.message : String(module?.error);
    problems.push({
      file: first?.file,
      message: `threw while loading: ${cause}`,
      hint: 'contract modules must be free of side effects',
    });
    return { tools, problems, warnings };
  }
  for (const ref of refs) {
    const contract = module.exports[ref.exportName];
    if (!isToolContract(contract)) {
      problems.push({
        file: ref.file,
        line: ref.line,
        message: `export "${ref.exportName}" is not a tool contract when loaded`,
        hint: 'export the defineTool() result itself',
      });
      continue;
    }
    const exportName =
      ref.exportName === 'default' ? path.posix.basename(ref.file).replace(/\.[^.]+$/, '') : ref.exportName;
    try {
      const tool = prepareTool(contract, {
        exportName,
        description: ref.jsdoc,
        flatten: config.flatten,
        names: config.names,
        unrepresentable: config.unrepresentable,
        extend: config.extend,
        warn: (message) =>
          warnings.push({ file: ref.file, line: ref.line, message: message.replace(/^\[toolprep\] /, '') }),
      });
      tools.push({ prepared: tool, source: `${ref.file}#${ref.exportName}`, ref });
    } catch (error) {
      if (!(error instanceof ToolprepPrepareError)) throw error;
      problems.push(...error.problems.map((problem) => ({ file: ref.file, line: ref.line, ...problem })));
    }
  }
  return { tools, problems, warnings };
}

function duplicateNames(tools: readonly FoundTool[]): GenerateProblem[] {
  const byName = new Map<string, ContractRef[]>();
  for (const { prepared, ref } of tools)
    byName.set(prepared.name, [...(byName.get(prepared.name) ?? []), ref]);
  return [...byName].flatMap(([name, refs]) =>
    refs.length < 2
      ? []
      : refs.map((ref) => ({
          file: ref.file,
          line: ref.line,
          tool: name,
          message: `the name "${name}" is used by ${refs.length} tools: ${refs.map((other) => `${other.file}:${other.line}`).join(', ')}`,
          hint: 'give one of them another `name`',
        })),
  );
}
