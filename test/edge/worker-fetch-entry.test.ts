import { execFileSync } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { prepareToolSet } from '@toolprep/build';
import type { Metafile } from 'esbuild';
import { Miniflare } from 'miniflare';
import { defineTool } from 'toolprep';
import { createMcpFetchHandler, type McpFetchOptions } from 'toolprep/mcp/fetch';
import { createToolRuntime } from 'toolprep/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { CLI, copyFixture, type FixtureProject } from '../support/fixture-project.js';
import { bundleWorker } from '../support/worker-bundle.js';

/**
 * `toolprep/mcp/fetch` in the real workerd (decision 0064): a Worker bundled from it holds no MCP
 * SDK, answers the official SDK v2 client on 2026-07-28 (the tools listed, a repaired call, a
 * refused one), and refuses a 2025 client (the SDK v1's) with an answer that says why, the log
 * naming the handler that serves both eras.
 */
const WORKER = `
import { createMcpFetchHandler } from 'toolprep/mcp/fetch';
import { createToolRuntime } from 'toolprep/runtime';
import { tools } from './toolprep.gen.js';

const handlers = Object.fromEntries(tools.prepared.map((tool) => [tool.name, () => \`\${tool.name} done\`]));
handlers.read_files = ({ paths }) => ({ files: paths.map((path) => ({ path, text: 'text of ' + path })) });
const runtime = createToolRuntime(tools, { handlers });
const logged = [];
const handler = createMcpFetchHandler(runtime, { name: 'edge', version: '1.0.0' }, {
  onerror: (error) => logged.push(error.message),
});

export default {
  fetch: (request) =>
    new URL(request.url).pathname === '/logged' ? Response.json(logged) : handler(request),
};
`;

let project: FixtureProject;
let inputs: Metafile['inputs'];
let worker: Miniflare;
beforeAll(async () => {
  project = copyFixture('project');
  execFileSync(process.execPath, [CLI, 'generate', '--quiet'], { cwd: project.dir });
  project.write('src/worker.ts', WORKER);
  const bundle = await bundleWorker(project.dir, 'src/worker.ts');
  inputs = bundle.inputs;
  worker = new Miniflare({
    modules: true,
    script: bundle.text,
    compatibilityDate: '2026-07-01',
  });
}, 120_000);
afterAll(async () => {
  await worker?.dispose();
  project?.remove();
});

const fetchOfWorker = (url: string | URL, init?: RequestInit): Promise<Response> =>
  worker.dispatchFetch(String(url), init as never) as unknown as Promise<Response>;

test('the bundle holds no MCP SDK and no jose, and toolprep’s fetch handler and the contracts it calls', () => {
  const files = Object.keys(inputs);
  expect(files.filter((file) => file.includes('node_modules/@modelcontextprotocol/'))).toEqual([]);
  // Installed here, and left out: the Worker verifies no JWT (decision 0067).
  expect(files.filter((file) => file.includes('node_modules/jose/'))).toEqual([]);
  expect(files.some((file) => file.endsWith('src/surfaces/mcp/fetch.js'))).toBe(true);
  expect(files.some((file) => file.endsWith('src/tools/files.ts'))).toBe(true);
});

test('the SDK v2 client lists, calls, is repaired and refused on 2026-07-28', async () => {
  const client = new Client(
    { name: 'edge-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), { fetch: fetchOfWorker }),
  );
  try {
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect((await client.listTools()).tools).toHaveLength(8);
    expect(
      await client.callTool({ name: 'read_files', arguments: { paths: ['a.md'], encoding: 'utf8' } }),
    ).toMatchObject({ structuredContent: { files: [{ path: 'a.md', text: 'text of a.md' }] } });
    expect(
      await client.callTool({ name: 'tag_notes', arguments: { notes: '[{"title":"a","tags":["x"]}]' } }),
    ).toMatchObject({ content: [{ type: 'text', text: 'tag_notes done' }] });
    expect(
      await client.callTool({ name: 'read_files', arguments: { paths: '["a.md","b.md"]' } }),
    ).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'paths is a list written as text — pass the array itself, not JSON written as text',
        },
      ],
    });
  } finally {
    await client.close();
  }
});

test('a 2025 client is refused with -32022, and the log names the handler that serves it', async () => {
  const client = new ClientV1({ name: 'edge-test', version: '1.0.0' });
  await expect(
    client.connect(
      new StreamableHTTPClientTransportV1(new URL('http://localhost/mcp'), { fetch: fetchOfWorker }),
    ),
  ).rejects.toThrow(
    "Unsupported protocol version: this server serves MCP 2026-07-28 only; this server's handler leaves out 2025 sessions, which need @modelcontextprotocol/sdk",
  );
  const logged = (await (await fetchOfWorker('http://localhost/logged')).json()) as string[];
  expect(logged).toEqual([
    expect.stringContaining(
      'To serve both, make it with createMcpFetchHandler from toolprep/mcp/web, which bundles @modelcontextprotocol/sdk',
    ),
  ]);
});

describe('options that serve 2025 sessions are refused, not ignored', () => {
  /** Stands for an SDK v1 server's factory: the handler refuses it before it could be called. */
  const aServer = (): undefined => undefined;
  const ping = defineTool({ description: 'Answer.', input: z.object({}) });
  const runtime = createToolRuntime(prepareToolSet({ ping }), { handlers: { ping: () => 'pong' } });
  test('sessions: false and server: undefined, spread from a Node handler’s options, are no 2025 options', () => {
    expect(
      createMcpFetchHandler(runtime, { name: 'x', version: '1' }, {
        sessions: false,
        server: undefined,
      } as McpFetchOptions),
    ).toBeTypeOf('function');
  });
  test.each([
    [{ sessions: true }, '[toolprep] sessions serves 2025 sessions'],
    [{ server: aServer }, '[toolprep] server serves 2025 sessions'],
    [{ server: aServer, sessions: true }, '[toolprep] server and sessions serve 2025 sessions'],
    [{ sessions: {} }, '[toolprep] sessions serves 2025 sessions'],
  ])('%o', (options, message) => {
    expect(() =>
      createMcpFetchHandler(runtime, { name: 'x', version: '1' }, options as McpFetchOptions),
    ).toThrow(message);
  });
});
