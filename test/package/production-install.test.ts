import { execFileSync, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packPackages, REPO } from '../../scripts/packages.mjs';
import { writeFiles } from '../support/fixture-project.js';

/**
 * A production install carries only what runs (decision 0021): a server project installs the
 * packed `toolprep` as a dependency and the packed `@toolprep/build` as a development dependency,
 * builds with the esbuild plugin as a user would, then drops its development dependencies as a
 * deployment does. What is left has no build-time package, and the server still answers.
 */

// zod-to-json-schema is left out: the MCP SDK depends on it too.
const BUILD_TIME_PACKAGES = [
  '@toolprep/build',
  'ts-morph',
  '@ts-morph/common',
  'typescript',
  'esbuild',
  'unplugin',
  'gpt-tokenizer',
  'diff',
  'tinyglobby',
];

const version = (name: string) =>
  (
    JSON.parse(readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
const npm = (cwd: string, ...args: string[]) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8' });

const FILES: Record<string, string> = {
  'src/tools/notes.ts': `import { defineTool } from 'toolprep';
import { z } from 'zod';

/** Read one note, or several at once. */
export const readNotes = defineTool({ input: z.object({ paths: z.union([z.string(), z.array(z.string())]) }) });

/** Replace a note's outline. */
export const setOutline = defineTool({ input: z.object({ outline: z.array(z.object({ title: z.string() })) }) });
`,
  'src/server.ts': `import { serveStdio } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import { type ToolHandlers, tools } from './toolprep.gen.js';

const handlers: ToolHandlers = {
  read_notes: ({ paths }) => [paths].flat().join(', '),
  set_outline: ({ outline }) => outline.map((item) => item.title).join(' > '),
};
await serveStdio(createToolRuntime(tools, { handlers }), { name: 'notes', version: '1.0.0' });
`,
  // Both packages' types meet here: a contract of toolprep's, prepared by @toolprep/build's
  // prepareToolSet, served by toolprep's runtime.
  'scripts/prepared.ts': `import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { createToolRuntime } from 'toolprep/runtime';
import { z } from 'zod';

const echo = defineTool({ description: 'Echo.', input: z.object({ text: z.string() }) });
export const runtime = createToolRuntime(prepareToolSet({ echo }), { handlers: { echo: ({ text }: { text: string }) => text } });
`,
  'tsconfig.json': `{
  "compilerOptions": {
    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true,
    "noEmit": true, "skipLibCheck": false, "types": ["node"]
  },
  "include": ["src", "scripts"]
}
`,
  'build.mjs': `import { build } from 'esbuild';
import toolprep from '@toolprep/build/esbuild';

await build({
  entryPoints: ['src/server.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  splitting: true,
  packages: 'external',
  outdir: 'dist',
  plugins: [toolprep()],
});
`,
};

let dir: string;
let packs: string;
let typeCheck: SpawnSyncReturns<string>;
beforeAll(() => {
  packs = mkdtempSync(path.join(tmpdir(), 'toolprep-packs-'));
  const tarballs = packPackages(packs);
  const tarball = (name: string) => `file:${tarballs[name]}`;
  dir = mkdtempSync(path.join(tmpdir(), 'toolprep-production-'));
  writeFiles(dir, FILES);
  const packageJson = {
    name: 'server',
    private: true,
    type: 'module',
    dependencies: {
      toolprep: tarball('toolprep'),
      zod: version('zod'),
      '@modelcontextprotocol/sdk': version('@modelcontextprotocol/sdk'),
    },
    devDependencies: {
      '@toolprep/build': tarball('@toolprep/build'),
      esbuild: version('esbuild'),
      '@types/node': version('@types/node'),
    },
  };
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
  npm(dir, 'install');
  execFileSync(process.execPath, ['build.mjs'], { cwd: dir, encoding: 'utf8' });
  typeCheck = spawnSync(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', dir], {
    encoding: 'utf8',
  });
  npm(dir, 'prune', '--omit=dev');
}, 240_000);
afterAll(() => {
  for (const folder of [dir, packs]) if (folder) rmSync(folder, { recursive: true, force: true });
});

/** The packages installed at the top of node_modules, scoped ones by scope/name. */
function installed(): string[] {
  const modules = path.join(dir, 'node_modules');
  return readdirSync(modules)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) =>
      name.startsWith('@')
        ? readdirSync(path.join(modules, name)).map((inner) => `${name}/${inner}`)
        : [name],
    );
}

describe('a production install of a server', () => {
  test('holds no build-time package once the development dependencies are dropped', () => {
    const packages = installed();
    expect(packages).toEqual(expect.arrayContaining(['toolprep', 'zod', '@modelcontextprotocol/sdk']));
    expect(packages.filter((name) => BUILD_TIME_PACKAGES.includes(name))).toEqual([]);
  });

  test('toolprep has no dependencies, and its modules import only Node built-ins and its optional peers', () => {
    const root = path.join(dir, 'node_modules/toolprep');
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      dependencies?: object;
      peerDependencies: Record<string, string>;
    };
    expect(manifest.dependencies).toBeUndefined();
    const peers = Object.keys(manifest.peerDependencies);
    const packageOf = (specifier: string) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
    const imported = new Set<string>();
    for (const entry of readdirSync(path.join(root, 'dist'), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
      const text = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
      // Import statements start a line in the built files; an error message may quote `from 'x'`.
      for (const [, fromStatement, dynamic] of text.matchAll(
        /^(?:import|export)\b[^;]*?\bfrom\s*['"]([^'".][^'"]*)['"]|\bimport\s*\(\s*['"]([^'".][^'"]*)['"]/gm,
      ))
        imported.add(packageOf(fromStatement ?? dynamic ?? ''));
    }
    expect([...imported].filter((name) => !name.startsWith('node:') && !peers.includes(name))).toEqual([]);
    expect(imported).toContain('@modelcontextprotocol/sdk');
  });

  test('the two packages’ types agree: tsc checks the server and a script that uses both, from the installed declarations', () => {
    expect(typeCheck.stdout).toBe('');
    expect(typeCheck.status).toBe(0);
  });

  test('the server built before the prune still lists its tools and repairs a call', async () => {
    const client = new Client({ name: 'production-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['dist/server.js'],
        cwd: dir,
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['read_notes', 'set_outline']);
      const repaired = await client.callTool({
        name: 'set_outline',
        arguments: { outline: JSON.stringify([{ title: 'Plan' }, { title: 'Ship' }]) },
      });
      expect(repaired).toMatchObject({ content: [{ type: 'text', text: 'Plan > Ship' }] });
      const refused = await client.callTool({ name: 'read_notes', arguments: { paths: '["a.md","b.md"]' } });
      expect(refused.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
