// Cold start to the first tools/list answer over stdio, from process start, side by side.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatStats, generatedContractProject, roundRobin, stats } from './contracts.mjs';

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
  floor: `import { readFileSync } from 'node:fs';
let unread = '';
process.stdin.on('data', (chunk) => {
  unread += chunk;
  for (let end = unread.indexOf('\\n'); end !== -1; end = unread.indexOf('\\n')) {
    const message = JSON.parse(unread.slice(0, end));
    unread = unread.slice(end + 1);
    if (message.method === 'initialize')
      process.stdout.write('{"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"bench","version":"1.0.0"}},"jsonrpc":"2.0","id":' + message.id + '}\\n');
    else if (message.method === 'tools/list')
      process.stdout.write('{"result":' + readFileSync('tools-list.json', 'utf8') + ',"jsonrpc":"2.0","id":' + message.id + '}\\n');
  }
});`,
  'sdk-import-only': `await import('@modelcontextprotocol/sdk/server/mcp.js');
process.stdout.write('{"id":2}\\n');`,
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
function timeToFirstList(dir, script) {
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
      resolve({ wall, cpu: Number(cpu) });
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
    child.stdin.write(REQUESTS);
  });
}

export async function benchmarkStartup({ counts, repeats }) {
  const { build } = await import('esbuild');
  const rows = [];
  const series = {};
  for (const count of counts) {
    const dir = generatedContractProject(count);
    try {
      for (const [name, source] of Object.entries(SERVERS))
        writeFileSync(path.join(dir, `${name}.ts`), source);
      writeFileSync(path.join(dir, 'tools-list.json'), toolsListPage(dir));
      writeFileSync(path.join(dir, 'cpu-at-answer.mjs'), CPU_AT_ANSWER);
      await build({
        absWorkingDir: dir,
        entryPoints: Object.keys(SERVERS).map((name) => path.join(dir, `${name}.ts`)),
        outdir: path.join(dir, 'out'),
        bundle: true,
        splitting: true,
        format: 'esm',
        platform: 'node',
        packages: 'external',
        logLevel: 'error',
      });
      const scriptOf = (name) => path.join(dir, 'out', `${name}.js`);
      const runs = await roundRobin(Object.keys(SERVERS), repeats, (name) =>
        timeToFirstList(dir, scriptOf(name)),
      );
      const wall = {};
      const cpu = {};
      for (const name of Object.keys(SERVERS)) {
        const walls = stats(runs[name].map((run) => run.wall));
        const cpus = stats(runs[name].map((run) => run.cpu));
        wall[name] = walls.median;
        cpu[name] = cpus.median;
        series[name] = [...(series[name] ?? []), [count, walls.median]];
        rows.push(`| ${count} | ${name} | ${formatStats(walls)} | ${formatStats(cpus)} |`);
      }
      const ratio = (of, to) => (of / to).toFixed(2);
      rows.push(
        `| ${count} | **ratios** | toolprep ÷ floor = **${ratio(wall.toolprep, wall.floor)}×** (+${(wall.toolprep - wall.floor).toFixed(0)} ms); SDK registerTool ÷ toolprep = **${ratio(wall['sdk-register-tool'], wall.toolprep)}×**; SDK import alone = ${((wall['sdk-import-only'] / wall.toolprep) * 100).toFixed(0)}% of toolprep's start | toolprep ÷ floor = **${ratio(cpu.toolprep, cpu.floor)}×** (+${(cpu.toolprep - cpu.floor).toFixed(0)} ms); SDK registerTool ÷ toolprep = ${ratio(cpu['sdk-register-tool'], cpu.toolprep)}× |`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const table = [
    '| tools | approach | ms to first tools/list, median (min–max) | CPU ms until then, median (min–max) |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
  return { table, series };
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
