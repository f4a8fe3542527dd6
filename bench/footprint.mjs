// What a production install of a server carries: a fresh project installs the packed package
// with zod and the MCP SDK (`npm install --omit=dev`, as a server is deployed), beside the same
// project without toolprep; the difference is toolprep's share, by package.
// Usage: node bench/footprint.mjs   (needs the npm registry; after npm run build)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const version = (name) =>
  JSON.parse(readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')).version;
const SERVER_PACKAGES = [
  `zod@${version('zod')}`,
  `@modelcontextprotocol/sdk@${version('@modelcontextprotocol/sdk')}`,
];

/** Bytes on disk under a folder, files only (symlinks not followed). */
function bytesUnder(folder) {
  let total = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(path.join(entry.parentPath, entry.name)).size;
  return total;
}

/** Each top-level package (scoped ones by scope/name) with its bytes. */
function packagesIn(modules) {
  const sizes = new Map();
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const names = name.startsWith('@')
      ? readdirSync(path.join(modules, name)).map((inner) => `${name}/${inner}`)
      : [name];
    for (const full of names) sizes.set(full, bytesUnder(path.join(modules, full)));
  }
  return sizes;
}

function install(packages) {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-footprint-'));
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "server", "private": true, "type": "module" }\n');
  execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error', ...packages], {
    cwd: dir,
    stdio: 'ignore',
  });
  return dir;
}

const packs = mkdtempSync(path.join(tmpdir(), 'toolprep-pack-'));
const tarball = execFileSync(
  'npm',
  ['pack', '--ignore-scripts', '--loglevel=error', '--pack-destination', packs],
  { cwd: REPO, encoding: 'utf8' },
)
  .trim()
  .split('\n')
  .at(-1);
const withToolprep = install([path.join(packs, tarball), ...SERVER_PACKAGES]);
const without = install(SERVER_PACKAGES);
try {
  const a = packagesIn(path.join(withToolprep, 'node_modules'));
  const b = packagesIn(path.join(without, 'node_modules'));
  const total = (sizes) => [...sizes.values()].reduce((sum, size) => sum + size, 0);
  const mb = (bytes) => (bytes / 2 ** 20).toFixed(1);
  const added = [...a].filter(([name]) => !b.has(name)).sort((x, y) => y[1] - x[1]);
  const rows = added.slice(0, 12).map(([name, size]) => `| ${name} | ${mb(size)} |`);
  const rest = added.slice(12);
  if (rest.length > 0) rows.push(`| ${rest.length} more | ${mb(total(new Map(rest)))} |`);
  console.log(
    [
      `A fresh server project, \`npm install --omit=dev\`: ${SERVER_PACKAGES.join(' and ')} alone take **${mb(total(b))} MB** in node_modules; with the packed toolprep, **${mb(total(a))} MB** (+${mb(total(a) - total(b))} MB, ${added.length} packages more).`,
      '',
      '| package added by toolprep | MB |',
      '| --- | --- |',
      ...rows,
    ].join('\n'),
  );
} finally {
  for (const dir of [withToolprep, without, packs]) rmSync(dir, { recursive: true, force: true });
}
