// MCP 2026-07-28, stateless, per request over loopback HTTP: toolprep's `serveHttp` against the
// SDK v2's documented pattern (`createMcpHandler` with a factory that makes an `McpServer` and
// registers every tool, served with `toNodeHandler`), each server in a child process of its own,
// requests alternated between them. Section 2b of `npm run bench`; alone:
// `node bench/run.mjs --only mcp-2026` or `node bench/mcp-2026.mjs [--quick]` (after `npm run build`).
import { fork } from 'node:child_process';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { bundleServers } from '../scripts/packages.mjs';
import { generatedContractProject, messageOf, REPO } from './contracts.mjs';

const VERSION = '2026-07-28';
const INFO = "{ name: 'bench', version: '1.0.0' }";

// Each server tells its parent its port, and answers 'cpu' with the CPU it has used so far.
export const HARNESS = `
function ready(port) {
  process.send({ port });
  process.on('message', (message) => {
    if (message === 'cpu') process.send({ cpu: process.cpuUsage() });
  });
  process.on('disconnect', () => process.exit(0));
}`;

const SERVERS = {
  toolprep: `import { serveHttp } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import { tools } from './src/toolprep.gen.js';
${HARNESS}
const handlers = Object.fromEntries(tools.prepared.map((tool) => [tool.name, () => 'ok']));
const server = await serveHttp(createToolRuntime(tools, { handlers }), ${INFO}, 0);
ready(server.address().port);`,
  // The SDK v2's documented stateless pattern: one factory, called for every request.
  'sdk-v2': `import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as contracts from './src/tools/index.js';
${HARNESS}
const handler = createMcpHandler(() => {
  const server = new McpServer(${INFO});
  for (const [name, contract] of Object.entries(contracts))
    server.registerTool(
      name,
      {
        description: contract.description,
        inputSchema: contract.input,
        ...(contract.output ? { outputSchema: contract.output } : {}),
        ...(contract.annotations ? { annotations: contract.annotations } : {}),
      },
      async () => ({ content: [{ type: 'text', text: 'ok' }] }),
    );
  return server;
});
const handle = toNodeHandler(handler);
const server = createServer((request, response) => void handle(request, response));
server.listen(0, '127.0.0.1', () => ready(server.address().port));`,
  // What node:http costs with no MCP at all: reads and parses the body, then writes toolprep's
  // own tools/list result (captured beforehand) or a fixed call result, unchecked.
  floor: `import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
${HARNESS}
const list = readFileSync('floor-list.json', 'utf8');
const call = '{"content":[{"type":"text","text":"ok"}],"resultType":"complete"}';
const server = createServer(async (request, response) => {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const result = message.method === 'tools/list' ? list : call;
  response.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":' + JSON.stringify(message.id) + ',"result":' + result + '}');
});
server.listen(0, '127.0.0.1', () => ready(server.address().port));`,
};
const NAMES = Object.keys(SERVERS);
const LABELS = {
  toolprep: 'toolprep `serveHttp`',
  'sdk-v2': 'SDK v2 `createMcpHandler`',
  floor: 'node:http floor',
};

/** The smallest arguments a JSON Schema document accepts: its required keys, first branches. */
function sampleOf(schema) {
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return sampleOf(branches[0]);
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'string':
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return schema.prefixItems
        ? schema.prefixItems.map(sampleOf)
        : Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items ?? {}));
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((key) => [key, sampleOf(schema.properties[key])]),
      );
    default:
      return 'x';
  }
}

function bodyOf(method, params, id) {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': VERSION,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
}

/**
 * The two requests measured; the call is `tool0` with the smallest arguments its Zod input accepts
 * (sampled from Zod's own JSON Schema: the prepared document shows a discriminated union flattened).
 */
async function requestsOf(dir) {
  const { z } = await import('zod');
  const { tool0 } = await import(pathToFileURL(path.join(dir, 'out/contracts.js')).href);
  const call = { name: 'tool0', arguments: sampleOf(z.toJSONSchema(tool0.input)) };
  const parsed = tool0.input.safeParse(call.arguments);
  if (!parsed.success) throw new Error(`the sampled arguments of tool0 are refused: ${parsed.error.message}`);
  return {
    'tools/list': { headers: { 'mcp-method': 'tools/list' }, body: (id) => bodyOf('tools/list', {}, id) },
    'tools/call': {
      headers: { 'mcp-method': 'tools/call', 'mcp-name': call.name },
      body: (id) => bodyOf('tools/call', call, id),
      sent: Object.keys(call.arguments).length,
    },
  };
}

