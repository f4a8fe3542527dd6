import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Problem } from '../shared/build/problems.js';

/** What toolprep reads, and has been tested with: Zod 3 from 3.23, and Zod 4. */
const SUPPORTED = 'zod 3.23 and later 3.x, and zod 4';

/**
 * The project's own zod, checked before any contract is loaded: a version toolprep cannot read is
 * one problem naming it (not a crash inside a contract module), and a Zod 3 older than the tested
 * ones is a warning.
 */
export function zodVersionProblems(root: string): Problem[] {
  let packageJson: string;
  try {
    packageJson = createRequire(path.join(root, 'package.json')).resolve('zod/package.json');
  } catch {
    return [];
  }
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const where = path.relative(root, path.dirname(packageJson)).split(path.sep).join('/');
  if (major !== 3 && major !== 4)
    return [
      {
        severity: 'error',
        code: 'zod-unsupported',
        file: where,
        message: `zod ${version} is installed, which toolprep cannot read; it reads ${SUPPORTED}`,
        hint: 'install zod 4 (npm install zod@4), or zod 3.23 or later',
      },
    ];
  if (major === 3 && minor < 23)
    return [
      {
        severity: 'warning',
        code: 'zod-unsupported',
        file: where,
        message: `zod ${version} is older than the versions toolprep is tested with (${SUPPORTED})`,
        hint: 'upgrade zod to 3.23 or later',
      },
    ];
  return [];
}
