import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ResolvedToolprepConfig } from '../config/options.js';
import { prepareSettingsOf } from '../config/options-schema.js';
import { isToolContract } from '../contract/define-tool.js';
import type { ToolContract } from '../contract/types.js';
import { type ContractRef, findContracts } from '../discover/find-contracts.js';
import { GROUP_INDEX_FILES, groupFolderDescription } from '../discover/group-folders.js';
import { byName, emitManifest } from '../emit/manifest.js';
import { emitModule } from '../emit/module.js';
import { turnOneShown } from '../emit/turn-one.js';
import { emitWalksModule, walksModulePath } from '../emit/walks-module.js';
import { type GeneratedFile, piecedFile } from '../emit/write-files.js';
import type { BuildFailure } from '../load/esbuild-failures.js';
import { type LoadedModule, loadModules } from '../load/load-modules.js';
import { captureProjectHandshake } from '../load/mcp-handshake.js';
import type { Manifest } from '../manifest/manifest.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import { SEARCH_TOOL_NAME } from '../manifest/search-index.js';
import { prepareExtension } from '../prepare/extension.js';
import { buildSearchIndex } from '../prepare/search-index.js';
import { prepareSearchTool } from '../prepare/search-tool.js';
import { arrangeSurface } from '../prepare/surface-arrangement.js';
import { plural } from '../shared/build/plural.js';
import type { Problem } from '../shared/build/problems.js';
import { projectPath } from '../shared/build/project-path.js';
import { tokenCounter } from '../shared/build/token-counter.js';
import type { PreparedCache } from './cache.js';
import { explainTool, type ToolPass } from './explain.js';
import {
  budgetFoundStrictRequests,
  budgetOverruns,
  contractAt,
  duplicateNames,
  type FoundTool,
  prepareFile,
  sizeFoundTools,
  type UnsizedTool,
} from './prepare-files.js';
import { type Project, type ProjectOptions, resolveProject } from './project.js';
import { recordRun } from './run-record.js';
import { cacheFor, createGeneratorState, endGeneration, type GeneratorState } from './state.js';
import { turnOneOverruns } from './turn-one-budget.js';
import { buildViews } from './views.js';
import { zodVersionProblems } from './zod-version.js';

export interface GenerationOptions {
  /** Use the persistent cache under node_modules/.cache/toolprep. Default true. */
  readonly cache?: boolean;
  /** Receives progress on long runs. */
  readonly progress?: (message: string) => void;
}

export interface GenerateOptions extends ProjectOptions, GenerationOptions {}

/** A tool the generation found: as prepared, where, and the explain stage's pass when it was prepared in this run. */
interface GeneratedTool {
  readonly prepared: PreparedTool;
  readonly ref: ContractRef;
  /** None for a tool from the cache: its contract was not loaded. */
  readonly pass?: ToolPass;
}

export interface Generation {
  /** The manifest and the module, or none when there are problems. */
  readonly files: readonly GeneratedFile[];
  readonly manifest?: Manifest;
  /** The files the tools were found in, relative to the root. */
  readonly contractFiles: readonly string[];
  /** The files the views were built from, relative to the root: a watcher's too. */
  readonly viewInputs?: readonly string[];
  /** What stops the generation: nothing is written while there is one. */
  readonly problems: readonly Problem[];
  readonly warnings: readonly Problem[];
  /** Every tool found, in the order found (the manifest sorts them by name). */
  readonly tools: readonly GeneratedTool[];
  readonly stats: {
    readonly scanned: number;
    /** Files past the text pre-filter. */
    readonly parsed: number;
    readonly tools: number;
    /** The hidden constraints the explain stage found (what `check --explain` reports in full), and in how many tools. */
    readonly hidden: { readonly constraints: number; readonly tools: number };
    /** Contract files whose tools came from the cache, unevaluated. */
    readonly fromCache: number;
    readonly milliseconds: number;
  };
}

export interface GenerateResult extends Generation {
  readonly config: ResolvedToolprepConfig;
}

/**
 * Discovers, loads and prepares a project's tools, and returns the files to write. Writes nothing.
 * Everything it keeps for the next run is in `state`; one-shot callers use `generate`.
 */
