#!/usr/bin/env node
// `npm run test:install` (issue 26, decision 0028): the packed packages installed as users
// install them, by every package manager we name, on every Zod a project may have; in each, the
// build half must resolve its own converters and its own zod whatever the hoisting. Each cell
// installs fixtures/install-matrix afresh, then: generate (the CLI), build (the esbuild plugin,
// which must write the same bytes), type-check (the project and its generated types against the
// installed declarations; checking the declarations themselves is the production-install test's,
// and would triple the time), serve a call (the shell surface; and MCP over stdio with the official client
// where the project has the MCP SDK, whose zod must be 3.25 or later: a 2025 session; elsewhere
// 2026-07-28, which needs no SDK, with the official v2 client). Too slow for `npm test`:
// about ten minutes on two cores, most of it installing.
//
//   node test/install/matrix.mjs [--only=<manager>[,<manager>]] [--zod=<version>[,<version>]]
//
// Prints a line per step, a table of results and times, and `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ensureBuilt } from '../../scripts/build.mjs';
import { packPackages, REPO } from '../../scripts/packages.mjs';
import { PNPM_VERSION, pnpm } from '../../scripts/side-tools.mjs';

const TEMPLATE = fileURLToPath(new URL('../../fixtures/install-matrix', import.meta.url));
const ZODS = ['3.23.8', '3.25.76', '4.6.7'];
const OUTPUTS = ['toolprep.manifest.json', 'src/toolprep.gen.ts'];
const require = createRequire(import.meta.url);
const versionOf = (name) =>
  JSON.parse(readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')).version;
const packageFolder = (name) => path.dirname(require.resolve(`${name}/package.json`));
const installedVersion = (name) =>
  JSON.parse(readFileSync(path.join(packageFolder(name), 'package.json'), 'utf8')).version;
const REGISTRY = spawnSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).stdout.trim();

/** Each package manager as a user runs it: the command, and what it needs to run unattended. */
const MANAGERS = {
  npm: { install: ['npm', 'install', '--no-audit', '--no-fund', '--loglevel=error'] },
  'npm-legacy-peer-deps': {
    label: 'npm --legacy-peer-deps',
    install: ['npm', 'install', '--no-audit', '--no-fund', '--loglevel=error', '--legacy-peer-deps'],
  },
  pnpm: {
    label: `pnpm ${PNPM_VERSION}`,
    install: [pnpm(), 'install', '--no-frozen-lockfile', '--reporter=silent'],
    // pnpm refuses to install while a dependency's install script is neither allowed nor denied;
    // esbuild's only checks the binary its platform package ships.
    files: { 'pnpm-workspace.yaml': 'allowBuilds:\n  esbuild: false\n' },
  },
  yarn: {
    label: `Yarn ${installedVersion('@yarnpkg/cli-dist')} (node-modules linker)`,
    install: [process.execPath, path.join(packageFolder('@yarnpkg/cli-dist'), 'bin/yarn.js'), 'install'],
    files: { '.yarnrc.yml': 'nodeLinker: node-modules\n', 'yarn.lock': '' },
    env: {
      YARN_NPM_REGISTRY_SERVER: REGISTRY,
      YARN_ENABLE_IMMUTABLE_INSTALLS: 'false',
      YARN_ENABLE_TELEMETRY: '0',
      YARN_ENABLE_GLOBAL_CACHE: 'true',
    },
  },
  bun: {
    label: `bun ${installedVersion('bun')}`,
    install: [path.join(REPO, 'node_modules/.bin/bun'), 'install', '--no-progress'],
    env: { NPM_CONFIG_REGISTRY: REGISTRY },
  },
};

const option = (name) =>
  process.argv
    .find((argument) => argument.startsWith(`--${name}=`))
    ?.slice(name.length + 3)
    .split(',');
const managers = option('only') ?? Object.keys(MANAGERS);
const zods = option('zod') ?? ZODS;
/**
 * The MCP SDK v1 declares zod ^3.25 || ^4, and beside zod 3.23 fails as it loads under pnpm, Yarn
 * and npm --legacy-peer-deps (docs/guide/projects.md): such a project gets no SDK, and is served
 * over MCP 2026-07-28 alone.
 */
const hasSdk = (zod) => !zod.startsWith('3.23.');

