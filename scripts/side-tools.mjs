// Tools the tests run beside the machine's own, installed once under node_modules/.cache from npm
// and never put on the PATH: a Node 22 (AI SDK 7, the MCP conformance suite) and pnpm. pnpm is not
// a development dependency because its package names a binary package per platform and the
// registry here holds only Linux's: `npm ci` refuses a lock file without the others.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { REPO } from './packages.mjs';

const CACHE = path.join(REPO, 'node_modules/.cache/toolprep-test');
const NODE22_VERSION = '22.23.3';
export const PNPM_VERSION = '12.23.0';

/**
 * The path of `binary` inside package `name@version`, installed first if it is not there yet. The
 * install goes to a fresh folder renamed into place, so two test workers never share a half install.
 */
function installedOnce(name, version, binary) {
  const prefix = path.join(CACHE, `${name}-${version}`);
  const file = path.join(prefix, 'node_modules', name, binary);
  if (existsSync(file)) return file;
  mkdirSync(CACHE, { recursive: true });
  const staging = mkdtempSync(path.join(CACHE, `.${name}-`));
  execFileSync(
    'npm',
    [
      'install',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      '--prefix',
      staging,
      `${name}@${version}`,
    ],
    { stdio: 'inherit' },
  );
  try {
    renameSync(staging, prefix);
  } catch (error) {
    // Another worker got there first: its install is as good as ours.
    if (!existsSync(file)) throw error;
    rmSync(staging, { recursive: true, force: true });
  }
  return file;
}

/** The path of the Node 22 binary. */
export const node22 = () => installedOnce('node', NODE22_VERSION, 'bin/node');

/** The path of pnpm's own launcher, run as a user runs it. */
export const pnpm = () => installedOnce('pnpm', PNPM_VERSION, 'pnpm');
