// Cold start of a Worker to its first `tools/list` answer, in the real workerd (through Miniflare):
// toolprep's web-standard handler beside an SDK `McpServer` worker with the same tools
// (registerTool with each contract's Zod shape, the SDK's web-standard transport, stateless), and
// a worker that answers at once, whose time is workerd's own start. Each worker is one bundle,
// built by esbuild as a Workers build would.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatStats, generatedContractProject, roundRobin, stats } from './contracts.mjs';

const WORKERS = {
  toolprep: `import { createMcpFetchHandler } from 'toolprep/mcp/web';
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
  'answers-at-once': `export default { fetch: () => new Response('{"result":{"tools":[]},"jsonrpc":"2.0","id":2}', { headers: { 'content-type': 'application/json' } }) };`,
};

const post = (body) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify(body),
});
const INITIALIZE = post({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
});
const LIST = post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });

/** From a new workerd to the worker's tools/list answer, in milliseconds. */
async function coldStart(Miniflare, script) {
  const started = performance.now();
  // The module given whole, as wrangler deploys it: with \`script\`, Miniflare would first parse
  // the bundle itself to find its imports, which is not part of a Worker's start.
  const worker = new Miniflare({
    modules: [{ type: 'ESModule', path: 'worker.js', contents: script }],
    compatibilityDate: '2026-07-01',
  });
  try {
    await (await worker.dispatchFetch('http://localhost/mcp', INITIALIZE)).text();
    const listed = await (await worker.dispatchFetch('http://localhost/mcp', LIST)).text();
    if (!listed.includes('"id":2')) throw new Error(`no tools/list answer: ${listed.slice(0, 200)}`);
    return performance.now() - started;
  } finally {
    await worker.dispose();
  }
}

export async function benchmarkWorkerd({ counts, repeats }) {
  const { build } = await import('esbuild');
  const { Miniflare } = await import('miniflare');
  const rows = [];
  for (const count of counts) {
    const dir = generatedContractProject(count);
    try {
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
      const runs = await roundRobin(Object.keys(WORKERS), repeats, (name) =>
        coldStart(Miniflare, bundles[name]),
      );
      const median = {};
      for (const name of Object.keys(WORKERS)) {
        const result = stats(runs[name]);
        median[name] = result.median;
        const kb = (bundles[name].length / 1024).toFixed(0);
        rows.push(`| ${count} | ${name} | ${kb} | ${formatStats(result)} |`);
      }
      const own = (name) => median[name] - median['answers-at-once'];
      rows.push(
        `| ${count} | **ratio** | | SDK McpServer ÷ toolprep = **${(median['sdk-mcp-server'] / median.toolprep).toFixed(2)}×**; past workerd's own start: ${own('sdk-mcp-server').toFixed(0)} ms ÷ ${own('toolprep').toFixed(0)} ms = **${(own('sdk-mcp-server') / own('toolprep')).toFixed(2)}×** |`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return [
    '| tools | worker | bundle (KiB) | ms from a new workerd to the first tools/list answer, median (min–max) |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