function step(name, cwd, [command, ...args], env = {}) {
  const started = performance.now();
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', npm_config_registry: REGISTRY, ...env },
    timeout: 300_000,
  });
  const seconds = (performance.now() - started) / 1000;
  return {
    name,
    ok: result.status === 0,
    seconds,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ?? ''}`,
  };
}

/** One cell: a fresh project, installed by `manager` on `zod`, taken through every step. */
async function runCell(manager, zod, tarballs) {
  const { install, files = {}, env = {} } = MANAGERS[manager];
  const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-install-'));
  const steps = [];
  const check = (result, expectation) => {
    const problem = result.ok
      ? expectation?.(result.output)
      : result.output.trim().split('\n').slice(-12).join('\n');
    steps.push({ ...result, ok: !problem, problem });
    return !problem;
  };
  try {
    cpSync(TEMPLATE, dir, { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
    const packageJson = {
      name: 'install-matrix',
      private: true,
      type: 'module',
      dependencies: {
        toolprep: `file:${tarballs.toolprep}`,
        zod,
        ...(hasSdk(zod) ? { '@modelcontextprotocol/sdk': versionOf('@modelcontextprotocol/sdk') } : {}),
      },
      devDependencies: {
        '@toolprep/build': `file:${tarballs['@toolprep/build']}`,
        esbuild: versionOf('esbuild'),
        '@types/node': versionOf('@types/node'),
      },
    };
    writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
    if (!check(step('install', dir, install, env))) return steps;
    const toolprep = path.join(dir, 'node_modules/.bin/toolprep');
    const generated = step('generate', dir, [toolprep, 'generate']);
    if (!check(generated, (output) => (/3 tools found/.test(output) ? undefined : output))) return steps;
    const written = OUTPUTS.map((file) => readFileSync(path.join(dir, file), 'utf8'));
    const built = step('build', dir, [process.execPath, 'build.mjs']);
    check(built, () => {
      const rewritten = OUTPUTS.filter(
        (file, index) => readFileSync(path.join(dir, file), 'utf8') !== written[index],
      );
      return rewritten.length === 0
        ? undefined
        : `the esbuild plugin wrote other bytes: ${rewritten.join(', ')}`;
    });
    check(
      step('type-check', dir, [
        process.execPath,
        path.join(REPO, 'node_modules/typescript/bin/tsc'),
        '-p',
        '.',
      ]),
    );
    if (existsSync(path.join(dir, 'dist/cli.js'))) {
      const cli = [process.execPath, 'dist/cli.js'];
      const repaired = step('serve a call', dir, [
        ...cli,
        'place_window',
        '--window',
        'w',
        '--frame',
        '{"x":1,"y":2,"size":"[3,4]"}',
        '--theme',
        'dark',
      ]);
      check(repaired, (output) => (output.includes('w at 1,2, 3×4, dark') ? undefined : output));
      const refused = step('refuse a list as text', dir, [
        ...cli,
        'read_files',
        '--paths',
        '["a.md","b.md"]',
      ]);
      const refusal = 'paths is a list written as text';
      steps.push({
        ...refused,
        ok: !refused.ok && refused.output.includes(refusal),
        problem: refused.output,
      });
    }
    if (existsSync(path.join(dir, 'dist/server.js'))) steps.push(await callOverMcp(dir, hasSdk(zod)));
    return steps;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The built MCP server over stdio, with an official client: lists the tools, repairs a call. A
 * project with the SDK is served a 2025 session (the v1 client); one without, 2026-07-28 (the v2
 * client), which toolprep serves with no SDK (decision 0043).
 */
async function callOverMcp(dir, withSdk) {
  const started = performance.now();
  const info = { name: 'install-matrix', version: '1.0.0' };
  const spawned = { command: process.execPath, args: ['dist/server.js'], cwd: dir, stderr: 'pipe' };
  const client = withSdk
    ? new Client(info)
    : new ClientV2(info, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  try {
    await client.connect(withSdk ? new StdioClientTransport(spawned) : new StdioClientTransportV2(spawned));
    const { tools } = await client.listTools();
    const answer = await client.callTool({
      name: 'place_window',
      arguments: { window: 'w', frame: '{"x":1,"y":2,"size":[3,4]}', theme: 'dark' },
    });
    const text = answer.content?.[0]?.text;
    const ok = tools.length === 3 && text === 'w at 1,2, 3×4, dark';
    return {
      name: 'serve over MCP',
      ok,
      seconds: (performance.now() - started) / 1000,
      problem: ok ? undefined : JSON.stringify({ tools: tools.map((tool) => tool.name), answer }),
    };
  } catch (error) {
    return {
      name: 'serve over MCP',
      ok: false,
      seconds: (performance.now() - started) / 1000,
      problem: String(error),
    };
  } finally {
    await client.close().catch(() => {});
  }
}

await ensureBuilt();
const packs = mkdtempSync(path.join(tmpdir(), 'toolprep-packs-'));
const tarballs = packPackages(packs);
const results = [];
try {
  for (const manager of managers)
    for (const zod of zods) {
      const started = performance.now();
      const steps = await runCell(manager, zod, tarballs);
      const seconds = (performance.now() - started) / 1000;
      const ok = steps.length > 0 && steps.every((item) => item.ok);
      results.push({ manager, zod, ok, seconds, steps });
      console.log(
        `${ok ? 'ok  ' : 'FAIL'} ${MANAGERS[manager].label ?? manager} × zod ${zod} (${seconds.toFixed(0)} s): ${steps.map((item) => `${item.name} ${item.ok ? '✓' : '✗'} ${item.seconds.toFixed(1)} s`).join(', ')}`,
      );
      for (const failed of steps.filter((item) => !item.ok))
        console.log(`     ${failed.name}: ${failed.problem}`.replaceAll('\n', '\n     '));
    }
} finally {
  rmSync(packs, { recursive: true, force: true });
}

console.log(`\n| package manager | ${zods.map((zod) => `zod ${zod}`).join(' | ')} |`);
console.log(`| --- | ${zods.map(() => '---').join(' | ')} |`);
for (const manager of managers) {
  const cells = zods.map((zod) => {
    const result = results.find((item) => item.manager === manager && item.zod === zod);
    return result ? `${result.ok ? 'pass' : 'FAIL'} (${result.seconds.toFixed(0)} s)` : '–';
  });
  console.log(`| ${MANAGERS[manager].label ?? manager} | ${cells.join(' | ')} |`);
}
const passed = results.filter((result) => result.ok).length;
console.log(`\n${passed} passed, ${results.length - passed} failed`);
process.exitCode = passed === results.length ? 0 : 1;
