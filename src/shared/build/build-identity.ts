import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The hash of the sources this build of toolprep was compiled from (`dist/.sources-hash`, written
 * by the build and shipped with it), `unknown` when run from its sources: what toolprep keeps
 * between runs, a cache made by other code of the same version is a miss.
 */
export const BUILD_IDENTITY = (() => {
  try {
    return readFileSync(new URL('../../../.sources-hash', import.meta.url), 'utf8').trim();
  } catch {
    return 'unknown';
  }
})();

/** The version of the package `specifier` names (`zod/package.json`) as resolved from `from`, or `unknown`. */
export function packageVersion(specifier: string, from: string): string {
  try {
    const require = createRequire(from);
    return (JSON.parse(readFileSync(require.resolve(specifier), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
