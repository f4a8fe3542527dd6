// Cold start to the first tools/list answer over stdio, from process start, side by side.
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { bundleServers } from '../scripts/packages.mjs';
import { formatStats, generatedContractProject, MODERN_META, roundRobin, stats } from './contracts.mjs';

/**
 * A raw JSON-RPC server with no imports but node:fs, as fast as a server can answer: each method's
 * answer is a JavaScript expression of `message` (the request) and `readFileSync`.
 */
function rawServer(answers) {
  const branches = Object.entries(answers)
    .map(
      ([method, answer]) =>
        `if (message.method === ${JSON.stringify(method)}) process.stdout.write(${answer} + '\\n');`,
    )
    .join('\n    else ');
  return `import { readFileSync } from 'node:fs';
let unread = '';
process.stdin.on('data', (chunk) => {
  unread += chunk;
  for (let end = unread.indexOf('\\n'); end !== -1; end = unread.indexOf('\\n')) {
    const message = JSON.parse(unread.slice(0, end));
    unread = unread.slice(end + 1);
    ${branches}
  }
});`;
}

const SERVERS = {
  toolprep: `import { serveStdio } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import { tools } from './src/toolprep.gen.js';
const handlers = Object.fromEntries(tools.prepared.map((tool) => [tool.name, () => 'ok']));
await serveStdio(createToolRuntime(tools, { handlers }), { name: 'bench', version: '1.0.0' });`,
  'sdk-register-tool': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as contracts from './src/tools/index.js';
const server = new McpServer({ name: 'bench', version: '1.0.0' });
for (const [name, contract] of Object.entries(contracts)) {
  server.registerTool(name, { description: contract.description, inputSchema: contract.input.shape }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
}
await server.connect(new StdioServerTransport());`,
  'prepare-at-startup': `import { prepareToolSet } from '@toolprep/build';
import { serveStdio } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import * as contracts from './src/tools/index.js';
const tools = prepareToolSet(contracts, { warn: () => {} });
const handlers = Object.fromEntries(tools.prepared.map((tool) => [tool.name, () => 'ok']));
await serveStdio(createToolRuntime(tools, { handlers }), { name: 'bench', version: '1.0.0' });`,
  'sdk-low-level-precomputed': `import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const manifest = JSON.parse(readFileSync('toolprep.manifest.json', 'utf8'));
const tools = manifest.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema.mcp }));
const server = new Server({ name: 'bench', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
await server.connect(new StdioServerTransport());`,
  // A raw JSON-RPC server with no imports but node:fs: answers initialize with fixed text and
  // tools/list with a page written beforehand, as fast as a server can answer them.
  floor: rawServer({
    initialize: `'{"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"bench","version":"1.0.0"}},"jsonrpc":"2.0","id":' + message.id + '}'`,
    'tools/list': `'{"result":' + readFileSync('tools-list.json', 'utf8') + ',"jsonrpc":"2.0","id":' + message.id + '}'`,
  }),
  'sdk-import-only': `await import('@modelcontextprotocol/sdk/server/mcp.js');
process.stdout.write('{"id":2}\\n');`,
  // The floor of a 2026-07-28 tools/list (no initialize): the same raw server, answering with
  // toolprep's own 2026 list result, captured from toolprep beforehand, byte for byte.
  'floor-2026': rawServer({
    'tools/list': `'{"jsonrpc":"2.0","id":' + message.id + ',"result":' + readFileSync('tools-list-2026.json', 'utf8') + '}'`,
  }),
};

export const STARTUP_APPROACHES = [
  'toolprep',
  'sdk-register-tool',
  'prepare-at-startup',
  'sdk-low-level-precomputed',
  'floor',
];

const REQUESTS = `${[
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
]
  .map((message) => JSON.stringify(message))
  .join('\n')}\n`;

// MCP 2026-07-28: no initialize; the first message is the tools/list, its _meta naming the version.
const REQUESTS_2026 = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/list',
  params: {
    _meta: MODERN_META,
  },
})}\n`;

// What is measured: a server script and the messages it is sent. The 2026 rows are in the same
// round robin as the 2025 ones, so that the machine's load weighs on every row alike.
const MEASURED = {
  ...Object.fromEntries(
    Object.keys(SERVERS)
      .filter((name) => name !== 'floor-2026')
      .map((name) => [name, { script: name, requests: REQUESTS }]),
  ),
  'toolprep-2026': { script: 'toolprep', requests: REQUESTS_2026, check: true },
  // With `before`: the same server script on another checkout's build and its own generated module, in the same rounds.
  'toolprep-2026-before': { script: 'toolprep', requests: REQUESTS_2026, check: true, before: true },
  'floor-2026': { script: 'floor-2026', requests: REQUESTS_2026, check: true },
};

/** The tools/list result the floor answers with: the manifest's MCP entries, as one page. */
function toolsListPage(dir) {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'toolprep.manifest.json'), 'utf8'));
  const tools = manifest.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema.mcp,
  }));
  return JSON.stringify({ tools });
}