export async function generateProject(
  project: Project,
  state: GeneratorState,
  options: GenerationOptions = {},
): Promise<Generation> {
  const started = performance.now();
  const { root, config, files, cacheDir } = project;
  // The token tables load on the counter's thread while this one discovers and loads.
  const counter = tokenCounter();
  const discovery = findContracts(root, files, state.discovery, project.stampOf);
  const zod = zodVersionProblems(root);
  const problems: Problem[] = zod.filter((problem) => problem.severity === 'error');
  const warnings: Problem[] = [
    ...discovery.warnings,
    ...zod.filter((problem) => problem.severity === 'warning'),
  ];
  // A zod toolprep cannot read would only crash inside the contract modules: nothing is loaded.
  if (problems.length > 0)
    return {
      files: [],
      contractFiles: [],
      problems,
      warnings,
      tools: [],
      stats: {
        scanned: files.length,
        parsed: discovery.parsed,
        tools: 0,
        hidden: { constraints: 0, tools: 0 },
        fromCache: 0,
        milliseconds: performance.now() - started,
      },
    };
  // A contract discovery cannot follow is an error; the files are loaded still, for every other problem.
  problems.push(...discovery.problems);
  const extension = prepareExtension(config.extend);
  const cache = options.cache === false ? undefined : cacheFor(state, project, extension);
  const refsByFile = new Map<string, ContractRef[]>();
  for (const ref of discovery.refs) refsByFile.set(ref.file, [...(refsByFile.get(ref.file) ?? []), ref]);

  const found: SizedFound[] = [];
  const toLoad: string[] = [];
  for (const [file, refs] of refsByFile) {
    const hit = cache?.lookup(file, cache.keyOf(refs));
    if (!hit) {
      toLoad.push(file);
      continue;
    }
    warnings.push(...hit.warnings);
    for (const { exportName, member, prepared, size, hidden = 0, declared, intents, view } of hit.tools) {
      const ref = refs.find(
        (candidate) => candidate.exportName === exportName && candidate.member === member,
      ) as ContractRef;
      found.push({
        prepared,
        file,
        exportName,
        member,
        size,
        ref,
        hidden,
        declared,
        ...(intents ? { intents } : {}),
        ...(view ? { view } : {}),
      });
    }
  }
  if (toLoad.length > 20) options.progress?.(`[toolprep] loading ${toLoad.length} contract files…`);
  const loadedFrom = Date.now();
  const loaded = await loadModules(root, toLoad, cacheDir);
  const counting: {
    file: string;
    module?: LoadedModule;
    stored?: Problem[];
    tools: Promise<SizedFound[]>;
  }[] = [];
  if (!loaded.ok) {
    problems.push(...buildFailures(root, loaded.failures));
  } else {
    for (const file of toLoad) {
      const refs = refsByFile.get(file) ?? [];
      const module = loaded.modules.get(file);
      const result = prepareFile(refs, module, config, discovery.foreignExports.get(file) ?? []);
      problems.push(...result.problems);
      warnings.push(...result.warnings);
      // Counted on the counter's thread while this one runs the pass and prepares the next files.
      const passing = Promise.all(result.tools.map((tool) => passOf(tool, module)));
      const tools = Promise.all([sizeFoundTools(result.tools, counter), passing]).then(([sized, passes]) =>
        sized.map((tool, index) => ({ ...tool, ...passes[index] })),
      );
      // Awaited in order below: a count that throws meanwhile is not an unhandled rejection.
      tools.catch(() => undefined);
      // One file's passes at a time.
      await passing;
      counting.push({
        file,
        module,
        tools,
        ...(result.problems.length === 0 ? { stored: result.warnings } : {}),
      });
    }
  }
  for (const { file, module, stored, tools: counted } of counting) {
    const tools = await counted;
    found.push(...tools);
    if (cache && module && stored) {
      const refs = refsByFile.get(file) ?? [];
      const entries = tools.map(
        ({ exportName, member, prepared, size, hidden, declared, intents, view }) => ({
          exportName,
          member,
          prepared,
          size,
          hidden,
          declared,
          ...(intents ? { intents } : {}),
          ...(view ? { view } : {}),
        }),
      );
      cache.store(
        file,
        { key: cache.keyOf(refs), inputs: module.inputs, tools: entries, warnings: stored },
        loadedFrom,
      );
    }
  }
  // Written while the rest of the run goes on; awaited before it ends, however it ends, so that
  // no temporary file is left behind by a process that exits on a throw.
  const saved = cache?.save();
  try {
    problems.push(...duplicateNames(found));
    const planned = await budgetFoundStrictRequests(found, config, counter);
    found.splice(0, found.length, ...planned.tools);
    warnings.push(...planned.warnings);
    const groupFolders = new Set<string>();
    const arrangement = arrangeSurface(
      // What the arrangement reads, not a copy of the whole found tool: 1,000 spreads a run.
      found.map(({ prepared, declared, file, size, ref }) => ({
        prepared,
        ...(declared ? { declared } : {}),
        file,
        bytes: size.bytes,
        tokens: () => size.tokens,
        line: ref.line,
      })),
      config,
      (folder) => {
        groupFolders.add(folder);
        return groupFolderDescription(root, folder);
      },
      state.arrangedTools,
    );
    found.forEach((tool, index) => {
      found[index] = { ...tool, prepared: arrangement.tools[index] as PreparedTool };
    });
    problems.push(...arrangement.problems);
    warnings.push(...arrangement.warnings);
    if (config.budget) problems.push(...budgetOverruns(found, config.budget));
    // What the first turns show beyond the tools' sizes, counted once for the budget and the manifest.
    const measure = await counter.measureAll(turnOneShown(found, arrangement.groups));
    if (config.budget?.turnOne !== undefined)
      problems.push(...turnOneOverruns(found, arrangement.groups, config.budget.turnOne, measure));
    const searchTool = config.search?.tool ? prepareSearchTool(prepareSettingsOf(config)) : undefined;
    if (searchTool && found.some((tool) => tool.prepared.name === SEARCH_TOOL_NAME))
      problems.push({
        severity: 'error',
        code: 'search-tool-name-taken',
        message: `search.tool serves a tool named "${SEARCH_TOOL_NAME}", and a contract takes that name`,
        hint: `rename that tool, or set search: { tool: false }`,
      });
    const built = await buildViews(root, config, found);
    found.forEach((tool, index) => {
      found[index] = { ...tool, prepared: built.tools[index] as PreparedTool };
    });
    problems.push(...built.problems);
    warnings.push(...built.warnings);
    if (problems.length === 0 && found.length === 0 && !config.allowEmpty)
      problems.push({
        severity: 'error',
        code: 'no-tools',
        message: `no tool found: ${plural(files.length, 'file')} scanned (include: ${config.include.join(', ')}), ${discovery.parsed} mentioning defineTool`,
        hint: 'export each defineTool() result from a file under include; for a project with no tools yet, set allowEmpty (--allow-empty)',
      });

    const stats = {
      scanned: files.length,
      parsed: discovery.parsed,
      tools: found.length,
      hidden: {
        constraints: found.reduce((sum, tool) => sum + tool.hidden, 0),
        tools: found.filter((tool) => tool.hidden > 0).length,
      },
      fromCache: cache?.hits ?? 0,
      milliseconds: performance.now() - started,
    };
    const contractFiles = [...refsByFile.keys()];
    const tools = found.map(({ prepared, ref, pass }) => ({ prepared, ref, ...(pass ? { pass } : {}) }));
    const viewInputs = built.inputs;
    if (problems.length > 0) {
      // The arrangement ran: what it made is this run's, kept for the next and no longer. The emit
      // memos, which this run did not use, keep the last emitted run's.
      state.arrangedTools.endRun();
      return { files: [], contractFiles, viewInputs, problems, warnings, tools, stats };
    }
    const capture = await captureProjectHandshake(
      root,
      options.cache === false ? undefined : cacheDir,
      state.handshake,
    );
    state.handshake = capture.memo;
    if ('failure' in capture)
      warnings.push({
        severity: 'warning',
        code: 'handshake-not-captured',
        message: `the MCP SDK's first answers could not be captured: ${capture.failure}`,
        hint: 'a server then loads the SDK before it answers initialize; check that @modelcontextprotocol/sdk and toolprep are installed together',
      });
    const { manifest, pieces: manifestPieces } = emitManifest(
      found,
      { extensionKeys: extension.keys, groups: arrangement.groups, views: built.views, measure },
      state.manifestEntries,
    );
    const modulePieces = emitModule(
      found,
      {
        modulePath: config.module,
        importExtension: config.importExtension,
        extensionKeys: extension.keys,
        extensionLibrary: extension.library?.name,
        groups: arrangement.groups,
        views: built.views,
        ...('handshake' in capture && capture.handshake ? { handshake: capture.handshake } : {}),
        ...(config.search
          ? {
              search: {
                index: buildSearchIndex(byName(found).map((tool) => tool.prepared)),
                ...(searchTool ? { tool: searchTool } : {}),
              },
            }
          : {}),
      },
      state.moduleTexts,
    );
    const walksPieces = emitWalksModule(found, state.toolWalks);
    endGeneration(state);
    const generated = {
      files: [
        piecedFile(config.manifest, manifestPieces),
        piecedFile(config.module, modulePieces),
        piecedFile(walksModulePath(config.module), walksPieces),
        ...built.files,
      ],
      manifest,
      contractFiles,
      viewInputs,
      problems,
      warnings,
      tools,
      stats,
    };
    // Once per state: a record stays true of its inputs, and watch mode need not write it on each edit.
    if (cache && !state.recorded) {
      recordRun(project, cache, generated, [
        ...runInputs(project, state, cache, groupFolders),
        ...viewInputs,
      ]);
      state.recorded = true;
    }
    return { ...generated, problems };
  } finally {
    await saved;
  }
}