/** One POST over a kept-alive connection: its status, content type and body text. */
function post(server, { headers, body }, id) {
  return postText(server.port, server.agent, { 'mcp-protocol-version': VERSION, ...headers }, body(id));
}

/**
 * One POST of `text` to `/mcp` on a loopback port, over `agent`'s kept-alive connection (JSON,
 * either answer form accepted; `headers` added): its status, content type and body text.
 */
export function postText(port, agent, headers, text) {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        agent,
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          ...headers,
        },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode,
            type: response.headers['content-type'] ?? '',
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(text);
  });
}

/** Forks the bundled server `out/<name>.js` of `dir`; resolves once it listens, with a kept-alive agent. */
export function startServer(dir, name) {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(dir, 'out', `${name}.js`), [], {
      execArgv: [],
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.once('message', ({ port }) =>
      resolve({ name, child, port, agent: new Agent({ keepAlive: true, maxSockets: 1 }) }),
    );
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before listening`)));
  });
}

/** The CPU milliseconds the server's process has used so far. */
export function cpuOf(server) {
  return new Promise((resolve) => {
    server.child.once('message', ({ cpu }) => resolve((cpu.user + cpu.system) / 1000));
    server.child.send('cpu');
  });
}

export function stopServer(server) {
  server.agent.destroy();
  server.child.disconnect();
}

/** Median and 90th percentile of a list of milliseconds. */
export function quantiles(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)],
    p90: sorted[Math.ceil(sorted.length * 0.9) - 1],
  };
}

/**
 * Alternates the servers request by request (the order swapped every round, so that neither
 * always follows the other): `warmup` rounds unmeasured, then up to `runs` rounds, or fewer when
 * `budgetMs` is spent. Per server: the milliseconds of each request, and its CPU per request.
 */
async function alternate(servers, kind, requests, { warmup, runs, budgetMs }) {
  const times = Object.fromEntries(servers.map((server) => [server.name, []]));
  let id = 0;
  const once = async (server) => {
    const started = performance.now();
    const answer = await post(server, requests[kind], ++id);
    const elapsed = performance.now() - started;
    if (answer.status !== 200)
      throw new Error(`${server.name} ${kind}: HTTP ${answer.status} ${answer.text}`);
    return elapsed;
  };
  for (let round = 0; round < warmup; round++) for (const server of servers) await once(server);
  const cpuBefore = await Promise.all(servers.map(cpuOf));
  const deadline = performance.now() + budgetMs;
  for (let round = 0; round < runs && performance.now() < deadline; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) times[server.name].push(await once(server));
  }
  const cpuAfter = await Promise.all(servers.map(cpuOf));
  return Object.fromEntries(
    servers.map((server, index) => [
      server.name,
      {
        ...quantiles(times[server.name]),
        n: times[server.name].length,
        cpu: (cpuAfter[index] - cpuBefore[index]) / times[server.name].length,
      },
    ]),
  );
}

/** Each server answers 200, lists the same tools (all of them) and answers the call with 'ok'. */
async function check(servers, count, requests) {
  const listed = {};
  for (const server of servers) {
    const list = await post(server, requests['tools/list'], 1);
    if (list.status !== 200) throw new Error(`${server.name} tools/list: HTTP ${list.status} ${list.text}`);
    const message = messageOf(list);
    if (message.result?.nextCursor !== undefined) throw new Error(`${server.name} paged its list`);
    listed[server.name] = {
      names: (message.result?.tools ?? []).map((tool) => tool.name).sort(),
      bytes: Buffer.byteLength(list.text),
      result: message.result,
    };
    const call = await post(server, requests['tools/call'], 2);
    const result = call.status === 200 ? messageOf(call).result : undefined;
    if (result?.isError || result?.content?.[0]?.text !== 'ok')
      throw new Error(`${server.name} tools/call: HTTP ${call.status} ${call.text}`);
  }
  const [first, ...others] = servers.map((server) => listed[server.name].names.join(','));
  for (const other of others)
    if (other !== first)
      throw new Error(`the servers list different tools: ${first.slice(0, 200)} / ${other.slice(0, 200)}`);
  if (listed[servers[0].name].names.length !== count)
    throw new Error(`${servers[0].name} did not list ${count} tools`);
  return listed;
}

export async function benchmarkMcp2026({ projects, quick }) {
  const options = quick
    ? { warmup: 10, runs: 40, budgetMs: 30_000 }
    : { warmup: 30, runs: 200, budgetMs: 120_000 };
  const rows = [];
  const sizes = [];
  for (const { tools: count, fields } of projects) {
    const dir = generatedContractProject(count, { fields });
    const servers = [];
    try {
      for (const name of ['server', 'node'])
        symlinkSync(
          path.join(REPO, 'node_modules/@modelcontextprotocol', name),
          path.join(dir, 'node_modules/@modelcontextprotocol', name),
        );
      for (const [name, source] of Object.entries(SERVERS))
        writeFileSync(path.join(dir, `${name}.ts`), source);
      writeFileSync(path.join(dir, 'contracts.ts'), "export * from './src/tools/index.js';\n");
      await bundleServers(
        dir,
        [...NAMES, 'contracts'].map((name) => path.join(dir, `${name}.ts`)),
      );
      const manifest = JSON.parse(readFileSync(path.join(dir, 'toolprep.manifest.json'), 'utf8'));
      const requests = await requestsOf(dir);
      for (const name of ['toolprep', 'sdk-v2']) servers.push(await startServer(dir, name));
      const listed = await check(servers, count, requests);
      // The floor answers toolprep's own list, so that the bytes on the wire are the same.
      writeFileSync(path.join(dir, 'floor-list.json'), JSON.stringify(listed.toolprep.result));
      servers.push(await startServer(dir, 'floor'));
      await check(servers, count, requests);
      const widths = manifest.tools.map((tool) => Object.keys(tool.inputSchema.mcp.properties ?? {}).length);
      if (widths.some((width) => width !== fields)) throw new Error(`not every tool has ${fields} fields`);
      const kib = (name) => (listed[name].bytes / 1024).toFixed(0);
      sizes.push(
        `${count} × ${fields} fields: the \`tools/list\` answer is ${kib('toolprep')} KiB from toolprep, ${kib('sdk-v2')} KiB from SDK v2 (${(listed.toolprep.bytes / count / fields).toFixed(0)} bytes per field); the call sends ${requests['tools/call'].sent} of tool0's fields`,
      );
      for (const kind of Object.keys(requests)) {
        const measured = await alternate(servers, kind, requests, options);
        const { toolprep: a, 'sdk-v2': b, floor } = measured;
        const ms = ({ median, p90 }) =>
          `${median.toFixed(median < 10 ? 2 : 1)} (${p90.toFixed(p90 < 10 ? 2 : 1)})`;
        const times = (x) => `${x.toFixed(x < 10 ? 2 : 0)}×`;
        rows.push(
          `| ${count} | ${fields} | \`${kind}\` | ${ms(a)} | ${ms(b)} | **${times(b.median / a.median)}** (p90 ${times(b.p90 / a.p90)}) | ${ms(floor)} | ${a.cpu.toFixed(2)} / ${b.cpu.toFixed(2)} / ${floor.cpu.toFixed(2)} (SDK v2 ÷ toolprep ${times(b.cpu / a.cpu)}) | ${Math.min(a.n, b.n, floor.n)} |`,
        );
      }
    } finally {
      for (const server of servers) stopServer(server);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const version = (name) =>
    JSON.parse(readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')).version;
  return [
    `Over loopback HTTP, each server in a child process of its own. The tools are the bench's generated contracts (seeded, one file each, fields of 11 kinds: strings with a description, bounded integers, booleans with a default, enums, string-or-list unions, nested objects, arrays of objects, records, tuples, discriminated unions, nullables), with 25 fields each (what SDK issue #2838 measured) and with the generator's own 5 (section 2's tools): ${sizes.join('; ')}. SDK: @modelcontextprotocol/server ${version('@modelcontextprotocol/server')} with @modelcontextprotocol/node ${version('@modelcontextprotocol/node')}; its factory, called for every request, makes an \`McpServer\` and registers each tool with its description, its Zod object as \`inputSchema\` and its annotations (the generated tools declare no output). The floor is node:http alone: it parses the body and writes toolprep's captured list, or a fixed call result. Every server answers 200 with the same tool names, and the call with \`ok\`, before anything is measured. Milliseconds per request as the client sees it, on a kept-alive connection per server, median (p90), the servers alternated request by request (the order reversed every round) after ${options.warmup} rounds of warm-up; server CPU is the mean per measured request in the server's own process, its GC included.`,
    '',
    `| tools | fields per tool | request | ${LABELS.toolprep} ms, median (p90) | ${LABELS['sdk-v2']} ms, median (p90) | SDK v2 ÷ toolprep | ${LABELS.floor} ms | server CPU ms per request, toolprep / SDK v2 / floor | requests per server |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

export const MCP_2026_PROJECTS = [
  { tools: 53, fields: 25 },
  { tools: 200, fields: 25 },
  { tools: 53, fields: 5 },
  { tools: 200, fields: 5 },
];

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(
    `${await benchmarkMcp2026({ projects: MCP_2026_PROJECTS, quick: process.argv.includes('--quick') })}\n`,
  );
}