// Loaded before each server: on its tools/list answer, it reports the CPU the process has used
// so far, which the machine's changing speed (a shared VM) moves far less than the wall clock.
const CPU_AT_ANSWER = `const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (/"id":2[,}]/.test(String(chunk))) {
    const { user, system } = process.cpuUsage();
    process.stderr.write('cpu-at-answer ' + (user + system) / 1000 + '\\n');
  }
  return write(chunk, ...rest);
};`;

/**
 * Spawns the server and resolves with the milliseconds until its tools/list answer (or the
 * floor's output) is complete, and the CPU milliseconds it used until then.
 */
function timeToFirstList(dir, script, requests = REQUESTS) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', path.join(dir, 'cpu-at-answer.mjs'), script], {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    let wall;
    const settle = () => {
      const cpu = /cpu-at-answer ([\d.]+)/.exec(errors)?.[1];
      if (wall === undefined || cpu === undefined) return;
      resolve({ wall, cpu: Number(cpu), output });
      child.kill();
    };
    child.stdout.on('data', (chunk) => {
      output += chunk;
      // A tools/list answer is one line; the floor and the import-only script write and exit.
      if (wall === undefined && /"id":2[,}]/.test(output) && output.endsWith('\n')) {
        wall = performance.now() - started;
        settle();
      }
    });
    child.stderr.on('data', (chunk) => {
      errors += chunk;
      settle();
    });
    child.on('exit', () => {
      if (wall === undefined) reject(new Error(`${script} exited without answering: ${errors}`));
    });
    child.stdin.on('error', () => {});
    child.stdin.write(requests);
  });
}

/**
 * The same tools generated by another checkout (its module's format may differ) and its server
 * bundled, in `dir`/before: the bundle imports toolprep by name, from that checkout.
 */