/** Every file a generation read: the sources, the barrels discovery consulted, the contracts' inputs, group indexes. */
function runInputs(
  project: Project,
  state: GeneratorState,
  cache: PreparedCache,
  groupFolders: ReadonlySet<string>,
): string[] {
  const consulted = project.files.flatMap(
    (file) => state.discovery.get(file)?.consulted.map((barrel) => barrel.file) ?? [],
  );
  const indexes = [...groupFolders].flatMap((folder) =>
    GROUP_INDEX_FILES.map((name) => path.join(folder, name)),
  );
  return [...project.files, ...consulted, ...indexes]
    .map((file) => projectPath(project.root, file))
    .concat(cache.inputFiles());
}

/** A found tool with its size, and the explain stage's pass when it was prepared in this run. */
type SizedFound = FoundTool & { readonly pass?: ToolPass };

/**
 * The explain stage's pass over the tool, run while its contract is at hand: the count of its
 * hidden constraints goes into the summary and the cache, the pass to `context.explain()`.
 */
async function passOf(
  tool: UnsizedTool,
  module: LoadedModule | undefined,
): Promise<{ readonly hidden: number; readonly pass: ToolPass } | undefined> {
  const contract = module?.exports && contractAt(module.exports, tool.ref);
  const pass = isToolContract(contract) ? await explainTool(contract, tool.prepared, tool.ref) : undefined;
  return pass && { hidden: pass.findings.length, pass };
}

