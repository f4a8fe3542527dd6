import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** What a `tsconfig.json` may say that changes where a relative specifier leads, or whose options apply. */
const CHANGES_RELATIVE_RESOLUTION = /rootDirs|moduleSuffixes|references|extends/;
const RELATIVE = /^\.\.?\/[\w./-]*$/;

/**
 * Whether a re-export's specifier names a file of `included`, decided without TypeScript where the
 * answer is certain: a relative specifier written `./x`, `./x.js` or `./x.ts` whose `x.ts` (the
 * first file TypeScript's resolution tries) is in `included` under its real path, in a project whose
 * tsconfig (the first found from the root up, as the full reading's) has no `rootDirs`,
 * `moduleSuffixes`, `references` or `extends`. `false` means only "not certain": the full way decides.
 */
export function createIncludedTargets(
  root: string,
  included: ReadonlySet<string>,
): (specifier: string, fromFile: string) => boolean {
  let plainConfig: boolean | undefined;
  return (specifier, fromFile) => {
    if (!RELATIVE.test(specifier) || /\.(d\.ts|[cm][jt]s|[jt]sx|json)$|\/$/.test(specifier)) return false;
    const candidate = path.resolve(path.dirname(fromFile), `${specifier.replace(/\.[jt]s$/, '')}.ts`);
    if (!included.has(candidate)) return false;
    plainConfig ??= !CHANGES_RELATIVE_RESOLUTION.test(firstConfigText(root));
    if (!plainConfig) return false;
    try {
      return realpathSync.native(candidate) === candidate;
    } catch {
      return false;
    }
  };
}

/** The text of the `tsconfig.json` TypeScript finds from `dir` up, or '' when there is none. */
function firstConfigText(dir: string): string {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const file = path.join(current, 'tsconfig.json');
    if (existsSync(file)) return readFileSync(file, 'utf8');
    if (path.dirname(current) === current) return '';
  }
}
