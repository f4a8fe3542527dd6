// `npm run bench` (builds first): every benchmark, side by side with its peers, written to
// bench/RESULTS.md and bench/startup.svg. `--quick` for a short run; `--only <section>` for one
// of: startup, workerd, stateless, mcp-2026, auth, per-call, size-scaling, repairs, plan-workerd, tasks,
// build, explain, loaders, size, footprint, search.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import { AUTH_PROJECTS, benchmarkAuth } from './auth.mjs';
import { REPO } from './contracts.mjs';
import { benchmarkMcp2026, MCP_2026_PROJECTS } from './mcp-2026.mjs';
import { benchmarkPlanInWorkerd } from './plan-walk.mjs';
import { benchmarkRealisticBuild } from './realistic-project.mjs';
import { benchmarkSearch } from './search.mjs';
import {
  benchmarkBuild,
  benchmarkExplain,
  benchmarkPerCall,
  benchmarkProfileSizes,
  benchmarkRepairs,
  benchmarkSize,
  benchmarkStatelessList,
} from './sections.mjs';
import { benchmarkStartup, startupChart } from './startup.mjs';
import { benchmarkTasks } from './tasks.mjs';
import { benchmarkWorkerd } from './workerd.mjs';

const quick = process.argv.includes('--quick');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt === -1 ? undefined : process.argv[onlyAt + 1];
const want = (name) => only === undefined || only === name;
const script = (file, ...args) =>
  execFileSync(process.execPath, [path.join(REPO, 'bench', file), ...args], { encoding: 'utf8' }).trim();
const versions = (names) =>
  names
    .map(
      (name) =>
        `${name} ${JSON.parse(execFileSync('npm', ['pkg', 'get', 'version'], { cwd: path.join(REPO, 'node_modules', name), encoding: 'utf8' }))}`,
    )
    .join(', ');

