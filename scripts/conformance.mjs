// `npm run conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance,
// which needs Node 22: see side-tools.mjs) against a server built with toolprep's helpers and features
// of its own (fixtures/conformance), and against the same server with the same tools registered
// the SDK's own way (its baseline). Every active scenario must pass, but for those the baseline
// fails too, which are listed with the suite's reasons; the pending ones (the suite's own
// scenarios not yet in its active set) are run and reported too. The 2026-07-28 release's
// scenarios of the tasks extension (io.modelcontextprotocol/tasks, `tasks-*`) run against
// toolprep's own serving only: no SDK serves tasks, so they have no baseline. `--json <file>`
// writes the verdicts; `--tasks` runs the tasks scenarios alone.
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
import { BUILD_PACKAGE, bundleServers, linkPackages, REPO } from './packages.mjs';
import { node22 } from './side-tools.mjs';

const SUITE = fileURLToPath(import.meta.resolve('@modelcontextprotocol/conformance/dist/index.js'));
/** The suite's release for 2026-07-28 (0.2 alpha), installed under another name beside 0.1.16. */
const SUITE_2026 = fileURLToPath(import.meta.resolve('conformance2026/dist/index.js'));
/** Why the tasks scenarios are compared with nothing. */
const NO_TASKS_BASELINE =
  'no SDK serves the tasks extension (the SDK v2 has no tasks, and toolprep’s tools on an SDK v2 server run as plain calls)';