async function generateBeside(dir, checkout) {
  const other = path.join(dir, 'before');
  mkdirSync(path.join(other, 'node_modules/@toolprep'), { recursive: true });
  mkdirSync(path.join(other, 'node_modules/@modelcontextprotocol'), { recursive: true });
  symlinkSync(checkout, path.join(other, 'node_modules/toolprep'), 'dir');
  symlinkSync(path.join(checkout, 'packages/build'), path.join(other, 'node_modules/@toolprep/build'), 'dir');
  for (const name of ['zod', '@modelcontextprotocol/sdk'])
    symlinkSync(
      realpathSync(path.join(dir, 'node_modules', name)),
      path.join(other, 'node_modules', name),
      'dir',
    );
  cpSync(path.join(dir, 'src/tools'), path.join(other, 'src/tools'), { recursive: true });
  for (const file of ['package.json', 'toolprep.config.ts'])
    if (existsSync(path.join(dir, file))) cpSync(path.join(dir, file), path.join(other, file));
  execFileSync(
    process.execPath,
    [path.join(checkout, 'packages/build/dist/src/cli/main.js'), 'generate', '--quiet'],
    {
      cwd: other,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  writeFileSync(path.join(other, 'toolprep.ts'), SERVERS.toolprep);
  await bundleServers(other, [path.join(other, 'toolprep.ts')]);
}

/**
 * The answer a 2026 row got: a complete tools/list result of `count` tools, or its first page
 * (toolprep pages at 200 tools by default, in both eras) with a cursor; or it throws.
 */
function checked2026(name, output, count) {
  const message = JSON.parse(output.slice(0, output.indexOf('\n')));
  const { resultType, tools = [], nextCursor } = message.result ?? {};
  const whole =
    tools.length === count || (nextCursor !== undefined && tools.length > 0 && tools.length < count);
  if (resultType !== 'complete' || !whole)
    throw new Error(`${name} did not list ${count} tools: ${output.slice(0, 200)}`);
  return message.result;
}

/**
 * Each of `names` (every approach unless told) at each tool count, `repeats` rounds after a
 * warm-up round: the 2025 table, the 2026 table and the chart's series.
 */
export async function benchmarkStartup({
  counts,
  repeats,
  names = Object.keys(MEASURED).filter((name) => !MEASURED[name].before),
  before,
}) {
  const rows = [];
  const rows2026 = [];
  const series = {};
  const names2025 = names.filter((name) => !MEASURED[name].check);
  const all2025 = ['toolprep', 'floor', 'sdk-register-tool', 'sdk-import-only'].every((name) =>
    names.includes(name),
  );
  for (const count of counts) {
    const dir = generatedContractProject(count);
    try {
      for (const [name, source] of Object.entries(SERVERS))
        writeFileSync(path.join(dir, `${name}.ts`), source);
      writeFileSync(path.join(dir, 'tools-list.json'), toolsListPage(dir));
      writeFileSync(path.join(dir, 'cpu-at-answer.mjs'), CPU_AT_ANSWER);
      await bundleServers(
        dir,
        Object.keys(SERVERS).map((name) => path.join(dir, `${name}.ts`)),
      );
      const scriptOf = (name) => path.join(dir, 'out', `${name}.js`);
      if (before) await generateBeside(dir, path.resolve(before));
      // The 2026 floor writes the very result toolprep writes: taken from one run of it.
      const captured = await timeToFirstList(dir, scriptOf('toolprep'), REQUESTS_2026);
      const page = JSON.stringify(checked2026('toolprep-2026', captured.output, count));
      writeFileSync(path.join(dir, 'tools-list-2026.json'), page);
      const runs = await roundRobin(names, repeats, async (name) => {
        const { script, requests, check } = MEASURED[name];
        const file = MEASURED[name].before ? path.join(dir, 'before/out', `${script}.js`) : scriptOf(script);
        const run = await timeToFirstList(dir, file, requests);
        // Checked after the clock has stopped: every 2026 answer is the whole list.
        if (check && JSON.stringify(checked2026(name, run.output, count)) !== page)
          throw new Error(`${name} answered another list than toolprep's first`);
        return run;
      });
      const wall = {};
      const cpu = {};
      const measure = (name) => {
        const walls = stats(runs[name].map((run) => run.wall));
        const cpus = stats(runs[name].map((run) => run.cpu));
        wall[name] = walls.median;
        cpu[name] = cpus.median;
        return `| ${count} | ${name} | ${formatStats(walls)} | ${formatStats(cpus)} |`;
      };
      for (const name of names2025) {
        rows.push(measure(name));
        series[name] = [...(series[name] ?? []), [count, wall[name]]];
      }
      const ratio = (of, to) => (of / to).toFixed(2);
      if (all2025)
        rows.push(
          `| ${count} | **ratios** | toolprep ÷ floor = **${ratio(wall.toolprep, wall.floor)}×** (+${(wall.toolprep - wall.floor).toFixed(0)} ms); SDK registerTool ÷ toolprep = **${ratio(wall['sdk-register-tool'], wall.toolprep)}×**; SDK import alone = ${((wall['sdk-import-only'] / wall.toolprep) * 100).toFixed(0)}% of toolprep's start | toolprep ÷ floor = **${ratio(cpu.toolprep, cpu.floor)}×** (+${(cpu.toolprep - cpu.floor).toFixed(0)} ms); SDK registerTool ÷ toolprep = ${ratio(cpu['sdk-register-tool'], cpu.toolprep)}× |`,
        );
      const rows2026Of = names.filter((name) => name.startsWith('toolprep-2026'));
      for (const name of [...rows2026Of, 'floor-2026']) rows2026.push(measure(name));
      // Each round measured the two one after the other: the median of those rounds' ratios.
      const paired = (key, name = 'toolprep-2026') =>
        stats(runs[name].map((run, round) => run[key] / runs['floor-2026'][round][key])).median.toFixed(2);
      const same2025 =
        wall.toolprep === undefined
          ? ''
          : `; for 2025 in the same rounds (initialize, then tools/list) ${ratio(wall.toolprep, wall.floor)}×`;
      if (names.includes('toolprep-2026-before'))
        rows2026.push(
          `| ${count} | **ratio before** | per round ${paired('wall', 'toolprep-2026-before')}× | per round ${paired('cpu', 'toolprep-2026-before')}× |`,
        );
      rows2026.push(
        `| ${count} | **ratio** | toolprep ÷ floor = **${ratio(wall['toolprep-2026'], wall['floor-2026'])}×** (+${(wall['toolprep-2026'] - wall['floor-2026']).toFixed(0)} ms; per round ${paired('wall')}×)${same2025} | toolprep ÷ floor = **${ratio(cpu['toolprep-2026'], cpu['floor-2026'])}×** (+${(cpu['toolprep-2026'] - cpu['floor-2026']).toFixed(0)} ms; per round ${paired('cpu')}×) |`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const header = [
    '| tools | approach | ms to first tools/list, median (min–max) | CPU ms until then, median (min–max) |',
    '| --- | --- | --- | --- |',
  ];
  return {
    table: [...header, ...rows].join('\n'),
    table2026: [...header, ...rows2026].join('\n'),
    series,
  };
}

/** A line chart of start-up time against tool count, one line per approach. */
export function startupChart(series) {
  const width = 640;
  const height = 360;
  const margin = { left: 60, right: 190, top: 20, bottom: 40 };
  const counts = [...new Set(Object.values(series).flatMap((points) => points.map(([count]) => count)))].sort(
    (a, b) => a - b,
  );
  const maxY = Math.max(...Object.values(series).flatMap((points) => points.map(([, ms]) => ms))) * 1.1;
  const x = (count) =>
    margin.left +
    (counts.indexOf(count) / Math.max(1, counts.length - 1)) * (width - margin.left - margin.right);
  const y = (ms) => height - margin.bottom - (ms / maxY) * (height - margin.top - margin.bottom);
  const colours = ['#d62728', '#1f77b4', '#ff7f0e', '#2ca02c', '#7f7f7f', '#9467bd'];
  const lines = STARTUP_APPROACHES.filter((name) => series[name]).map((name, index) => {
    const points = series[name].map(([count, ms]) => `${x(count).toFixed(1)},${y(ms).toFixed(1)}`).join(' ');
    const [lastCount, lastMs] = series[name].at(-1);
    return `<polyline fill="none" stroke="${colours[index]}" stroke-width="2" points="${points}"/><text x="${x(lastCount) + 8}" y="${y(lastMs) + 4}" font-size="12" fill="${colours[index]}">${name}</text>`;
  });
  const ticks = counts.map(
    (count) =>
      `<text x="${x(count)}" y="${height - margin.bottom + 18}" font-size="12" text-anchor="middle">${count}</text>`,
  );
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((share) => {
    const ms = maxY * share;
    return `<text x="${margin.left - 8}" y="${y(ms) + 4}" font-size="12" text-anchor="end">${ms.toFixed(0)}</text><line x1="${margin.left}" x2="${width - margin.right}" y1="${y(ms)}" y2="${y(ms)}" stroke="#eee"/>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
<title>Start-up time to the first tools/list answer against tool count, per approach</title>
<rect width="100%" height="100%" fill="white"/>
${yTicks.join('\n')}
${ticks.join('\n')}
<text x="${(width - margin.right + margin.left) / 2}" y="${height - 6}" font-size="12" text-anchor="middle">tools</text>
<text x="14" y="${height / 2}" font-size="12" transform="rotate(-90 14 ${height / 2})" text-anchor="middle">ms to first tools/list (median)</text>
${lines.join('\n')}
</svg>
`;
}

// Alone, the 2026 rows with more rounds: `node bench/startup.mjs --mcp-2026 [--rounds 60]` (after
// `npm run build`): toolprep and the floor in both eras, round robin, at 20 and 200 tools (or
// `--counts 20,200,1000`). `--before <checkout>` adds the 2026 row of another built checkout of
// toolprep (say main's), which generates the same tools itself, to the same rounds.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const option = (name) => {
    const at = process.argv.indexOf(name);
    return at === -1 ? undefined : process.argv[at + 1];
  };
  const repeats = Number(option('--rounds') ?? 60);
  const counts = (option('--counts') ?? '20,200').split(',').map(Number);
  const before = option('--before');
  const names = [
    ...(process.argv.includes('--mcp-2026')
      ? ['toolprep', 'floor', 'toolprep-2026', 'floor-2026']
      : Object.keys(MEASURED).filter((name) => !MEASURED[name].before)),
    ...(before ? ['toolprep-2026-before'] : []),
  ];
  const { table, table2026 } = await benchmarkStartup({ counts, repeats, names, before });
  process.stdout.write(`${table}\n\n${table2026}\n`);
}
