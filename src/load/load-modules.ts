import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Message } from 'esbuild';

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
      const entry = toPosix(path.relative(root, path.resolve(root, meta.entryPoint)));
      const inputs = Object.keys(meta.inputs).map((input) =>
        toPosix(path.relative(root, path.resolve(root, input))),
      );
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

function toPosix(file: string): string {
  return file.split(path.sep).join('/');
}