/** The conformance project, generated and bundled, in a fresh folder. */
async function buildServer() {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-conformance-'));
  cpSync(path.join(REPO, 'fixtures/conformance'), dir, { recursive: true });
  linkPackages(dir);
  symlinkSync(path.join(REPO, 'node_modules/zod'), path.join(dir, 'node_modules/zod'));
  mkdirSync(path.join(dir, 'node_modules/@modelcontextprotocol'), { recursive: true });
  // SDK v1 for the 2025 server, v2 for the user's own server of the 2026-07-28 run.
  for (const sdk of ['sdk', 'server', 'core', 'node'])
    symlinkSync(
      path.join(REPO, 'node_modules/@modelcontextprotocol', sdk),
      path.join(dir, 'node_modules/@modelcontextprotocol', sdk),
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
  await bundleServers(dir, ['src/server.ts', 'src/server-v2.ts']);
  return dir;
}

/** Starts the server (the baseline with `--baseline`); resolves to its URL and a way to stop it. */
function start(dir, ...args) {
  const entry = args[0]?.endsWith('.js') ? args.shift() : 'out/server.js';
  const child = spawn(process.execPath, [entry, ...args], {
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
function runSuite(node, url, suite, outputDir, release = { path: SUITE, args: [] }) {
  return runServerScenarios(node, url, ['--suite', suite], outputDir, release);
}

/** Runs the server scenarios `selection` picks (`--suite …` or `--scenario …`); resolves to each one's verdict. */
function runServerScenarios(node, url, selection, outputDir, release) {
  return new Promise((resolve, reject) => {
    const args = [
      release.path,
      'server',
      '--url',
      url,
      ...selection,
      ...release.args,
      '--output-dir',
      outputDir,
    ];
    const child = spawn(node, args, {
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

/**
 * The scenarios of the tasks extension the 2026-07-28 release lists (`tasks-*`, marked
 * `[extension]`): not on the spec's timeline, so `--suite all --spec-version` leaves them out, and
 * each runs by name.
 */
function taskScenarios(node) {
  const listed = spawnSync(node, [SUITE_2026, 'list', '--server'], { encoding: 'utf8' });
  const names = [...listed.stdout.matchAll(/^\s+- (tasks-[\w-]+) \[extension\]\s*$/gm)].map(
    (match) => match[1],
  );
  if (names.length === 0)
    throw new Error(`the suite listed no tasks scenario:\n${listed.stdout}${listed.stderr}`);
  return names;
}

/**
 * The tasks scenarios against `url`, one by one, at the 2026-07-28 wire (`--force`: an extension
 * scenario is applicable at no spec version); resolves to each one's verdict.
 */
async function runTaskScenarios(node, url, outputDir) {
  const verdicts = {};
  for (const scenario of taskScenarios(node))
    Object.assign(
      verdicts,
      await runServerScenarios(node, url, ['--scenario', scenario], path.join(outputDir, scenario), {
        path: SUITE_2026,
        args: ['--spec-version', '2026-07-28', '--force'],
      }),
    );
  return verdicts;
}

/**
 * Each scenario's checks, from the suite's results folder: passed, the failures' messages, and the
 * checks the suite skipped (with its reason); a scenario whose every check was skipped is `skipped`.
 */
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
    const skipped = checks.filter((check) => check.status === 'SKIPPED');
    // The schema check of what the server sent is not one of the scenario's own.
    const own = checks.filter((check) => check.id !== 'wire-schema-valid');
    verdicts[scenario] = {
      passed: failures.length === 0,
      ...(own.length > 0 && own.every((check) => check.status === 'SKIPPED') ? { skipped: true } : {}),
      warnings: checks
        .filter((check) => check.status === 'WARNING')
        .map((check) => check.errorMessage ?? check.name),
      failures: failures.map((check) => `${check.name}: ${check.errorMessage ?? 'failed'}`),
      ...(skipped.length > 0
        ? { skips: skipped.map((check) => `${check.name}: ${check.errorMessage ?? 'skipped'}`) }
        : {}),
    };
  }
  return verdicts;
}

/**
 * The 2025 revisions (toolprep's server and the SDK baseline, the active and pending suites) and
 * 2026-07-28 (`--suite all`), into `results`.
 */
async function runEras(node, dir, results) {
  for (const [name, args] of [
    ['toolprep', []],
    ['baseline', ['--baseline']],
  ]) {
    const server = await start(dir, ...args);
    try {
      results[name] = {};
      for (const suite of ['active', 'pending']) {
        const verdicts = await runSuite(node, server.url, suite, path.join(dir, `results-${name}-${suite}`));
        for (const [scenario, verdict] of Object.entries(verdicts))
          results[name][scenario] = { ...verdict, suite };
      }
    } finally {
      server.stop();
    }
  }
  // 2026-07-28: toolprep's own answers (the same server as above, whose resources and prompts
  // are an SDK v1 server's, which serves 2025 only), and toolprep's tools on a user's SDK v2 server.
  for (const [name, entry] of [
    ['toolprep', 'out/server.js'],
    ['toolprep-on-sdk-v2', 'out/server-v2.js'],
  ]) {
    const server = await start(dir, entry);
    try {
      results.modern[name] = await runSuite(node, server.url, 'all', path.join(dir, `results-2026-${name}`), {
        path: SUITE_2026,
        args: ['--spec-version', '2026-07-28'],
      });
    } finally {
      server.stop();
    }
  }
}

/** `tasksOnly`: run the tasks extension's scenarios alone (the other lists come back empty). */
export async function conformance({ tasksOnly = false } = {}) {
  const node = node22();
  const dir = await buildServer();
  const results = { toolprep: {}, baseline: {}, modern: {} };
  let taskVerdicts = {};
  try {
    if (!tasksOnly) await runEras(node, dir, results);
    // The tasks extension, on toolprep's own serving (a fresh server, so a fresh task store). The SDK
    // v2 serves no tasks (toolprep's tools on it run as plain calls): there is nothing to compare with.
    const server = await start(dir, 'out/server.js');
    try {
      taskVerdicts = await runTaskScenarios(node, server.url, path.join(dir, 'results-2026-tasks'));
    } finally {
      server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const required = requiredScenarios2026();
  const modern = [...new Set(Object.values(results.modern).flatMap((verdicts) => Object.keys(verdicts)))]
    .sort()
    .map((scenario) => ({
      scenario,
      required: required.has(scenario),
      ...Object.fromEntries(
        Object.entries(results.modern).map(([name, verdicts]) => [name, verdicts[scenario]]),
      ),
    }));
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
  const tasks = Object.keys(taskVerdicts)
    .sort()
    .map((scenario) => ({
      scenario,
      toolprep: taskVerdicts[scenario],
      baseline: `none: ${NO_TASKS_BASELINE}`,
    }));
  return {
    rows,
    active,
    regressions: active.filter((row) => row.verdict.startsWith('FAILS')),
    modern,
    tasks,
  };
}

/** The scenarios 2026-07-28 conformance requires, from the suite's own frozen list. */
function requiredScenarios2026() {
  const text = readFileSync(path.join(path.dirname(SUITE_2026), '../requirements/2026-07-28.yaml'), 'utf8');
  const section = /^server:\n((?:\s+- .*\n|\s*#.*\n|\s*\n)*)/m.exec(text)?.[1] ?? '';
  return new Set([...section.matchAll(/^\s+- ([\w-]+)/gm)].map((match) => match[1]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const tasksOnly = process.argv.includes('--tasks');
  const result = await conformance({ tasksOnly });
  const { rows, active, regressions, modern, tasks } = result;
  const passing = (list, side) => list.filter((row) => row[side]?.passed).length;
  // `skips`: with the checks the suite skipped, and its reasons.
  const why = (verdict, skips = false) =>
    [...(verdict?.failures ?? []), ...(verdict?.warnings ?? []), ...(skips ? (verdict?.skips ?? []) : [])]
      .join('; ')
      .replaceAll('|', '\\|');
  if (!tasksOnly) {
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
    console.log('\n2026-07-28 (0.2.0-alpha.12, --suite all):\n');
    console.log(
      '| scenario | required | toolprep | toolprep on SDK v2 | the suite says (toolprep; on SDK v2) |',
    );
    console.log('| --- | --- | --- | --- | --- |');
    for (const row of modern)
      console.log(
        `| ${row.scenario} | ${row.required ? 'yes' : 'no'} | ${row.toolprep?.passed ? 'pass' : 'FAIL'} | ${row['toolprep-on-sdk-v2']?.passed ? 'pass' : 'FAIL'} | ${why(row.toolprep)}; ${why(row['toolprep-on-sdk-v2'])} |`,
      );
    const requiredRows = modern.filter((row) => row.required);
    console.log(
      `\n${passing(requiredRows, 'toolprep')} of ${requiredRows.length} required 2026-07-28 scenarios pass with toolprep's own serving, ${passing(requiredRows, 'toolprep-on-sdk-v2')} with toolprep's tools on an SDK v2 server.`,
    );
  }
  console.log(
    '\n2026-07-28, the tasks extension (io.modelcontextprotocol/tasks; 0.2.0-alpha.12, each scenario by name, unscored):\n',
  );
  console.log(`No baseline: ${NO_TASKS_BASELINE}. These are toolprep's own serving alone, not compared.\n`);
  console.log('| scenario | toolprep | the suite says (failures, warnings; skipped checks) |');
  console.log('| --- | --- | --- |');
  const taskVerdict = (verdict) => (verdict?.skipped ? 'skipped' : verdict?.passed ? 'pass' : 'FAIL');
  for (const { scenario, toolprep } of tasks)
    console.log(`| ${scenario} | ${taskVerdict(toolprep)} | ${why(toolprep, true)} |`);
  const failing = tasks.filter((row) => !row.toolprep?.passed).map((row) => row.scenario);
  const skipped = tasks.filter((row) => row.toolprep?.skipped).map((row) => row.scenario);
  console.log(
    `\n${passing(tasks, 'toolprep') - skipped.length} of ${tasks.length} tasks scenarios pass with toolprep's own serving` +
      `${skipped.length > 0 ? `, ${skipped.length} skipped by the suite itself (${skipped.join(', ')})` : ''}` +
      `${failing.length > 0 ? `; failing: ${failing.join(', ')}` : ''}.`,
  );
  const jsonAt = process.argv.indexOf('--json');
  if (jsonAt !== -1) writeFileSync(process.argv[jsonAt + 1], `${JSON.stringify(rows, null, 2)}\n`);
  process.exitCode = regressions.length > 0 || failing.length > 0 ? 1 : 0;
}
