import { realpathSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildOptions, BuildResult, Metafile } from 'esbuild';
import { projectPath } from '../shared/build/project-path.js';
import { type BuildFailure, esbuildFailures } from './esbuild-failures.js';
import { packageImports } from './package-imports.js';

export interface LoadedModule {
  /** The module's exports, or undefined when it threw while loading. */
  readonly exports?: Record<string, unknown>;
  readonly error?: unknown;
  /** The local files it was built from (itself included), relative to the root. */
  readonly inputs: readonly string[];
}

export type LoadResult =
  | { readonly ok: true; readonly modules: ReadonlyMap<string, LoadedModule> }
  | { readonly ok: false; readonly failures: readonly BuildFailure[] };

type Build = typeof import('esbuild').build;

let runs = 0;

/** The name the bundle's entry, which is no file, has among its inputs. */
const ENTRY = 'toolprep-contracts.js';

/**
 * Evaluates the given modules in this process so that their live Zod objects can be read: one
 * esbuild bundle whose entry imports each module lazily, imported once, then each module's
 * namespace awaited on its own, so that a module that throws is its own failure. Packages are left
 * for Node to import, as at run time, except those that ship TypeScript, which are bundled
 * (`packageImports`). When the bundle itself cannot be imported (a package missing, throwing when
 * evaluated, or without a name imported from it), each module is bundled and imported on its own,
 * so that only its importers fail. See docs/decisions/0004-loader.md and 0077-contract-modules-loaded-as-one-module.md.
 */
export async function loadModules(
  root: string,
  files: readonly string[],
  cacheDir: string,
): Promise<LoadResult> {
  if (files.length === 0) return { ok: true, modules: new Map() };
  const { build } = await import('esbuild');
  // Under the project's node_modules, so that external packages resolve as they do for the project;
  // a new folder each run, so that a long-lived process evaluates a changed module again.
  const outdir = path.join(cacheDir, `load-${process.pid}-${runs++}`);
  await mkdir(outdir, { recursive: true });
  try {
    return (await loadTogether(build, root, files, outdir)) ?? (await loadEach(build, root, files, outdir));
  } finally {
    // Loaded modules live in memory now; the bundle is not needed again.
    await rm(outdir, { recursive: true, force: true });
  }
}

/** What both ways of loading bundle alike. */
function bundling(root: string): BuildOptions & { readonly metafile: true } {
  return {
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // No `module` condition: packages resolve to the files Node imports.
    conditions: [],
    metafile: true,
    write: true,
    logLevel: 'silent',
    plugins: [packageImports(root)],
  };
}

/**
 * One bundle for every module: its entry is a list of `() => import(file)`, which esbuild, without
 * code splitting, turns into one lazy initialiser per module (a module shared by several is
 * evaluated once). Undefined when the bundle cannot be imported: its packages are imported by the
 * bundle as a whole, so one that is missing or throws fails every module.
 */
async function loadTogether(
  build: Build,
  root: string,
  files: readonly string[],
  outdir: string,
): Promise<LoadResult | undefined> {
  const absolute = files.map((file) => path.resolve(root, file));
  const outfile = path.join(outdir, 'contracts.mjs');
  let result: BuildResult<{ metafile: true }>;
  try {
    result = await build({
      ...bundling(root),
      stdin: {
        contents: `export default [\n${absolute.map((file) => `  () => import(${JSON.stringify(file)}),\n`).join('')}];\n`,
        resolveDir: root,
        sourcefile: ENTRY,
        loader: 'js',
      },
      outfile,
    });
  } catch (error) {
    return { ok: false, failures: esbuildFailures(error) };
  }
  let namespaces: readonly (() => Promise<Record<string, unknown>>)[];
  try {
    namespaces = ((await import(pathToFileURL(outfile).href)) as { default: typeof namespaces }).default;
  } catch {
    return undefined;
  }
  const inputsOf = importGraph(root, result.metafile);
  const modules = new Map<string, LoadedModule>();
  for (const [index, file] of files.entries()) {
    const inputs = inputsOf(absolute[index] as string);
    try {
      // One at a time, in order: a module's top-level `await` does not interleave with another's.
      modules.set(file, {
        exports: await (namespaces[index] as () => Promise<Record<string, unknown>>)(),
        inputs,
      });
    } catch (error) {
      modules.set(file, { error: explained(error), inputs });
    }
  }
  return { ok: true, modules };
}

