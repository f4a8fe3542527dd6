import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { generate } from '@toolprep/build';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { linkPackages, packPackages, REPO } from '../../scripts/packages.mjs';
import { pnpm } from '../../scripts/side-tools.mjs';

/**
 * A monorepo as teams share schemas (issue 26): the contracts of packages/server import
 * `defineTool`, shared Zod schemas and a tool factory by name from @acme/contracts, a workspace
 * package that ships TypeScript (`exports` with `types`/`import` conditions, a subpath pattern).
 * Installed from the packed packages with npm workspaces and with pnpm, as a user installs them:
 * the CLI, Vite and esbuild write the same bytes, under both package managers, and the servers
 * each bundler built answer a call.
 */

const OUTPUTS = ['toolprep.manifest.json', 'src/toolprep.gen.ts'];
const version = (name: string) =>
  (
    JSON.parse(readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
/** pnpm's own launcher, installed beside the repository (scripts/side-tools.mjs). */
const PNPM = pnpm();

/** How each names a workspace package, installs, and runs an installed command in a workspace. */
const MANAGERS = {
  npm: {
    workspace: '*',
    install: ['npm', 'install', '--no-audit', '--no-fund', '--loglevel=error'],
    exec: ['npm', 'exec', '--'],
  },
  pnpm: { workspace: 'workspace:*', install: [PNPM, 'install', '--reporter=silent'], exec: [PNPM, 'exec'] },
} as const;
type Manager = keyof typeof MANAGERS;

let tarballs: Record<string, string>;
let packs: string;
const folders: string[] = [];
beforeAll(() => {
  packs = mkdtempSync(path.join(tmpdir(), 'toolprep-packs-'));
  tarballs = packPackages(packs);
}, 120_000);
afterAll(() => {
  for (const folder of [packs, ...folders]) if (folder) rmSync(folder, { recursive: true, force: true });
}, 60_000);

/** The fixture in a fresh folder, its dependencies named as a user names them, installed. */
function installWorkspace(manager: Manager): string {
  const dir = mkdtempSync(path.join(tmpdir(), `toolprep-workspaces-${manager}-`));
  folders.push(dir);
  cpSync(path.join(REPO, 'fixtures/workspaces'), dir, { recursive: true });
  const versions: Record<string, string> = {
    toolprep: `file:${tarballs.toolprep}`,
    '@toolprep/build': `file:${tarballs['@toolprep/build']}`,
    '@acme/contracts': MANAGERS[manager].workspace,
    zod: version('zod'),
    '@modelcontextprotocol/sdk': version('@modelcontextprotocol/sdk'),
    esbuild: version('esbuild'),
    vite: version('vite'),
  };
  for (const workspace of ['packages/contracts', 'packages/server']) {
    const file = path.join(dir, workspace, 'package.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
    for (const field of ['dependencies', 'devDependencies'])
      for (const name of Object.keys(manifest[field] ?? {}))
        (manifest[field] as Record<string, string>)[name] = versions[name] as string;
    writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  const [command, ...args] = MANAGERS[manager].install;
  execFileSync(command as string, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return path.join(dir, 'packages/server');
}

const run = (cwd: string, command: string, ...args: string[]) =>
  spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
/** Runs a command the workspace installed, as its package manager runs it. */
const exec = (manager: Manager, cwd: string, ...args: string[]) => {
  const [command, ...prefix] = MANAGERS[manager].exec;
  return run(cwd, command, ...prefix, ...args);
};
const read = (server: string) => OUTPUTS.map((file) => readFileSync(path.join(server, file), 'utf8'));

/** Lists the tools of a built server over stdio, and calls them as a model would. */
async function callServer(server: string, entry: string) {
  const client = new Client({ name: 'workspaces-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [entry], cwd: server, stderr: 'pipe' }),
  );
  try {
    const { tools } = await client.listTools();
    return {
      tools: tools.map((tool) => tool.name),
      tagged: await client.callTool({
        name: 'tag_notes',
        arguments: { paths: 'a.md', tags: '[{"name":"x"}]' },
      }),
      searched: await client.callTool({ name: 'search_notes', arguments: { query: 'plan' } }),
      refused: await client.callTool({ name: 'read_notes', arguments: { paths: '["a.md","b.md"]' } }),
    };
  } finally {
    await client.close();
  }
}

const written: Partial<Record<Manager, string[]>> = {};

/** What each way of building wrote, with how the command ended. */
interface Build {
  readonly status: number | null;
  readonly output: string;
  readonly written: string[];
}

describe.each(Object.keys(MANAGERS) as Manager[])('a %s workspace', (manager) => {
  let server: string;
  const builds: Record<string, Build> = {};
  beforeAll(() => {
    server = installWorkspace(manager);
    // Each from nothing: the CLI, then Vite, then esbuild, each with the toolprep plugin.
    for (const [name, build] of [
      ['cli', () => exec(manager, server, 'toolprep', 'generate')],
      ['vite', () => exec(manager, server, 'vite', 'build')],
      ['esbuild', () => run(server, process.execPath, 'esbuild.mjs')],
    ] as const) {
      for (const file of OUTPUTS) rmSync(path.join(server, file), { force: true });
      const { status, stdout, stderr } = build();
      builds[name] = { status, output: `${stdout}${stderr}`, written: status === 0 ? read(server) : [] };
    }
  }, 300_000);

  test('toolprep generate finds the tools made with the workspace package', () => {
    const { status, output, written: cli } = builds.cli as Build;
    expect(output).toMatch(/3 tools found/);
    expect(status).toBe(0);
    const manifest = JSON.parse(cli[0] as string) as { tools: { name: string; source: string }[] };
    expect(manifest.tools.map(({ name, source }) => [name, source])).toEqual([
      ['read_notes', 'src/tools/notes.ts#readNotes'],
      ['search_notes', 'src/tools/search.ts#searchNotes'],
      ['tag_notes', 'src/tools/notes.ts#tagNotes'],
    ]);
    // The shared schema's description and rule reached the document.
    expect(cli[0]).toContain('"description": "A note path, relative to the vault"');
    written[manager] = cli;
  });

  test.each(['vite', 'esbuild'])('the %s plugin writes the same bytes as toolprep generate', (name) => {
    const build = builds[name] as Build;
    expect(build.status, build.output).toBe(0);
    expect(build.written).toEqual(builds.cli?.written);
  });

  test('the project type-checks against the installed declarations and the workspace sources', () => {
    const typeCheck = run(
      server,
      process.execPath,
      path.join(REPO, 'node_modules/typescript/bin/tsc'),
      '-p',
      '.',
    );
    expect(typeCheck.stdout).toBe('');
    expect(typeCheck.status).toBe(0);
  });

  test.each(['dist-vite/server.js', 'dist-esbuild/server.js'])(
    'the server in %s lists the tools and answers calls',
    async (entry) => {
      const answers = await callServer(server, entry);
      expect(answers.tools).toEqual(['read_notes', 'search_notes', 'tag_notes']);
      expect(answers.tagged).toMatchObject({ content: [{ type: 'text', text: 'a.md: x' }] });
      // The factory's default applied, by the contract's own parser.
      expect(answers.searched).toMatchObject({ content: [{ type: 'text', text: 'plan (10)' }] });
      expect(answers.refused).toMatchObject({
        isError: true,
        content: [
          { text: 'paths is a list written as text — pass the array itself, not JSON written as text' },
        ],
      });
    },
  );

  test('a change in the workspace package is seen by the next run, the cache notwithstanding', () => {
    const schemas = path.join(server, '../contracts/src/schemas.ts');
    const original = readFileSync(schemas, 'utf8');
    try {
      writeFileSync(schemas, original.replace('relative to the vault', 'inside the vault'));
      const generated = exec(manager, server, 'toolprep', 'generate', '--quiet');
      expect(generated.status).toBe(0);
      expect(readFileSync(path.join(server, 'toolprep.manifest.json'), 'utf8')).toContain(
        '"description": "A note path, inside the vault"',
      );
    } finally {
      writeFileSync(schemas, original);
    }
  });
});

test('npm and pnpm installs of the same workspace give the same bytes', () => {
  expect(written.npm).toBeDefined();
  expect(written.pnpm).toEqual(written.npm);
});

/** A throwaway project with these files (packages under node_modules among them); toolprep and zod linked. */
function projectWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-packages-'));
  folders.push(dir);
  linkPackages(dir);
  symlinkSync(path.join(REPO, 'node_modules/zod'), path.join(dir, 'node_modules/zod'));
  for (const [file, text] of Object.entries({ 'package.json': '{ "type": "module" }\n', ...files })) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const packageJson = (name: string, exports: unknown) => JSON.stringify({ name, type: 'module', exports });
const TS_ONLY = {
  'node_modules/ts-only/package.json': packageJson('ts-only', { '.': './index.ts' }),
  'node_modules/ts-only/index.ts':
    "import { z } from 'zod';\nexport const query: z.ZodString = z.string().min(2);\n",
};
const toolOf = (from: string) =>
  `import { defineTool } from 'toolprep';\nimport { z } from 'zod';\nimport { query } from '${from}';\nexport const find = defineTool({ description: 'd', input: z.object({ q: query }) });\n`;

describe('what the loader does with each package a contract imports', () => {
  test.each<[string, Record<string, string>, { tools: string[]; problems: RegExp[] }]>([
    [
      'a package under node_modules that ships only TypeScript is bundled',
      { ...TS_ONLY, 'src/a.ts': toolOf('ts-only') },
      { tools: ['find'], problems: [] },
    ],
    [
      'the project imported by its own name, to TypeScript, is bundled',
      {
        'package.json': packageJson('@acme/me', { './schemas': './src/schemas.ts' }),
        'src/schemas.ts': "import { z } from 'zod';\nexport const query = z.string();\n",
        'src/a.ts': toolOf('@acme/me/schemas'),
      },
      { tools: ['find'], problems: [] },
    ],
    [
      'JavaScript reached through a tsconfig paths alias is project source, bundled',
      {
        'tsconfig.json': JSON.stringify({
          compilerOptions: { allowJs: true, paths: { '@lib/*': ['./src/lib/*'] } },
        }),
        'src/lib/query.js': "import { z } from 'zod';\nexport const query = z.string();\n",
        'src/a.ts': toolOf('@lib/query.js'),
      },
      { tools: ['find'], problems: [] },
    ],
    [
      'a package not installed, imported only when a function runs, is left alone',
      {
        'src/a.ts': `${toolOf('zod')
          .replace("import { query } from 'zod';\n", '')
          .replace('q: query', 'q: z.string()')}export const later = () => import('not-installed');\n`,
      },
      { tools: ['find'], problems: [] },
    ],
    [
      'a package whose exports name only a declaration file is an error that says so',
      {
        'node_modules/types-only/package.json': packageJson('types-only', { '.': './index.d.ts' }),
        'node_modules/types-only/index.d.ts': 'export declare const query: unknown;\n',
        'src/a.ts': toolOf('types-only'),
      },
      {
        tools: [],
        problems: [/^could not be built: "types-only" resolves to a declaration file, which holds no code/],
      },
    ],
    [
      'TypeScript imported by a JavaScript package that Node loads is an error that says why',
      {
        ...TS_ONLY,
        'node_modules/js-wrapper/package.json': packageJson('js-wrapper', { '.': './index.js' }),
        'node_modules/js-wrapper/index.js': "export * from 'ts-only';\n",
        'src/a.ts': toolOf('js-wrapper'),
      },
      {
        tools: [],
        problems: [
          /Unknown file extension "\.ts".*: Node cannot run TypeScript, and a JavaScript package that Node loads imports it/,
        ],
      },
    ],
  ])('%s', async (_case, files, expected) => {
    const result = await generate({ root: projectWith(files), cache: false });
    expect(result.problems.map((problem) => problem.message)).toEqual(
      expected.problems.map((pattern) => expect.stringMatching(pattern)),
    );
    expect((result.manifest?.tools ?? []).map((tool) => tool.name)).toEqual(expected.tools);
  });
});
