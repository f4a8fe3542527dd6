import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildResult } from 'esbuild';
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

let runs = 0;

/**
 * Evaluates the given modules in this process so that their live Zod objects can be read: one
 * esbuild bundle, then an import of each entry. Packages are left for Node to import, as at run
 * time, except those that ship TypeScript, which are bundled (`packageImports`). See
 * docs/decisions/0004-loader.md for why esbuild.
 */
export async function loadModules(
  root: string,
  files: readonly string[],
  cacheDir: string,
): Promise<LoadResult> {
  if (files.length === 0) return { ok: true, modules: new Map() };
  const { build } = await import('esbuild');
  // Under the project's node_modules, so that external packages resolve as they do for the project.
  const outdir = path.join(cacheDir, `load-${process.pid}-${runs++}`);
  await mkdir(outdir, { recursive: true });
  try {
    let result: BuildResult<{ metafile: true }>;
    try {
      result = await build({
        absWorkingDir: root,
        entryPoints: files.map((file) => path.resolve(root, file)),
        outdir,
        outbase: root,
        bundle: true,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        // No `module` condition: packages resolve to the files Node imports.
        conditions: [],
        metafile: true,
        write: true,
        logLevel: 'silent',
        entryNames: '[dir]/[name]',
        outExtension: { '.js': '.mjs' },
        plugins: [packageImports(root)],
      });
    } catch (error) {
      return { ok: false, failures: esbuildFailures(error) };
    }
    const modules = new Map<string, LoadedModule>();
    for (const [output, meta] of Object.entries(result.metafile.outputs)) {
      if (!meta.entryPoint) continue;
      const entry = projectPath(root, meta.entryPoint);
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
  } finally {
    // Loaded modules live in memory now; the bundle is not needed again.
    await rm(outdir, { recursive: true, force: true });
  }
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