/**
 * The local files a module was built from, itself included: every input its imports reach, of any
 * kind (a lazy `import()` of a local file is bundled with it), as one bundle of that module alone
 * would list them. esbuild names inputs by their real paths, so a module under a symlinked folder
 * is looked up by its own; one not found at all is said to be built from every local input, which
 * costs a cache miss at worst, never a stale hit.
 */
function importGraph(root: string, metafile: Metafile): (file: string) => string[] {
  const keys = Object.keys(metafile.inputs).filter((key) => key !== ENTRY);
  const keyOf = new Map(keys.map((key) => [path.resolve(root, key), key]));
  const everyInput = () => keys.map((key) => projectPath(root, key));
  return (file) => {
    const start = keyOf.get(file) ?? keyOf.get(realPath(file));
    if (start === undefined) return everyInput();
    const reached = new Set([start]);
    for (const key of reached)
      for (const { path: imported, external } of metafile.inputs[key]?.imports ?? [])
        if (!external && imported in metafile.inputs) reached.add(imported);
    return [...reached].map((key) => projectPath(root, key));
  };
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/** One bundle per module, each imported on its own: today's fallback, and 0004's way. */
async function loadEach(
  build: Build,
  root: string,
  files: readonly string[],
  outdir: string,
): Promise<LoadResult> {
  let result: BuildResult<{ metafile: true }>;
  try {
    result = await build({
      ...bundling(root),
      entryPoints: files.map((file) => path.resolve(root, file)),
      outdir: path.join(outdir, 'each'),
      outbase: root,
      entryNames: '[dir]/[name]',
      outExtension: { '.js': '.mjs' },
    });
  } catch (error) {
    return { ok: false, failures: esbuildFailures(error) };
  }
  // esbuild names an entry by its real path: a module under a symlinked folder goes back to its own.
  const fileOf = new Map(files.map((file) => [realPath(path.resolve(root, file)), file]));
  const modules = new Map<string, LoadedModule>();
  for (const [output, meta] of Object.entries(result.metafile.outputs)) {
    if (!meta.entryPoint) continue;
    const entry =
      fileOf.get(realPath(path.resolve(root, meta.entryPoint))) ?? projectPath(root, meta.entryPoint);
    const inputs = Object.keys(meta.inputs).map((input) => projectPath(root, input));
    try {
      const exports = (await import(pathToFileURL(path.resolve(root, output)).href)) as Record<
        string,
        unknown
      >;
      modules.set(entry, { exports, inputs });
    } catch (error) {
      modules.set(entry, { error: explained(error), inputs });
    }
  }
  return { ok: true, modules };
}

/**
 * Node meets TypeScript only where a package that Node loads itself (JavaScript under
 * node_modules) imports one that ships TypeScript: the loader bundles TypeScript wherever a file
 * it bundles imports it, but cannot reach into a package it leaves to Node. Say so, rather than
 * leave Node's bare "Unknown file extension".
 */
function explained(error: unknown): unknown {
  if ((error as { code?: unknown } | undefined)?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') return error;
  const message =
    `${(error as Error).message}: Node cannot run TypeScript, and a JavaScript package that Node loads imports it; ` +
    'toolprep bundles a package that ships TypeScript only where a contract module, or a file bundled with it, imports it';
  return Object.assign(new Error(message, { cause: error }), { code: 'ERR_UNKNOWN_FILE_EXTENSION' });
}
