// A Node 22 beside the machine's Node 20, for what needs it (AI SDK 7, the MCP conformance suite):
// the `node` package from npm, installed once under node_modules/.cache, never on the PATH.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { REPO } from './packages.mjs';

const VERSION = '22.23.3';
const PREFIX = path.join(REPO, 'node_modules/.cache/toolprep-test/node22');

/** The path of the Node 22 binary, installed first if it is not there yet. */
export function node22() {
  const binary = path.join(PREFIX, 'node_modules/node/bin/node');
  if (!existsSync(binary)) {
    mkdirSync(PREFIX, { recursive: true });
    execFileSync(
      'npm',
      [
        'install',
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        '--prefix',
        PREFIX,
        `node@${VERSION}`,
      ],
      { stdio: 'inherit' },
    );
  }
  return binary;
}
