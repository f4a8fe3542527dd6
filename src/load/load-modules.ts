import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Message, Plugin } from 'esbuild';
import { projectPath } from '../shared/build/project-path.js';

export interface LoadedModule {
  /** The module's exports, or undefined when it threw while loading. */
  readonly exports?: Record<string, unknown>;
  readonly error?: unknown;
  /** The local files it was built from (itself included), relative to the root. */
  readonly inputs: readonly string[];
}

export interface LoadFailure {
  readonly file?: string;
  readonly line?: number;
  readonly message: string;
}

export type LoadResult =
  | { readonly ok: true; readonly modules: ReadonlyMap<string, LoadedModule> }
  | { readonly ok: false; readonly failures: readonly LoadFailure[] };

let runs = 0;

/**
 * Evaluates the given modules in this process so that their live Zod objects can be read: one
 * esbuild bundle with packages kept external (they resolve from the project, as at run time), then
 * an import of each entry. See docs/decisions/0004-loader.md for why esbuild.
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
    const result = await build({
      absWorkingDir: root,
      entryPoints: files.map((file) => path.resolve(root, file)),
      outdir,
      outbase: root,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      metafile: true,
      write: true,
      logLevel: 'silent',
      entryNames: '[dir]/[name]',
      outExtension: { '.js': '.mjs' },
      plugins: selfReference(root),
    }).catch((error: { errors?: Message[] }) => error);
    if (!('metafile' in result) || !result.metafile) {
      const errors = (result as { errors?: Message[] }).errors ?? [];
      return {
        ok: false,
        failures: errors.map((message) => ({
          file: message.location?.file,
          line: message.location?.line,
          message: message.text,
        })),
      };
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
        modules.set(entry, { error, inputs });
      }
    }
    return { ok: true, modules };
  } finally {
    // Loaded modules live in memory now; the bundle is not needed again.
    await rm(outdir, { recursive: true, force: true });
  }
}

/**
 * A project may import itself by its package name (`import { x } from 'my-package'`). Node
 * resolves that only from inside the package, and the bundle sits under node_modules/.cache, so
 * such imports are resolved here, from the root, and kept external as file URLs.
 */
function selfReference(root: string): Plugin[] {
  const packageJson = nearestPackageJson(root);
  const ownName = packageJson && (JSON.parse(readFileSync(packageJson, 'utf8')) as { name?: string }).name;
  if (!packageJson || !ownName) return [];
  const require = createRequire(packageJson);
  return [
    {
      name: 'toolprep-self-reference',
      setup(build) {
        build.onResolve({ filter: /^[^./]/ }, ({ path: specifier }) => {
          if (specifier !== ownName && !specifier.startsWith(`${ownName}/`)) return undefined;
          return { path: pathToFileURL(require.resolve(specifier)).href, external: true };
        });
      },
    },
  ];
}

/** The package.json whose scope holds `directory`, as Node finds it. */
function nearestPackageJson(directory: string): string | undefined {
  for (let current = directory; ; current = path.dirname(current)) {
    const candidate = path.join(current, 'package.json');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(current) === current) return undefined;
  }
}
