// Which loader evaluates contract modules fastest, correctly: an esbuild bundle with packages
// external (what toolprep uses), Vite's module runner, and jiti. Each run is a fresh process, as
// each `toolprep generate` is; "warm" runs again with whatever the loader caches on disk.
// Usage: node bench/loaders.mjs [--quick]   (after npm run build)
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { linkPackages, REPO } from '../scripts/packages.mjs';

const quick = process.argv.includes('--quick');
const repeats = quick ? 3 : 5;

function project(files) {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-loaders-'));
  cpSync(path.join(REPO, 'fixtures/project'), dir, { recursive: true });
  linkPackages(dir);
  symlinkSync(path.join(REPO, 'node_modules/zod'), path.join(dir, 'node_modules/zod'));
  mkdirSync(path.join(dir, 'src/many'), { recursive: true });
  for (let index = 0; index < files; index++) {
    writeFileSync(
      path.join(dir, `src/many/tool-${index}.ts`),
      `import { defineTool } from 'toolprep';\nimport { z } from 'zod';\nimport { pathOrPaths } from '../lib/paths.js';\n\nexport const tool${index} = defineTool({\n  description: 'Tool ${index}.',\n  input: z.object({ paths: pathOrPaths, mode: z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), n: z.number() }), z.object({ kind: z.literal('b') })]) }),\n});\n`,
    );
  }
  return dir;
}

const LOADERS = {
  esbuild: `
    const { loadModules } = await import(${JSON.stringify(path.join(REPO, 'packages/build/dist/src/load/load-modules.js'))});
    const result = await loadModules(root, files, path.join(root, 'node_modules/.cache/toolprep'));
    exportsOf = files.map((file) => result.modules.get(file).exports);`,
  'vite module runner': `
    const { createServer, createServerModuleRunner } = await import(${JSON.stringify(path.join(REPO, 'node_modules/vite/dist/node/index.js'))});
    const server = await createServer({ root, configFile: false, logLevel: 'silent', appType: 'custom', server: { middlewareMode: true, hmr: false, ws: false }, optimizeDeps: { noDiscovery: true, include: [] } });
    const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
    exportsOf = [];
    for (const file of files) exportsOf.push(await runner.import(path.join(root, file)));
    await runner.close();
    await server.close();`,
  jiti: `
    const { createJiti } = await import(${JSON.stringify(path.join(REPO, 'node_modules/jiti/lib/jiti.mjs'))});
    const jiti = createJiti(path.join(root, 'index.js'), { fsCache: path.join(root, 'node_modules/.cache/jiti') });
    exportsOf = [];
    for (const file of files) exportsOf.push(await jiti.import(path.join(root, file)));`,
};

function runOnce(loader, root, files) {
  const script = `
    import path from 'node:path';
    const root = ${JSON.stringify(root)};
    const files = ${JSON.stringify(files)};
    const started = performance.now();
    let exportsOf;
    ${LOADERS[loader]}
    const elapsed = performance.now() - started;
    const contracts = exportsOf.flatMap((exports) => Object.values(exports)).filter((value) => value?.['~toolprep'] === 'contract');
    console.log(JSON.stringify({ elapsed, contracts: contracts.length }));
    process.exit(0);`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  });
  return JSON.parse(output.trim().split('\n').at(-1));
}

const stats = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `${sorted[Math.floor(sorted.length / 2)].toFixed(0)} (${sorted[0].toFixed(0)}–${sorted.at(-1).toFixed(0)})`;
};

console.log('| contract files | loader | cold ms, median (min–max) | warm ms | contracts found |');
console.log('| --- | --- | --- | --- | --- |');
for (const count of quick ? [0, 50] : [0, 200]) {
  const fixtureFiles = [
    'src/tools/files.ts',
    'src/tools/notes.ts',
    'src/tools/outline.ts',
    'src/tools/search.ts',
    'src/tools/stats.ts',
  ];
  const files = [
    ...fixtureFiles,
    ...Array.from({ length: count }, (_, index) => `src/many/tool-${index}.ts`),
  ];
  for (const loader of Object.keys(LOADERS)) {
    const cold = [];
    const warm = [];
    let found = 0;
    for (let run = 0; run < repeats; run++) {
      const root = project(count);
      try {
        const first = runOnce(loader, root, files);
        cold.push(first.elapsed);
        found = first.contracts;
        warm.push(runOnce(loader, root, files).elapsed);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }
    console.log(`| ${files.length} | ${loader} | ${stats(cold)} | ${stats(warm)} | ${found} |`);
  }
}
