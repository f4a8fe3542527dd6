// Cold start of a Worker to its first `tools/list` answer, in the real workerd (through Miniflare):
// toolprep's web-standard handler beside an SDK `McpServer` worker with the same tools
// (registerTool with each contract's Zod shape, the SDK's web-standard transport, stateless), and
// a worker that answers at once, whose time is workerd's own start; and, for MCP 2026-07-28 (one
// tools/list, no initialize), the same toolprep worker beside the SDK v2's stateless worker
// (`createMcpHandler(factory).fetch`). Each worker is one bundle, built by esbuild as a Workers
// build would.
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  formatStats,
  generatedContractProject,
  MODERN_META,
  messageOf,
  REPO,
  roundRobin,
  stats,
} from './contracts.mjs';

const WORKERS = {
  toolprep: `import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { createToolRuntime } from 'toolprep/runtime';
import { tools } from './src/toolprep.gen.js';
const handlers = Object.fromEntries(tools.prepared.map((tool) => [tool.name, () => 'ok']));
export default { fetch: createMcpFetchHandler(createToolRuntime(tools, { handlers }), { name: 'bench', version: '1.0.0' }) };`,
  // The same with toolprep/mcp/fetch, whose import graph holds no MCP SDK (decision 0064).
  'toolprep-fetch': `import { createMcpFetchHandler } from 'toolprep/mcp/fetch';
import { createToolRuntime } from 'toolprep/runtime';
import { tools } from './src/toolprep.gen.js';
const handlers = Object.fromEntries(tools.prepared.map((tool) => [tool.name, () => 'ok']));
export default { fetch: createMcpFetchHandler(createToolRuntime(tools, { handlers }), { name: 'bench', version: '1.0.0' }) };`,
  'sdk-mcp-server': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import * as contracts from './src/tools/index.js';
export default {
  async fetch(request) {
    const server = new McpServer({ name: 'bench', version: '1.0.0' });
    for (const [name, contract] of Object.entries(contracts))
      server.registerTool(name, { description: contract.description, inputSchema: contract.input.shape }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    return transport.handleRequest(request);
  },
};`,
  // The SDK v2's documented stateless Worker: createMcpHandler with a factory, called per request,
  // that makes an McpServer and registers every tool with its Zod object; its web-standard fetch.
  'sdk-v2': `import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as contracts from './src/tools/index.js';
const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  for (const [name, contract] of Object.entries(contracts))
    server.registerTool(name, { description: contract.description, inputSchema: contract.input }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
  return server;
});
export default { fetch: handler.fetch };`,
  'answers-at-once': `export default { fetch: () => new Response('{"result":{"tools":[]},"jsonrpc":"2.0","id":2}', { headers: { 'content-type': 'application/json' } }) };`,
};

const post = (body, headers = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  body: JSON.stringify(body),
});
const INITIALIZE = post({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
});
const LIST = post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
// MCP 2026-07-28: no initialize, one request, its _meta and headers naming the version.
const LIST_2026 = post(
  {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/list',
    params: {
      _meta: MODERN_META,
    },
  },
  { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
);

// What is measured: a worker bundle and the requests it is sent, from a new workerd; all in one
// round robin, so that the machine's load weighs on every row alike. `era` 2026 rows are checked.
const MEASURED = {
  toolprep: { worker: 'toolprep', requests: [INITIALIZE, LIST] },
  'sdk-mcp-server': { worker: 'sdk-mcp-server', requests: [INITIALIZE, LIST] },
  'answers-at-once': { worker: 'answers-at-once', requests: [INITIALIZE, LIST] },
  'toolprep-2026': { worker: 'toolprep', requests: [LIST_2026], era: 2026 },
  'toolprep-fetch-2026': { worker: 'toolprep-fetch', requests: [LIST_2026], era: 2026 },
  'sdk-v2': { worker: 'sdk-v2', requests: [LIST_2026], era: 2026 },
  'answers-at-once-2026': { worker: 'answers-at-once', requests: [LIST_2026] },
};

const CHILDREN = `/proc/${process.pid}/task/${process.pid}/children`;

/**
 * The CPU time (ms) the workerd processes this process started have run so far, every thread's,
 * from Linux's /proc (undefined elsewhere): on a shared machine it varies far less than the clock.
 */
function workerdCpuMs() {
  if (!existsSync(CHILDREN)) return undefined;
  let nanoseconds = 0;
  for (const pid of readFileSync(CHILDREN, 'utf8').trim().split(/\s+/).filter(Boolean)) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('workerd')) continue;
      for (const thread of readdirSync(`/proc/${pid}/task`))
        nanoseconds += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The process, or a thread, ended between the listing and the read.
    }
  }
  return nanoseconds / 1e6;
}

/**
 * From a new workerd to the worker's answer to the last of `requests` (a tools/list), in
 * milliseconds, that answer, and the CPU time workerd spent by then.
 */
async function coldStart(Miniflare, script, requests) {
  const started = performance.now();
  // The module given whole, as wrangler deploys it: with \`script\`, Miniflare would first parse
  // the bundle itself to find its imports, which is not part of a Worker's start.
  const worker = new Miniflare({
    modules: [{ type: 'ESModule', path: 'worker.js', contents: script }],
    compatibilityDate: '2026-07-01',
  });
  try {
    let answer;
    for (const request of requests) {
      const response = await worker.dispatchFetch('http://localhost/mcp', request);
      answer = {
        status: response.status,
        type: response.headers.get('content-type') ?? '',
        text: await response.text(),
      };
    }
    const ms = performance.now() - started;
    const cpuMs = workerdCpuMs();
    if (!answer.text.includes('"id":2'))
      throw new Error(`no tools/list answer: ${answer.text.slice(0, 200)}`);
    return { ms, cpuMs, answer };
  } finally {
    await worker.dispose();
  }
}

export async function benchmarkWorkerd({ counts, repeats }) {
  const { build } = await import('esbuild');
  const { Miniflare } = await import('miniflare');
  const rows = [];
  const rows2026 = [];
  for (const count of counts) {
    const dir = generatedContractProject(count);
    try {
      symlinkSync(
        path.join(REPO, 'node_modules/@modelcontextprotocol/server'),
        path.join(dir, 'node_modules/@modelcontextprotocol/server'),
      );
      const bundles = {};
      for (const [name, source] of Object.entries(WORKERS)) {
        writeFileSync(path.join(dir, `${name}.ts`), source);
        const built = await build({
          absWorkingDir: dir,
          entryPoints: [path.join(dir, `${name}.ts`)],
          bundle: true,
          format: 'esm',
          platform: 'browser',
          conditions: ['workerd', 'worker', 'browser'],
          write: false,
          logLevel: 'error',
        });
        bundles[name] = built.outputFiles[0].text;
      }
      const cpu = Object.fromEntries(Object.keys(MEASURED).map((name) => [name, []]));
      const runs = await roundRobin(Object.keys(MEASURED), repeats, async (name) => {
        const { worker, requests, era } = MEASURED[name];
        const { ms, cpuMs, answer } = await coldStart(Miniflare, bundles[worker], requests);
        if (cpuMs !== undefined) cpu[name].push(cpuMs);
        // Checked after the clock has stopped: a 2026 answer is the whole list, complete.
        if (era === 2026) {
          const result = answer.status === 200 ? messageOf(answer).result : undefined;
          if (result?.resultType !== 'complete' || result.tools?.length !== count)
            throw new Error(
              `${name} did not list ${count} tools: ${answer.status} ${answer.text.slice(0, 200)}`,
            );
        }
        return ms;
      });
      const median = {};
      const row = (name) => {
        const result = stats(runs[name]);
        median[name] = result.median;
        const kb = (bundles[MEASURED[name].worker].length / 1024).toFixed(0);
        const cpuMs = cpu[name].length > 0 ? stats(cpu[name]).median : undefined;
        return `| ${count} | ${name} | ${kb} | ${formatStats(result)} | ${cpuMs === undefined ? '–' : cpuMs.toFixed(0)} |`;
      };
      for (const name of ['toolprep', 'sdk-mcp-server', 'answers-at-once']) rows.push(row(name));
      const own = (name, start = 'answers-at-once') => median[name] - median[start];
      rows.push(
        `| ${count} | **ratio** | | SDK McpServer ÷ toolprep = **${(median['sdk-mcp-server'] / median.toolprep).toFixed(2)}×**; past workerd's own start: ${own('sdk-mcp-server').toFixed(0)} ms ÷ ${own('toolprep').toFixed(0)} ms = **${(own('sdk-mcp-server') / own('toolprep')).toFixed(2)}×** | |`,
      );
      for (const name of ['toolprep-2026', 'toolprep-fetch-2026', 'sdk-v2', 'answers-at-once-2026'])
        rows2026.push(row(name));
      const own2026 = (name) => own(name, 'answers-at-once-2026');
      const cpuOf = (name) => (cpu[name].length > 0 ? stats(cpu[name]).median : Number.NaN);
      for (const [entry, name] of [
        ['toolprep/mcp/web', 'toolprep-2026'],
        ['toolprep/mcp/fetch', 'toolprep-fetch-2026'],
      ]) {
        // Each round measured the two one after the other: the median of those rounds' ratios.
        const paired = stats(runs['sdk-v2'].map((ms, round) => ms / runs[name][round])).median;
        rows2026.push(
          `| ${count} | **ratio** | | SDK v2 ÷ ${entry} = **${(median['sdk-v2'] / median[name]).toFixed(2)}×** (per round ${paired.toFixed(2)}×); past workerd's own start: ${own2026('sdk-v2').toFixed(0)} ms ÷ ${own2026(name).toFixed(0)} ms = **${(own2026('sdk-v2') / own2026(name)).toFixed(2)}×** | ${(cpuOf('sdk-v2') / cpuOf(name)).toFixed(2)}× |`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const header = [
    '| tools | worker | bundle (KiB) | ms from a new workerd to the first tools/list answer, median (min–max) | workerd CPU ms, median |',
    '| --- | --- | --- | --- | --- |',
  ];
  return { table: [...header, ...rows].join('\n'), table2026: [...header, ...rows2026].join('\n') };
}
