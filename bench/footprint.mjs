// What a production install of a server carries: a fresh project lists the packed `toolprep`, zod
// and the MCP SDK as dependencies and the packed `@toolprep/build` as a development dependency,
// and is installed with `npm install --omit=dev`, as a server is deployed; beside it the same
// project without toolprep. The difference is toolprep's share, by package.
// Usage: node bench/footprint.mjs   (needs the npm registry; after npm run build)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { packPackages, REPO } from '../scripts/packages.mjs';

const version = (name) =>
  JSON.parse(readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')).version;
const SERVER_PACKAGES = {
  zod: version('zod'),
  '@modelcontextprotocol/sdk': version('@modelcontextprotocol/sdk'),
};

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

function install(dependencies, devDependencies = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-footprint-'));
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: 'server', private: true, type: 'module', dependencies, devDependencies }, null, 2)}\n`,
  );
  execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: 'ignore',
  });
  return dir;
}

const packs = mkdtempSync(path.join(tmpdir(), 'toolprep-pack-'));
const tarballs = packPackages(packs);
const withToolprep = install(
  { ...SERVER_PACKAGES, toolprep: `file:${tarballs.toolprep}` },
  { '@toolprep/build': `file:${tarballs['@toolprep/build']}` },
);
const without = install(SERVER_PACKAGES);
try {
  const a = packagesIn(path.join(withToolprep, 'node_modules'));
  const b = packagesIn(path.join(without, 'node_modules'));
  const total = (sizes) => [...sizes.values()].reduce((sum, size) => sum + size, 0);
  const mb = (bytes) => (bytes / 2 ** 20).toFixed(2);
  const added = [...a].filter(([name]) => !b.has(name)).sort((x, y) => y[1] - x[1]);
  const rows = added.map(([name, size]) => `| ${name} | ${mb(size)} |`);
  const extra = total(a) - total(b);
  const versions = Object.entries(SERVER_PACKAGES)
    .map(([name, at]) => `${name}@${at}`)
    .join(' and ');
  console.log(
    [
      `A fresh server project with \`toolprep\` in its dependencies and \`@toolprep/build\` in its development dependencies, \`npm install --omit=dev\`: ${versions} alone take **${mb(total(b))} MB** in node_modules; with toolprep, **${mb(total(a))} MB** (**+${mb(extra)} MB**, ${added.length} package${added.length === 1 ? '' : 's'} more; the aim is at most +1 MB: ${extra <= 2 ** 20 ? 'met' : 'missed'}).`,
      '',
      '| package added by toolprep | MB |',
      '| --- | --- |',
      ...rows,
    ].join('\n'),
  );
} finally {
  for (const dir of [withToolprep, without, packs]) rmSync(dir, { recursive: true, force: true });
}