const sections = [];
const log = (text) => process.stderr.write(`${text}\n`);
if (want('startup')) {
  log('startup…');
  const { table, table2026, series } = await benchmarkStartup({
    counts: quick ? [20, 200] : [20, 200, 1000],
    repeats: quick ? 3 : 15,
  });
  if (!quick) writeFileSync(path.join(REPO, 'bench/startup.svg'), startupChart(series));
  sections.push(
    `## 1. Cold start to the first \`tools/list\` answer over stdio\n\nFrom process start, each server bundled with esbuild (packages external). \`sdk-import-only\` imports the SDK's \`McpServer\` and exits: the SDK's own share of start-up.\n\n${table}\n\n![Start-up time against tool count](startup.svg)\n\n### MCP 2026-07-28: a first \`tools/list\` with no \`initialize\`\n\nIn the same rounds as the table above: the same toolprep server (\`serveStdio\`) sent one \`tools/list\` whose \`_meta\` names \`io.modelcontextprotocol/protocolVersion: 2026-07-28\` (and empty client capabilities), against a raw floor that writes the same result bytes (toolprep's own 2026 list, captured from it beforehand). Every answer is checked, after the clock, to be that list (at 1,000 tools its first page of 200 with a cursor: toolprep pages at 200 tools in both eras; the 2025 floor above writes all 1,000). "Per round" is the median of each round's own ratio, the two measured one after the other.\n\n${table2026}`,
  );
}
if (want('workerd')) {
  log('workerd cold start…');
  const { table, table2026 } = await benchmarkWorkerd({ counts: [20, 200], repeats: quick ? 3 : 15 });
  sections.push(
    `## 1b. Cold start of a Worker to the first \`tools/list\` answer, in workerd\n\nThrough Miniflare, from a new workerd to the answer: \`initialize\`, then \`tools/list\`. \`answers-at-once\` answers without any code of its own: workerd's own start, which the last ratio takes out. The last column is the CPU time workerd had used by the answer (every thread's, from Linux's /proc): on a shared machine it varies far less than the clock; its ratio is in the ratio rows.\n\n${table}\n\n### MCP 2026-07-28: one \`tools/list\`, no \`initialize\`\n\nIn the same rounds as the table above, from a new workerd to the answer of one 2026-07-28 \`tools/list\` (\`_meta\` with the protocol version and empty client capabilities; \`MCP-Protocol-Version\` and \`Mcp-Method\` headers): the same toolprep worker (\`createMcpFetchHandler\` from \`toolprep/mcp/web\`), and \`toolprep-fetch\`, the same worker on \`toolprep/mcp/fetch\`, whose bundle holds no MCP SDK (decision 0064), against the SDK v2's stateless worker, \`createMcpHandler(factory).fetch\` from @modelcontextprotocol/server, whose factory makes an \`McpServer\` and registers every tool with its description and its Zod object as \`inputSchema\`; \`answers-at-once-2026\` is workerd's own start for one request. Every answer is checked, after the clock, to list every tool. "Per round" is the median of each round's own ratio, the two measured one after the other.\n\n${table2026}`,
  );
}
if (want('stateless')) {
  log('stateless tools/list…');
  sections.push(
    `## 2. \`tools/list\` per request, stateless (a fresh server per request)\n\nIn process, over the SDK's in-memory transport: create a server, connect, answer one \`tools/list\`, close.\n\n${await benchmarkStatelessList({ counts: [53, 200], quick })}`,
  );
}
if (want('mcp-2026')) {
  log('MCP 2026-07-28 per request over HTTP…');
  sections.push(
    `## 2b. MCP 2026-07-28, stateless, per request\n\n\`tools/list\` and a trivial \`tools/call\` as 2026-07-28 requests (\`_meta\` with the protocol version and client capabilities; \`Mcp-Method\`, \`Mcp-Name\`, \`MCP-Protocol-Version\` headers): toolprep's \`serveHttp\` against the SDK v2's documented stateless pattern, a \`createMcpHandler\` factory served with \`toNodeHandler\`.\n\n${await benchmarkMcp2026({ projects: MCP_2026_PROJECTS, quick })}`,
  );
}
if (want('auth')) {
  log('tools/list with an OAuth gate, per request over HTTP…');
  sections.push(
    `## 2c. \`tools/list\` per caller behind an OAuth gate (MCP 2026-07-28, per request)\n\nWho may call what (issue 35, decisions 0053 and 0054): toolprep's \`auth\` against no gate, and against the SDK v2's \`requireBearerAuth\` in front of \`createMcpHandler\`, with the same tools, scopes and tokens.\n\n${await benchmarkAuth({ projects: quick ? AUTH_PROJECTS.slice(0, 1) : AUTH_PROJECTS, quick })}`,
  );
}
if (want('per-call')) {
  log('per call…');
  sections.push(
    `## 3. Per call\n\nAn 8-field input with a nested object, an array of objects, a discriminated union, a string-or-array field and a record, written in each schema library toolprep reads; "double-serialised" sends three of them as JSON text. "Its parse alone" is the library's own parser as the runtime runs it, once per call (through its run-time adapter); "plan ÷ parse" is what the plan adds to that. Per operation, median of batches.\n\n${await benchmarkPerCall({ quick })}`,
  );
}
if (want('size-scaling')) {
  log('per call, 1–10 MB…');
  sections.push(
    `## 3b. Per call as arguments grow to 10 MB\n\n${script('coercion-size.mjs', ...(quick ? ['--quick'] : []))}`,
  );
}
if (want('repairs')) {
  log('repairs…');
  sections.push(
    `## 3c. Repairs per call\n\nThe same input with every repair compiled into its plan (decision 0029): what the plan costs when there is nothing to repair, when each repair acts, and for a call through a profile, whose model sends \`null\` for every key it leaves out. Per operation, median of batches.\n\n${await benchmarkRepairs({ quick })}`,
  );
}
if (want('plan-workerd')) {
  log('plan walk in workerd…');
  sections.push(
    `## 3e. The plan walk in workerd, where code generation is refused\n\nThe input and cases of 3c in one Worker (Miniflare, the real workerd; esbuild bundles it as a Workers build would), timed inside it: the walk the build writes into the generated module (decision 0055), the closures that walked there before it (kept for plans made at run time), and Zod's own parse. Per operation, median of batches.\n\n${await benchmarkPlanInWorkerd({ quick })}`,
  );
}
if (want('tasks')) {
  log('MCP tasks…');
  sections.push(
    `## 3d. MCP tasks: a task's overhead over a plain call\n\nWhat a call made as a task (the \`io.modelcontextprotocol/tasks\` extension of 2026-07-28: the handle, then \`tasks/get\` until it is completed) costs over the same tool called plainly, with the memory store and with Redis, and how many polls one node answers per second; no peer serves tasks (the TypeScript SDK has none: typescript-sdk #2189), so the baseline is the same server's plain call.\n\n${await benchmarkTasks({ quick })}`,
  );
}

