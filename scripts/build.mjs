// `npm run build`, and the test run's global setup. One set of sources makes two packages
// (decision 0021): tsc compiles src/ and plugin/ into packages/build/dist/ (`@toolprep/build`:
// the generator, the bundler plugins and the CLI); then the entry points of `toolprep` (this
// folder's package.json) are bundled into dist/, one file per entry and shared chunks, packages
// left as imports, with the declarations they reach beside them: the run-time package holds
// that and nothing else, and a server loads a few files instead of twenty (14 ms at start-up).
// The converters that a package manager may hand the wrong zod are bundled into the build package
// (decision 0028).
// A hash of the sources is recorded, so that a test run never uses a stale build (the CLI and
// bundler tests run the built packages, as a user does).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const BUILD_DIST = path.join(REPO, 'packages/build/dist');
const RUNTIME_DIST = path.join(REPO, 'dist');
const STAMP = path.join(BUILD_DIST, '.sources-hash');
const SOURCES = [
  'scripts/build.mjs',
  'src',
  'plugin',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'packages/build/package.json',
];

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
  const files = SOURCES.flatMap((entry) => (path.extname(entry) ? [entry] : filesUnder(entry))).sort();
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(REPO, file)))
      .update('\0');
  return hash.digest('hex');
}

// Relative module specifiers of compiled JavaScript and declarations: static imports and
// re-exports, dynamic imports, and the `import("./x.js").T` types that declarations use.
const RELATIVE_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.\.?\/[^'"]+)['"]/gm;

/** The files of `dist/` (paths relative to it) that `entries` reach by relative imports. */
export function reachableFiles(distFolder, entries) {
  const reached = new Set();
  const visit = (file) => {
    if (reached.has(file)) return;
    reached.add(file);
    const text = readFileSync(path.join(distFolder, file), 'utf8');
    for (const [, specifier] of text.matchAll(RELATIVE_SPECIFIER)) {
      const target = path.posix.join(path.posix.dirname(file), specifier);
      visit(file.endsWith('.d.ts') ? target.replace(/\.js$/, '.d.ts') : target);
    }
  };
  for (const entry of entries) visit(entry);
  return [...reached].sort();
}

/** The files each export condition of package.json names under dist/, relative to dist/. */
export function exportedFiles(packageJson) {
  const targets = (value) =>
    typeof value === 'string' ? [value] : Object.values(value ?? {}).flatMap((inner) => targets(inner));
  return targets(packageJson.exports)
    .filter((target) => target.startsWith('./dist/'))
    .map((target) => target.slice('./dist/'.length));
}

// What a server loads at start, merged at build into a few chunks (decision 0069), in this order:
// each takes in the chunks its entries load statically that only `servedTo` entries reach. The
// run time goes wherever any of it is loaded (it is 17 KB); MCP serving only where an MCP entry
// would load it anyway, so what the other entries share with it (results, the error log) stays
// in chunks of its own.
const START_CHUNKS = [
  {
    name: 'runtime-start',
    entries: ['src/runtime/index.js', 'src/adapters/zod4/runtime.js'],
    servedTo: () => true,
  },
  {
    name: 'mcp-start',
    entries: ['src/surfaces/mcp/index.js'],
    servedTo: (entry) => /^src\/(surfaces\/mcp|testing)\//.test(entry),
  },
];

// Relative specifiers of static imports and re-exports only: what loads with a file, not after.
const STATIC_SPECIFIER = /(?:\bfrom\s*|^\s*import\s+)['"](\.\.?\/[^'"]+)['"]/gm;

/** The files of `dist/` (paths relative to it) that `roots` import, by `specifiers`, and they in turn. */
function importedFrom(distFolder, roots, specifiers) {
  const reached = new Set();
  const visit = (file) => {
    const text = readFileSync(path.join(distFolder, file), 'utf8');
    for (const [, specifier] of text.matchAll(specifiers)) {
      const target = path.posix.join(path.posix.dirname(file), specifier);
      if (reached.has(target)) continue;
      reached.add(target);
      visit(target);
    }
  };
  for (const root of roots) visit(root);
  return reached;
}

/** The names a chunk exports: esbuild writes them as one `export { a, b as c };` at its end. */
function exportedNames(text) {
  const list = /^export \{([^}]*)\};?\s*$/m.exec(text)?.[1] ?? '';
  return list
    .split(',')
    .map((item) =>
      item
        .trim()
        .split(/\s+as\s+/)
        .at(-1),
    )
    .filter(Boolean);
}

