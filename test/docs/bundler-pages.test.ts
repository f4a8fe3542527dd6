import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, expect, test } from 'vitest';
import { REPO } from '../support/fixture-project.js';

/**
 * The docs work verbatim: the README's quick start (a contract and a server) and each bundler
 * page's config, copied from their code blocks into a fresh project, build a server that the
 * official MCP client lists the tools of over stdio.
 */

/** The code blocks of a page that name their file on their first line (`// vite.config.ts`). */
function namedBlocks(page: string): Record<string, string> {
  const text = readFileSync(path.join(REPO, page), 'utf8');
  const blocks: Record<string, string> = {};
  for (const [, body = ''] of text.matchAll(/```ts\n([\s\S]*?)```/g)) {
    const lines = body.split('\n').map((line) => line.replace(/^ {3}/, ''));
    const name = /^\/\/ (\S+\.(?:ts|mjs))$/.exec(lines[0] ?? '')?.[1];
    if (name) blocks[name] = lines.join('\n');
  }
  return blocks;
}

const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

/** A fresh project with the README's files and the page's, every package of this repository linked. */
function projectFrom(page: string): { dir: string; files: string[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-docs-'));
  projects.push(dir);
  const files = { ...namedBlocks('README.md'), ...namedBlocks(page) };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  mkdirSync(path.join(dir, 'node_modules'));
  for (const name of readdirSync(path.join(REPO, 'node_modules')))
    if (name !== '.cache')
      symlinkSync(path.join(REPO, 'node_modules', name), path.join(dir, 'node_modules', name));
  symlinkSync(REPO, path.join(dir, 'node_modules/toolprep'));
  return { dir, files: Object.keys(files) };
}

/** Runs a compiler of the webpack family on the page's config, as its CLI does. */
const COMPILE = (compiler: string) => `
import config from './${compiler}.config.mjs';
const { ${compiler === 'webpack' ? 'default: make' : 'rspack: make'} } = await import('${compiler === 'webpack' ? 'webpack' : '@rspack/core'}');
const compilerInstance = make(config);
compilerInstance.run((error, stats) => {
  compilerInstance.close(() => {});
  if (error || stats.hasErrors()) { console.error(error ?? stats.toString({ all: false, errors: true })); process.exit(1); }
});
`;

const BUILDS: Record<string, { page: string; command: (dir: string) => [string, string[]] }> = {
  vite: { page: 'docs/bundlers/vite.md', command: () => [bin('vite'), ['build', '--logLevel', 'silent']] },
  rollup: {
    page: 'docs/bundlers/rollup.md',
    command: () => [bin('rollup'), ['-c', 'rollup.config.mjs', '--silent']],
  },
  rolldown: {
    page: 'docs/bundlers/rolldown.md',
    command: () => [bin('rolldown'), ['-c', 'rolldown.config.mjs']],
  },
  esbuild: { page: 'docs/bundlers/esbuild.md', command: () => [process.execPath, ['build.mjs']] },
  webpack: {
    page: 'docs/bundlers/webpack.md',
    command: (dir) => {
      writeFileSync(path.join(dir, 'compile.mjs'), COMPILE('webpack'));
      return [process.execPath, ['compile.mjs']];
    },
  },
  rspack: {
    page: 'docs/bundlers/rspack.md',
    command: (dir) => {
      writeFileSync(path.join(dir, 'compile.mjs'), COMPILE('rspack'));
      return [process.execPath, ['compile.mjs']];
    },
  },
};

function bin(name: string): string {
  return path.join(REPO, 'node_modules/.bin', name);
}

test.each(Object.keys(BUILDS))(
  '%s: the page’s config and the README’s quick start build a server the MCP client lists',
  async (name) => {
    const { page, command } = BUILDS[name] as (typeof BUILDS)[string];
    const { dir, files } = projectFrom(page);
    expect(files).toEqual(expect.arrayContaining(['src/tools/notes.ts', 'src/server.ts']));
    expect(files.length).toBe(3);
    const [program, args] = command(dir);
    const build = spawnSync(program, args, { cwd: dir, encoding: 'utf8' });
    expect(build.stderr).not.toMatch(/error/i);
    expect(build.status).toBe(0);
    const client = new Client({ name: 'docs-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(dir, 'dist/server.js')],
        cwd: dir,
        stderr: 'ignore',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => [tool.name, tool.description])).toEqual([
        ['read_notes', 'Read one note, or several at once.'],
      ]);
    } finally {
      await client.close();
    }
  },
  60_000,
);

test('every bundler page is covered', () => {
  const pages = readdirSync(path.join(REPO, 'docs/bundlers')).map((file) => `docs/bundlers/${file}`);
  expect(pages.sort()).toEqual(
    Object.values(BUILDS)
      .map(({ page }) => page)
      .sort(),
  );
});