if (want('build')) {
  log('build…');
  sections.push(
    `## 4. Build\n\n\`toolprep generate\` as a process (cold: no cache; then with the cache), and a regeneration in a long-lived generator context after one file changes (what watch mode and the plugins do).\n\n${await benchmarkBuild({ counts: quick ? [50] : [50, 200, 1000], quick })}`,
  );
}
if (want('build-realistic')) {
  log('build, realistic projects…');
  sections.push(
    `## 4d. Build: realistic projects\n\n\`toolprep generate\` as a process, each run a new process as a user runs it: cold (no cache under node_modules/.cache), again with nothing changed (decision 0056: the last run's record holds, so neither ts-morph nor a contract is loaded), \`check\` with nothing changed (it ranks intents too), and \`generate\` after one contract file changed (that file is evaluated again, the others come from the cache). The generated project has long descriptions and 7–12 fields a tool (nested objects, enums, unions, discriminated unions, optional fields, defaults) and an output schema.\n\n${benchmarkRealisticBuild({ quick })}`,
  );
}
if (want('explain')) {
  log('check --explain…');
  sections.push(
    `## 4c. \`toolprep check --explain\`\n\n${await benchmarkExplain({ counts: [50, 200], quick })}`,
  );
}
if (want('loaders')) {
  log('loaders…');
  sections.push(
    `## 4b. Loading contract modules (esbuild, Vite's module runner, jiti)\n\n${script('loaders.mjs', ...(quick ? ['--quick'] : []))}`,
  );
}
if (want('size')) {
  log('size…');
  sections.push(
    `## 5. Size and load\n\n${await benchmarkSize()}\n\n### Tool definitions per profile\n\n${await benchmarkProfileSizes()}`,
  );
}

if (want('search')) {
  log('search and findability…');
  sections.push(`## 7. Search prepared at build, and findability\n\n${await benchmarkSearch({ quick })}`);
}

if (want('footprint')) {
  log('production install…');
  sections.push(`## 6. Production install\n\n${script('footprint.mjs')}`);
}

const header = `# Benchmark results

Regenerated by \`npm run bench\`${quick ? ' (this run: `--quick`)' : ''}; \`npm run bench -- --only <section>\` runs one. Figures are
milliseconds unless marked, medians after a warm-up with (min–max); each comparison is measured
side by side in the same run. Commentary on what misses its aim and why: [ANALYSIS.md](ANALYSIS.md).

Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}. Versions: ${versions(['zod', '@modelcontextprotocol/sdk', 'esbuild', 'vite'])}.
`;
const text = `${header}\n${sections.join('\n\n')}\n`;
// Only a full run of every section replaces the recorded results; --quick and --only just print.
if (only === undefined && !quick) writeFileSync(path.join(REPO, 'bench/RESULTS.md'), text);
process.stdout.write(text);