/**
 * Merges the chunks the start entries load into one file per line of START_CHUNKS: splitting
 * makes a chunk per set of entries sharing code, and a stdio server read, resolved and compiled
 * 28 files before its first answer (about 0.6 ms a file). Each merged chunk is the one copy of
 * its modules: every import of a chunk it took in is pointed at it, so an entry that shared one
 * of them loads the whole merged file.
 */
async function mergeStartChunks(bundle, distFolder, packageEntries) {
  // The files merged so far: a later entry imports them, and does not take them in again.
  const merged = new Set();
  for (const { name, entries, servedTo } of START_CHUNKS) {
    const reachers = new Map();
    for (const entry of packageEntries)
      for (const file of importedFrom(distFolder, [entry], RELATIVE_SPECIFIER))
        reachers.set(file, [...(reachers.get(file) ?? []), entry]);
    const group = [...importedFrom(distFolder, entries, STATIC_SPECIFIER)].filter(
      (file) => file.startsWith('chunks/') && !merged.has(file) && (reachers.get(file) ?? []).every(servedTo),
    );
    if (group.length < 2) continue;
    const target = `chunks/${name}.js`;
    const names = new Map();
    const reexports = group.map((chunk) => {
      const exported = exportedNames(readFileSync(path.join(distFolder, chunk), 'utf8'));
      for (const name of exported) {
        if (names.has(name)) throw new Error(`${chunk} and ${names.get(name)} both export ${name}`);
        names.set(name, chunk);
      }
      return `export { ${exported.join(', ')} } from './${path.posix.basename(chunk)}';`;
    });
    const inGroup = new Set(group.map((chunk) => path.join(distFolder, chunk)));
    await bundle({
      stdin: { contents: reexports.join('\n'), resolveDir: path.join(distFolder, 'chunks'), loader: 'js' },
      outfile: path.join(distFolder, target),
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      logLevel: 'warning',
      plugins: [
        {
          name: 'other-files-stay-imports',
          setup(build) {
            build.onResolve({ filter: /.*/ }, ({ path: specifier, resolveDir }) =>
              specifier.startsWith('.') && inGroup.has(path.join(resolveDir, specifier))
                ? undefined
                : { path: specifier, external: true },
            );
          },
        },
      ],
    });
    for (const chunk of group) rmSync(path.join(distFolder, chunk));
    merged.add(target);
    pointImportsAt(distFolder, new Set(group), target);
  }
}

/** Rewrites every relative import in `distFolder`'s JavaScript of one of `chunks` to `target`. */
function pointImportsAt(distFolder, chunks, target) {
  for (const item of readdirSync(distFolder, { recursive: true, withFileTypes: true })) {
    if (!item.isFile() || !item.name.endsWith('.js')) continue;
    const file = path.join(item.parentPath, item.name);
    const from = path.posix.dirname(path.relative(distFolder, file).split(path.sep).join('/'));
    const text = readFileSync(file, 'utf8');
    const next = text.replace(RELATIVE_SPECIFIER, (whole, specifier) => {
      if (!chunks.has(path.posix.join(from, specifier))) return whole;
      const relative = path.posix.relative(from, target);
      return whole.replace(specifier, relative.startsWith('.') ? relative : `./${relative}`);
    });
    if (next !== text) writeFileSync(file, next);
  }
}

/**
 * Packages the build package carries inside itself instead of depending on them. zod-to-json-schema
 * imports `zod/v3`, which only zod 3.25 and later have, from wherever it is installed, and names
 * zod only as a peer: an install that ignores peers (npm --legacy-peer-deps) hoists it beside the
 * project's zod 3.23 instead of the build package's own zod 4, and it dies on its first import.
 * Bundled under dist/vendor/, its `zod/v3` resolves from @toolprep/build, whose own zod has it,
 * whatever the hoisting.
 */
const VENDORED = ['zod-to-json-schema'];

/** The installed folder of a package of this repository, whatever its `exports` let out. */
function packageFolder(name) {
  const entry = createRequire(path.join(REPO, 'package.json')).resolve(name);
  for (let folder = path.dirname(entry); folder !== path.dirname(folder); folder = path.dirname(folder)) {
    const packageJson = path.join(folder, 'package.json');
    if (existsSync(packageJson) && JSON.parse(readFileSync(packageJson, 'utf8')).name === name) return folder;
  }
  throw new Error(`${name} is not installed`);
}

