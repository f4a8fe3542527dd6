// Cold start to the first tools/list answer over stdio, from process start, side by side.
import { execFileSync, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createContractProject, formatStats, REPO, stats } from './contracts.mjs';

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
  floor: `import { readFileSync } from 'node:fs';
process.stdout.write(readFileSync('toolprep.manifest.json'));`,
  'sdk-import-only': `await import('@modelcontextprotocol/sdk/server/mcp.js');
process.stdout.write('{"id":2}');`,
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

/** Spawns the server and resolves with the milliseconds until its tools/list answer (or the floor's output) is complete. */
function timeToFirstList(dir, script) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [script], { cwd: dir, stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve(performance.now() - started);
      child.kill();
    };
    child.stdout.on('data', (chunk) => {
      output += chunk;
      // A tools/list answer is one line; the floor and the import-only script write and exit.
      if (/"id":2[,}]/.test(output) && output.endsWith('\n')) finish();
    });
    child.on('exit', () =>
      done ? undefined : output ? finish() : reject(new Error(`${script} exited without answering`)),
    );
    child.stdin.on('error', () => {});
    child.stdin.write(REQUESTS);
  });
}

export async function benchmarkStartup({ counts, repeats }) {
  const { build } = await import('esbuild');
  const rows = [];
  const series = {};
  for (const count of counts) {
    const dir = createContractProject(count);
    try {
      execFileSync(
        process.execPath,
        [path.join(REPO, 'packages/build/dist/src/cli/main.js'), 'generate', '--quiet'],
        {
          cwd: dir,
          stdio: ['ignore', 'ignore', 'inherit'],
        },
      );
      for (const [name, source] of Object.entries(SERVERS))
        writeFileSync(path.join(dir, `${name}.ts`), source);
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
      const medians = {};
      for (const name of Object.keys(SERVERS)) {
        const script = path.join(dir, 'out', `${name}.js`);
        await timeToFirstList(dir, script);
        const times = [];
        for (let run = 0; run < repeats; run++) times.push(await timeToFirstList(dir, script));
        const result = stats(times);
        medians[name] = result.median;
        series[name] = [...(series[name] ?? []), [count, result.median]];
        rows.push(`| ${count} | ${name} | ${formatStats(result)} |`);
      }
      rows.push(
        `| ${count} | **ratios** | SDK registerTool ÷ toolprep = **${(medians['sdk-register-tool'] / medians.toolprep).toFixed(2)}×**; toolprep − SDK low-level precomputed = ${(medians.toolprep - medians['sdk-low-level-precomputed']).toFixed(0)} ms; SDK import alone = ${((medians['sdk-import-only'] / medians.toolprep) * 100).toFixed(0)}% of toolprep's start; toolprep − floor = ${(medians.toolprep - medians.floor).toFixed(0)} ms |`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const table = [
    '| tools | approach | ms to first tools/list, median (min–max) |',
    '| --- | --- | --- |',
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
