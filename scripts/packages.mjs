// The two packages of this repository, `toolprep` (this folder) and `@toolprep/build`
// (packages/build), as a user's project meets them: linked, built, into a throwaway project's
// node_modules, or packed as npm would publish them. Tests and benchmarks use both.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('..', import.meta.url));
export const BUILD_PACKAGE = path.join(REPO, 'packages/build');

/** Links both packages into `dir`/node_modules, as installing them would. */
export function linkPackages(dir) {
  mkdirSync(path.join(dir, 'node_modules/@toolprep'), { recursive: true });
  symlinkSync(REPO, path.join(dir, 'node_modules/toolprep'), 'dir');
  symlinkSync(BUILD_PACKAGE, path.join(dir, 'node_modules/@toolprep/build'), 'dir');
}

/** `npm pack` of both packages into `destination`: each package's name and its tarball's path. */
export function packPackages(destination) {
  const listing = JSON.parse(
    execFileSync(
      'npm',
      [
        'pack',
        '--json',
        '--workspaces',
        '--include-workspace-root',
        '--ignore-scripts',
        '--pack-destination',
        destination,
      ],
      { cwd: REPO, encoding: 'utf8' },
    ),
  );
  return Object.fromEntries(listing.map((pack) => [pack.name, path.join(destination, pack.filename)]));
}

/**
 * Bundles a generated project's server entries for Node, packages left as imports (they resolve
 * in the project's node_modules, as a user's build leaves them): `entryPoints` into `outdir`.
 */
export async function bundleServers(dir, entryPoints, outdir = path.join(dir, 'out')) {
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: dir,
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'error',
  });
}
