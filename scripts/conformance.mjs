// `npm run conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance,
// which needs Node 22: see node22.mjs) against a server built with toolprep's helpers and features
// of its own (fixtures/conformance), and against the same server with the same tools registered
// the SDK's own way (its baseline). Every active scenario must pass, but for those the baseline
// fails too, which are listed with the suite's reasons; the pending ones (the suite's own
// scenarios not yet in its active set) are run and reported too. `--json <file>` writes the verdicts.
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
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
import { fileURLToPath } from 'node:url';
import { node22 } from './node22.mjs';
import { BUILD_PACKAGE, linkPackages, REPO } from './packages.mjs';

const SUITE = path.join(REPO, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** The conformance project, generated and bundled, in a fresh folder. */
async function buildServer() {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-conformance-'));
  cpSync(path.join(REPO, 'fixtures/conformance'), dir, { recursive: true });
  linkPackages(dir);
  symlinkSync(path.join(REPO, 'node_modules/zod'), path.join(dir, 'node_modules/zod'));
  mkdirSync(path.join(dir, 'node_modules/@modelcontextprotocol'), { recursive: true });
  symlinkSync(
    path.join(REPO, 'node_modules/@modelcontextprotocol/sdk'),
    path.join(dir, 'node_modules/@modelcontextprotocol/sdk'),
  );
  const generated = spawnSync(
    process.execPath,
    [path.join(BUILD_PACKAGE, 'dist/src/cli/main.js'), 'generate', '--quiet'],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
  if (generated.status !== 0)
    throw new Error(`toolprep generate failed:\n${generated.stdout}${generated.stderr}`);
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: dir,
    entryPoints: ['src/server.ts'],
    outdir: 'out',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'error',
  });
  return dir;
}

/** Starts the server (the baseline with `--baseline`); resolves to its URL and a way to stop it. */
function start(dir, ...args) {
  const child = spawn(process.execPath, ['out/server.js', ...args], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      const port = /listening on (\d+)/.exec(String(chunk))?.[1];
      if (port) resolve({ url: `http://localhost:${port}/mcp`, stop: () => child.kill() });
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
}

/** Runs a suite's server scenarios (`active` or `pending`) against `url`; resolves to each one's verdict. */
function runSuite(node, url, suite, outputDir) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [SUITE, 'server', '--url', url, '--suite', suite, '--output-dir', outputDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('exit', () => {
      const verdicts = verdictsIn(outputDir);
      if (Object.keys(verdicts).length === 0) reject(new Error(`the suite ran no scenario:\n${output}`));
      else resolve(verdicts);
    });
  });
}

/** Each scenario's checks, from the suite's results folder: passed, and the failures' messages. */
function verdictsIn(outputDir) {
  const verdicts = {};
  for (const folder of readdirSync(outputDir, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    const scenario = folder.name.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, '');
    let checks;
    try {
      checks = JSON.parse(readFileSync(path.join(outputDir, folder.name, 'checks.json'), 'utf8'));
    } catch {
      continue;
    }
    const failures = checks.filter((check) => check.status === 'FAILURE');
    verdicts[scenario] = {
      passed: failures.length === 0,
      warnings: checks
        .filter((check) => check.status === 'WARNING')
        .map((check) => check.errorMessage ?? check.name),
      failures: failures.map((check) => `${check.name}: ${check.errorMessage ?? 'failed'}`),
    };
  }
  return verdicts;
}

export async function conformance() {
  const node = node22();
  const dir = await buildServer();
  const results = {};
  try {
    for (const [name, args] of [
      ['toolprep', []],
      ['baseline', ['--baseline']],
    ]) {
      const server = await start(dir, ...args);
      try {
        results[name] = {};
        for (const suite of ['active', 'pending']) {
          const verdicts = await runSuite(
            node,
            server.url,
            suite,
            path.join(dir, `results-${name}-${suite}`),
          );
          for (const [scenario, verdict] of Object.entries(verdicts))
            results[name][scenario] = { ...verdict, suite };
        }
      } finally {
        server.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const scenarios = [...new Set([...Object.keys(results.toolprep), ...Object.keys(results.baseline)])].sort();
  const rows = scenarios.map((scenario) => {
    const ours = results.toolprep[scenario];
    const theirs = results.baseline[scenario];
    const verdict = ours?.passed
      ? 'passes'
      : theirs && !theirs.passed
        ? 'fails, as the SDK baseline does'
        : 'FAILS where the SDK baseline passes';
    return { scenario, suite: ours?.suite ?? theirs?.suite, verdict, toolprep: ours, baseline: theirs };
  });
  const active = rows.filter((row) => row.suite === 'active');
  return { rows, active, regressions: active.filter((row) => row.verdict.startsWith('FAILS')) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { rows, active, regressions } = await conformance();
  const passing = (list, side) => list.filter((row) => row[side]?.passed).length;
  const why = (verdict) =>
    [...(verdict?.failures ?? []), ...(verdict?.warnings ?? [])].join('; ').replaceAll('|', '\\|');
  console.log('| scenario | suite | toolprep | SDK baseline | the suite says (failures, warnings) |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const { scenario, suite, toolprep, baseline } of rows)
    console.log(
      `| ${scenario} | ${suite} | ${toolprep?.passed ? 'pass' : 'FAIL'} | ${baseline?.passed ? 'pass' : 'fail'} | ${why(toolprep)} |`,
    );
  const pending = rows.filter((row) => row.suite === 'pending');
  console.log(
    `\n${passing(active, 'toolprep')} of ${active.length} active scenarios pass with toolprep, ${passing(active, 'baseline')} with the SDK baseline; ${regressions.length} fail where the baseline passes. Pending: ${passing(pending, 'toolprep')} of ${pending.length} with toolprep, ${passing(pending, 'baseline')} with the baseline.`,
  );
  const jsonAt = process.argv.indexOf('--json');
  if (jsonAt !== -1) writeFileSync(process.argv[jsonAt + 1], `${JSON.stringify(rows, null, 2)}\n`);
  process.exitCode = regressions.length > 0 ? 1 : 0;
}
