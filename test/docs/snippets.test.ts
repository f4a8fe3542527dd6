import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REPO } from '../../scripts/packages.mjs';
import { node22 } from '../../scripts/side-tools.mjs';
import {
  FETCH_MODULE_SCRIPT,
  kindOf,
  type Outcome,
  type Program,
  programsOf,
  runProgram,
} from '../support/doc-programs.js';
import {
  documentationPages,
  type PageSnippets,
  projectsOf,
  readSnippets,
  type Snippet,
} from '../support/doc-snippets.js';
import {
  baseFor,
  createDocsProject,
  type Diagnostic,
  type PageProject,
  pageLocation,
  tscDiagnostics,
  writePage,
  writeTsconfigs,
} from '../support/docs-project.js';
import { type ScriptedProviders, startScriptedProviders } from '../support/scripted-providers.js';

/**
 * Every code block of README.md and docs/ (conventions: test/support/doc-snippets.ts) is a file of
 * its page's project, in one project made as a user makes one (both packages packed, installed
 * with the newest SDKs of each peer range). A page that declares no tools builds on the README's
 * quick start; `toolprep generate` writes each page's manifest and generated module; one tsc run
 * checks every file with the tsconfig of `tsc --init` (the Bun page's files with Bun's types, the
 * Deno page's with `deno check`); then each block that is a program runs
 * (test/support/doc-programs.ts): in Node (22 where it imports the AI SDK 7, which needs it), in
 * Deno or Bun with the command its page names, its provider SDKs answered by scripted providers on
 * loopback. `KEEP_DOCS_PROJECT=1` keeps the project for a look.
 */
const execFileAsync = promisify(execFile);
const exec = async (command: string, args: readonly string[], cwd: string) =>
  execFileAsync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    ({ stdout, stderr }) => ({ status: 0, output: `${stdout}${stderr}` }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      status: error.code ?? 1,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );

const pages: PageSnippets[] = documentationPages(REPO).map((page) => readSnippets(REPO, page));
const groups = pages.flatMap(projectsOf).filter((group) => group.snippets.length > 0);
const quickStart = groups.find((group) => group.page === 'README.md' && group.project === '')?.snippets ?? [];
const timings: Record<string, number> = {};
const timed = async <T>(stage: string, work: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  try {
    return await work();
  } finally {
    timings[stage] = Math.round(performance.now() - started);
  }
};

let projectDir: string;
let projects: PageProject[] = [];
let providers: ScriptedProviders | undefined;
const ports = new Map<Snippet, number>();
const diagnostics = new Map<string, string[]>();
const generated = new Map<string, string>();

beforeAll(async () => {
  projectDir = await timed('install', createDocsProject);
  for (const snippet of pages.flatMap((page) => page.snippets))
    if (kindOf(snippet.code) === 'http-server') ports.set(snippet, await freePort());
  projects = groups.map((group) =>
    writePage(projectDir, group, baseFor(group, quickStart), (snippet) => {
      const port = ports.get(snippet);
      return port === undefined ? snippet.code : snippet.code.replace(/\b(?:3000|8000)\b/g, String(port));
    }),
  );
  writeFileSync(path.join(projectDir, 'exercise-fetch.mjs'), FETCH_MODULE_SCRIPT);
  const everyFile = projects.flatMap((project) => [...project.files.entries()]);
  const onRuntime = (runtime: Snippet['runtime']) =>
    everyFile.filter(([, { snippet }]) => snippet.runtime === runtime).map(([file]) => file);
  writeTsconfigs(projectDir, {
    // What a program builds (esbuild's `dist/`) is no block of the page.
    exclude: ['pages/*/dist', ...onRuntime('deno'), ...onRuntime('bun')],
    bun: onRuntime('bun'),
  });

  const cli = path.join(projectDir, 'node_modules/@toolprep/build/dist/src/cli/main.js');
  await timed('generate', () =>
    inTurn(projects, 2, async (project) => {
      const { status, output } = await exec(process.execPath, [cli, 'generate', '--quiet'], dir(project));
      if (status !== 0)
        generated.set(project.page.page, `${generated.get(project.page.page) ?? ''}${output}`);
    }),
  );
  const tsc = path.join(projectDir, 'node_modules/typescript/bin/tsc');
  await timed('type-check', () =>
    Promise.all([
      exec(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], projectDir),
      exec(process.execPath, [tsc, '-p', 'tsconfig.bun.json', '--pretty', 'false'], projectDir),
      ...projects.flatMap((project) =>
        project.page.snippets
          .filter((snippet) => snippet.runtime === 'deno')
          .map((snippet) => denoCheck(project, snippet)),
      ),
    ]).then(([node, bun, ...deno]) => {
      for (const { status, output } of [node, bun]) {
        const found = tscDiagnostics(output);
        // A tsc that fails without a diagnostic (it crashed) fails the test too.
        for (const diagnostic of status !== 0 && found.length === 0
          ? [{ file: '', line: 0, text: output }]
          : found)
          report(diagnostic);
      }
      for (const found of deno) if (found) report(found);
    }),
  );
  providers = await startScriptedProviders();
}, 600_000);