/**
 * The live contracts `refs` name, their files loaded (again: for tools whose prepared form came
 * from the cache), for the explain stage; a file that cannot be built is a problem.
 */
export async function loadContracts(
  project: Project,
  refs: readonly ContractRef[],
): Promise<{ readonly contracts: ReadonlyMap<ContractRef, ToolContract>; readonly problems: Problem[] }> {
  const contracts = new Map<ContractRef, ToolContract>();
  if (refs.length === 0) return { contracts, problems: [] };
  const files = [...new Set(refs.map((ref) => ref.file))];
  const loaded = await loadModules(project.root, files, project.cacheDir);
  if (!loaded.ok) return { contracts, problems: buildFailures(project.root, loaded.failures) };
  for (const ref of refs) {
    const exports = loaded.modules.get(ref.file)?.exports;
    const contract = exports && contractAt(exports, ref);
    if (isToolContract(contract)) contracts.set(ref, contract);
  }
  return { contracts, problems: [] };
}

function buildFailures(root: string, failures: readonly BuildFailure[]): Problem[] {
  return failures.map(
    ({ file, line, message }): Problem => ({
      severity: 'error',
      code: 'build-failed',
      file: file && projectPath(root, file),
      line,
      message: `could not be built: ${message}`,
    }),
  );
}

/**
 * One generation from scratch: resolves the project and generates it, writing nothing. Throws a
 * `ToolprepError` when the config cannot be used; every other problem is in the result.
 */
export async function generate(options: GenerateOptions = {}): Promise<GenerateResult> {
  const state = createGeneratorState();
  const project = await resolveProject(options, state);
  return { config: project.config, ...(await generateProject(project, state, options)) };
}
