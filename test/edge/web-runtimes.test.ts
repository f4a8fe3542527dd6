import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI, copyFixture, type FixtureProject, REPO } from '../support/fixture-project.js';
import { bundleWorker } from '../support/worker-bundle.js';

/**
 * The web-standard handler for real in workerd (through Miniflare), Deno and Bun: one bundle of a
 * project's generated module and handlers, served by each runtime, answers the official MCP
 * client: the tools listed, a repaired call, a refused one, an image, and another host refused.
 */
const WORKER = `
import { content, image } from 'toolprep';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { createToolRuntime } from 'toolprep/runtime';
import { tools } from './toolprep.gen.js';

const handlers = Object.fromEntries(tools.prepared.map((tool) => [tool.name, () => \`\${tool.name} done\`]));
handlers.read_files = ({ paths }) => ({ files: paths.map((path) => ({ path, text: 'text of ' + path })) });
handlers.search = () => content(['3 notes', image(new Uint8Array([1, 2, 3]), 'image/png')]);
const runtime = createToolRuntime(tools, { handlers });

export default { fetch: createMcpFetchHandler(runtime, { name: 'edge', version: '1.0.0' }) };
`;

const SERVE = {
  deno: `import worker from './worker.js';
Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log('listening on ' + port) }, worker.fetch);`,
  bun: `import worker from './worker.js';
const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: worker.fetch });
console.log('listening on ' + server.port);`,
};

let project: FixtureProject;
let bundle: string;
beforeAll(async () => {
  project = copyFixture('project');
  execFileSync(process.execPath, [CLI, 'generate', '--quiet'], {
    cwd: project.dir,
  });
  project.write('src/worker.ts', WORKER);
  ({ text: bundle } = await bundleWorker(project.dir, 'src/worker.ts'));
  project.write('worker.js', bundle);
  for (const [runtime, text] of Object.entries(SERVE)) project.write(`serve-${runtime}.js`, text);
}, 120_000);
afterAll(() => project?.remove());

/** Starts a runtime's server on the bundle; resolves to its URL and a way to stop it. */
async function serveIn(runtime: 'deno' | 'bun'): Promise<{ url: string; stop: () => void }> {
  const args = runtime === 'deno' ? ['run', '--allow-net', '--allow-env', 'serve-deno.js'] : ['serve-bun.js'];
  const child: ChildProcess = spawn(path.join(REPO, 'node_modules/.bin', runtime), args, {
    cwd: project.dir,
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /listening on (\d+)/.exec(chunk.toString());
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`${runtime} exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => child.kill() };
}

async function exercise(connect: () => StreamableHTTPClientTransport): Promise<void> {
  const client = new Client({ name: 'edge-test', version: '1.0.0' });
  await client.connect(connect());
  try {
    expect((await client.listTools()).tools).toHaveLength(8);
    // Repaired: a double-serialised object, read by the plan in this runtime.
    expect(
      await client.callTool({ name: 'read_files', arguments: { paths: ['a.md'], encoding: 'utf8' } }),
    ).toMatchObject({
      structuredContent: { files: [{ path: 'a.md', text: 'text of a.md' }] },
    });
    const repaired = await client.callTool({
      name: 'tag_notes',
      arguments: { notes: '[{"title":"a","tags":["x"]}]' },
    });
    expect(repaired).toEqual({ content: [{ type: 'text', text: 'tag_notes done' }] });
    // Refused: a list written as text where one path or a list is taken.
    const refused = await client.callTool({ name: 'read_files', arguments: { paths: '["a.md","b.md"]' } });
    expect(refused).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'paths is a list written as text — pass the array itself, not JSON written as text',
        },
      ],
    });
    expect(await client.callTool({ name: 'search', arguments: { query: 'cats' } })).toEqual({
      content: [
        { type: 'text', text: '3 notes' },
        { type: 'image', data: 'AQID', mimeType: 'image/png' },
      ],
    });
  } finally {
    await client.close();
  }
}

describe('workerd (Miniflare)', () => {
  let worker: Miniflare;
  beforeAll(() => {
    worker = new Miniflare({ modules: true, script: bundle, compatibilityDate: '2026-07-01' });
  });
  afterAll(() => worker?.dispose());

  test('the MCP client lists, calls, is repaired and refused, and gets an image', async () => {
    await exercise(
      () =>
        new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
          fetch: (url, init) =>
            worker.dispatchFetch(url as string, init as never) as unknown as Promise<Response>,
        }),
    );
  });

  test('a request under another host name is refused', async () => {
    const response = await worker.dispatchFetch('http://evil.example.com/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('Forbidden: host \\"evil.example.com\\" is not allowed');
  });
});

describe.each(['deno', 'bun'] as const)('%s', (runtime) => {
  test('the MCP client lists, calls, is repaired and refused, and gets an image', async () => {
    const served = await serveIn(runtime);
    try {
      await exercise(() => new StreamableHTTPClientTransport(new URL(served.url)));
    } finally {
      served.stop();
    }
  });
});