afterAll(async () => {
  await providers?.close();
  const fragments = pages.flatMap((page) => page.fragments);
  const checked = groups.reduce((count, group) => count + group.snippets.length, 0);
  const run = programs.length;
  process.stdout.write(
    `[docs] ${checked} blocks checked in ${projects.length} projects of ${new Set(groups.map((group) => group.page)).size} pages, ${run} run; ${fragments.length} fragments left out (${fragments.join(', ')}); ${Object.entries(
      timings,
    )
      .map(([stage, ms]) => `${stage} ${(ms / 1000).toFixed(1)} s`)
      .join(', ')}\n`,
  );
  if (projectDir && !process.env.KEEP_DOCS_PROJECT) await rm(projectDir, { recursive: true, force: true });
}, 120_000);

const dir = (project: PageProject): string => path.join(projectDir, project.folder);

/** Files a diagnostic under its page, at the page's own line. */
function report({ file, line, text }: Diagnostic): void {
  const project = projects.find((candidate) => file.startsWith(`${candidate.folder}/`));
  const key = project?.page.page ?? '(no page)';
  const where = project ? pageLocation(project, file, line) : file;
  diagnostics.set(key, [...(diagnostics.get(key) ?? []), `${where}: ${text}`]);
}

/** `deno check` with the flags of the command the page gives for running the file. */
async function denoCheck(project: PageProject, snippet: Snippet): Promise<Diagnostic | undefined> {
  const [, , ...args] = commandOf(project.page, snippet) ?? ['deno', 'run', snippet.file];
  const flags = args.filter((arg) => arg.startsWith('--') && !arg.startsWith('--allow-'));
  const { status, output } = await exec(denoBinary, ['check', ...flags, snippet.file], dir(project));
  return status === 0
    ? undefined
    : { file: `${project.folder}/${snippet.file}`, line: 1, text: `deno check: ${output}` };
}

const denoBinary = path.join(REPO, 'node_modules/.bin/deno');
const bunBinary = path.join(REPO, 'node_modules/.bin/bun');

/** The command the page's prose names for running a Deno or Bun file: `deno run … main.ts`. */
function commandOf(page: PageSnippets, snippet: Snippet): string[] | undefined {
  const runner = snippet.runtime === 'deno' ? 'deno run' : 'bun';
  const escaped = snippet.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`\`(${runner} [^\`]*?${escaped})\``).exec(page.text)?.[1];
  return found?.split(/\s+/);
}

/** Runs `work` over `items`, `width` at a time. */
async function inTurn<T>(
  items: readonly T[],
  width: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

test('the checkers read the project: no diagnostic outside a page, such as a tsconfig that finds no file', () => {
  expect(diagnostics.get('(no page)') ?? []).toEqual([]);
});

describe.each([...new Set(groups.map((group) => group.page))])('%s', (page) => {
  test('generates, and every block type-checks against the packages a user installs', () => {
    expect(generated.get(page) ?? '').toBe('');
    expect(diagnostics.get(page) ?? []).toEqual([]);
  });
});

/** The command that runs a program, from its page's folder. */
function commandFor(project: PageProject, program: Program): string[] {
  const { snippet } = program;
  if (snippet.runtime !== 'node') {
    const named = commandOf(project.page, snippet);
    if (!named)
      throw new Error(`${snippet.page} names no \`${snippet.runtime}\` command that runs ${snippet.file}`);
    return [snippet.runtime === 'deno' ? denoBinary : bunBinary, ...named.slice(1)];
  }
  const node = /from ['"]ai['"]/.test(snippet.code) ? node22() : process.execPath;
  const file = `${project.folder}/${snippet.file}`;
  const built = /\.m?ts$/.test(file)
    ? path.join(projectDir, 'build', file.replace(/\.(m?)ts$/, '.$1js'))
    : path.join(projectDir, file);
  if (program.kind === 'fetch-module')
    return [node, path.join(projectDir, 'exercise-fetch.mjs'), built, allowedHost(project)];
  return [node, built, ...snippet.argv];
}

/** The names of the tools the project's manifest holds: what its servers must list. */
function manifestTools(project: PageProject): string[] {
  const manifest = JSON.parse(readFileSync(path.join(dir(project), 'toolprep.manifest.json'), 'utf8')) as {
    tools: { name: string }[];
  };
  return manifest.tools.map((tool) => tool.name);
}

/** The host the page's project allows (`allowedHosts: ['notes.example.com']`), or loopback. */
function allowedHost(project: PageProject): string {
  const code = [...project.files.values()].map(({ snippet }) => snippet.code).join('\n');
  return /allowedHosts:\s*\[\s*'([^']+)'/.exec(code)?.[1] ?? '127.0.0.1';
}

const programs = groups.flatMap((group) =>
  programsOf(group, baseFor(group, quickStart)).map((program) => ({
    name: `${group.page}:${program.snippet.line} ${program.snippet.file} (${program.kind})`,
    group,
    program,
  })),
);

test.concurrent.each(programs)('$name runs', async ({ group, program }) => {
  const project = projects.find((candidate) => candidate.page === group) as PageProject;
  const port = ports.get(program.snippet);
  const outcome: Outcome = await runProgram(program, project.folder, {
    projectDir,
    command: commandFor(project, program),
    env: providers?.env ?? {},
    host: allowedHost(project),
    ...(port === undefined ? {} : { port }),
  });
  // What a program prints (a hook's warning, where a server listens) is its own: its exit code
  // says whether it ran, and stderr comes with a failure to say why.
  expect({ status: outcome.status, stderr: outcome.stderr }).toMatchObject({ status: 0 });
  if (program.kind !== 'exits') expect(outcome.tools).toEqual(manifestTools(project));
});