/** Bundles each vendored package into dist/vendor/<name>.js and points the compiled imports at it. */
async function vendor(bundle) {
  for (const name of VENDORED) {
    const folder = packageFolder(name);
    const { version, license } = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
    const licenseText = readFileSync(path.join(folder, 'LICENSE'), 'utf8').trim();
    const target = path.join(BUILD_DIST, 'vendor', `${name}.js`);
    await bundle({
      stdin: { contents: `export * from '${name}';`, resolveDir: REPO, loader: 'js' },
      outfile: target,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: ['zod', 'zod/*'],
      banner: {
        js: `/* ${name} ${version}, bundled into @toolprep/build. ${license}:\n\n${licenseText}\n*/`,
      },
      logLevel: 'warning',
    });
    const bare = new RegExp(`(\\bfrom\\s*|\\bimport\\s*\\(\\s*)(['"])${name}\\2`, 'g');
    let rewritten = 0;
    for (const item of readdirSync(BUILD_DIST, { recursive: true, withFileTypes: true })) {
      const file = path.join(item.parentPath, item.name);
      if (!item.isFile() || !item.name.endsWith('.js') || file === target) continue;
      const text = readFileSync(file, 'utf8');
      const relative = path.relative(item.parentPath, target).split(path.sep).join('/');
      const local = relative.startsWith('.') ? relative : `./${relative}`;
      const next = text.replace(bare, (_, keyword, quote) => `${keyword}${quote}${local}${quote}`);
      if (next === text) continue;
      writeFileSync(file, next);
      rewritten += 1;
    }
    if (rewritten === 0) throw new Error(`no compiled module imports ${name}: remove it from VENDORED`);
  }
}

/**
 * A declaration file whose imports of an optional peer dependency are each marked `@ts-ignore`: a
 * project without that peer (a server of 2026-07-28 alone has no MCP SDK) type-checks toolprep's
 * declarations with `skipLibCheck: false`, the peer's types being `any` there (decision 0043).
 */
function withOptionalPeersIgnored(text, packageJson) {
  const optional = Object.entries(packageJson.peerDependenciesMeta ?? {})
    .filter(([, meta]) => meta.optional)
    .map(([name]) => name.replaceAll('/', '\\/'));
  if (optional.length === 0) return text;
  const peerImport = new RegExp(`^(import [^\\n]*from '(?:${optional.join('|')})(?:\\/[^']*)?';)$`, 'gm');
  return text.replace(
    peerImport,
    (line) => `// @ts-ignore: an optional peer dependency, which a project may not have\n${line}`,
  );
}

export async function build() {
  const hash = sourcesHash();
  rmSync(BUILD_DIST, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    { cwd: REPO, stdio: 'inherit' },
  );
  const { build: bundle } = await import('esbuild');
  await vendor(bundle);
  writeFileSync(STAMP, `${hash}\n`);

  const runtimePackage = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
  const entries = exportedFiles(runtimePackage);
  rmSync(RUNTIME_DIST, { recursive: true, force: true });
  await bundle({
    absWorkingDir: BUILD_DIST,
    entryPoints: entries.filter((file) => file.endsWith('.js')),
    outbase: '.',
    outdir: RUNTIME_DIST,
    entryNames: '[dir]/[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    packages: 'external',
    logLevel: 'warning',
  });
  await mergeStartChunks(
    bundle,
    RUNTIME_DIST,
    entries.filter((file) => file.endsWith('.js')),
  );
  for (const file of reachableFiles(
    BUILD_DIST,
    entries.filter((file) => file.endsWith('.d.ts')),
  )) {
    mkdirSync(path.dirname(path.join(RUNTIME_DIST, file)), { recursive: true });
    const text = readFileSync(path.join(BUILD_DIST, file), 'utf8');
    writeFileSync(path.join(RUNTIME_DIST, file), withOptionalPeersIgnored(text, runtimePackage));
  }
  writeFileSync(path.join(RUNTIME_DIST, '.sources-hash'), `${hash}\n`);
}

/** Builds unless both packages were built from exactly these sources. */
export async function ensureBuilt() {
  const stamps = [STAMP, path.join(RUNTIME_DIST, '.sources-hash')];
  const hash = sourcesHash();
  if (stamps.every((stamp) => existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hash)) return false;
  await build();
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await build();
