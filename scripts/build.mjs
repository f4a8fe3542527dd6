// `npm run build`, and the test run's global setup: compiles src/ and plugin/ into dist/ and
// records a hash of the sources it was built from, so that a test run never uses a stale dist/
// (the CLI and bundler tests run the built package, as a user's project does).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const STAMP = path.join(REPO, 'dist', '.sources-hash');
const SOURCES = ['src', 'plugin', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

function filesUnder(entry) {
  const absolute = path.join(REPO, entry);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((item) => item.isFile())
    .map((item) => path.relative(REPO, path.join(item.parentPath, item.name)));
}

/** A hash of every file the build reads. */
export function sourcesHash() {
  const hash = createHash('sha256');
  const files = SOURCES.flatMap((entry) => (entry.endsWith('.json') ? [entry] : filesUnder(entry))).sort();
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(REPO, file)))
      .update('\0');
  return hash.digest('hex');
}

export function build() {
  const hash = sourcesHash();
  execFileSync(
    process.execPath,
    [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: REPO,
      stdio: 'inherit',
    },
  );
  writeFileSync(STAMP, `${hash}\n`);
}

/** Builds unless dist/ was built from exactly these sources. */
export function ensureBuilt() {
  const built = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : undefined;
  if (built === sourcesHash()) return false;
  build();
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) build();
