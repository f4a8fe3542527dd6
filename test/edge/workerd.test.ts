import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { copyFixture, type FixtureProject, REPO } from '../support/fixture-project.js';

/**
 * The web-standard handler in the real workerd (through Miniflare): a Worker bundled from a
 * project's generated module serves its tools to the official MCP client, the results of every
 * kind included, and refuses a host it was not told.
 */
const WORKER = `
import { content, image } from 'toolprep';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { createToolRuntime } from 'toolprep/runtime';
import { tools } from './toolprep.gen.js';

const runtime = createToolRuntime(tools, {
  handlers: {
    search_notes: ({ query, limit }) => \`found \${query} (at most \${limit})\`,
    edit_note: ({ action, path }) => content([\`\${action} \${path}\`, image(new Uint8Array([1, 2, 3]), 'image/png')]),
    place_card: ({ card, at }) => \`\${card} at \${at.join(',')}\`,
  },
});

export default { fetch: createMcpFetchHandler(runtime, { name: 'edge', version: '1.0.0' }) };
`;

let project: FixtureProject;
let worker: Miniflare;
beforeAll(async () => {
  project = copyFixture('profiles');
  execFileSync(process.execPath, [path.join(REPO, 'dist/src/cli/main.js'), 'generate', '--quiet'], {
    cwd: project.dir,
  });
  project.write('src/worker.ts', WORKER);
  const bundled = await build({
    absWorkingDir: project.dir,
    entryPoints: [path.join(project.dir, 'src/worker.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    write: false,
    logLevel: 'silent',
  });
  worker = new Miniflare({
    modules: true,
    script: bundled.outputFiles[0]?.text ?? '',
    compatibilityDate: '2026-07-01',
  });
}, 120_000);
afterAll(async () => {
  await worker?.dispose();
  project?.remove();
});

test('in workerd, the MCP client lists the tools and calls them, results of every kind included', async () => {
  const client = new Client({ name: 'edge-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
      fetch: (url, init) =>
        worker.dispatchFetch(url as string, init as never) as unknown as Promise<Response>,
    }),
  );
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['edit_note', 'place_card', 'search_notes']);
    // Repaired as in Node: the plan runs in workerd too, and the default is filled by the parser.
    expect(await client.callTool({ name: 'search_notes', arguments: { query: 'cats' } })).toEqual({
      content: [{ type: 'text', text: 'found cats (at most 10)' }],
    });
    expect(await client.callTool({ name: 'place_card', arguments: { card: 'a', at: '[1,2]' } })).toEqual({
      content: [{ type: 'text', text: 'a at 1,2' }],
    });
    expect(
      await client.callTool({ name: 'edit_note', arguments: { action: 'rename', path: 'a.md', to: 'b.md' } }),
    ).toEqual({
      content: [
        { type: 'text', text: 'rename a.md' },
        { type: 'image', data: 'AQID', mimeType: 'image/png' },
      ],
    });
  } finally {
    await client.close();
  }
});

test('in workerd, a request under another host name is refused', async () => {
  const response = await worker.dispatchFetch('http://evil.example.com/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{}',
  });
  expect(response.status).toBe(403);
  expect(await response.text()).toContain('Forbidden: host \\"evil.example.com\\" is not allowed');
});
