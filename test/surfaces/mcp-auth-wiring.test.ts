import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import {
  Client,
  ClientCredentialsProvider,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type AuthServer, CLIENTS, startAuthServer } from '../support/auth-server.js';
import { copyFixture, type FixtureProject, REPO } from '../support/fixture-project.js';

/**
 * The guide's wiring of the OAuth gate (docs/guide/who-may-call-what.md), run as the guide writes
 * it: its Express and Hono files in Node on loopback ports, its Worker in workerd through
 * Miniflare, each serving the `access` fixture's tools with tokens from a real authorization
 * server (`oidc-provider`), and the SDK v2 client getting its own tokens with its
 * `ClientCredentialsProvider` (2026-07-28), and the SDK v1 client with a bearer header (2025). Only the guide's example addresses are replaced, each of them
 * checked to be there, so that a guide that changes them fails here rather than going untested.
 */

const GUIDE = 'docs/guide/who-may-call-what.md';
const info = { name: 'wiring-test', version: '1.0.0' };

/** The guide's files: each ```ts block whose first line names `src/<file>.ts`. */
function guideFiles(): Map<string, string> {
  const text = readFileSync(path.join(REPO, GUIDE), 'utf8');
  return new Map(
    [...text.matchAll(/```ts\n\/\/ (src\/[\w-]+\.ts)\n([\s\S]*?)```/g)].map(([, file, code]) => [
      file as string,
      code as string,
    ]),
  );
}

/** The block with the guide's example addresses replaced; every one of them must be there. */
function withAddresses(code: string, replacements: readonly (readonly [string, string])[]): string {
  return replacements.reduce((text, [from, to]) => {
    expect(text, `${GUIDE} no longer says ${from}`).toContain(from);
    return text.replaceAll(from, to);
  }, code);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Each handler names its caller, as the gate hands it on.
const RUNTIME = `import { createToolRuntime } from 'toolprep/runtime';
import { tools } from './toolprep.gen.js';

const handlers = Object.fromEntries(
  tools.prepared.map((tool) => [tool.name, (_args, context) => \`\${tool.name} for \${context.caller?.subject}\`]),
);
export const runtime = createToolRuntime(tools, { handlers });
`;

const SERVE_HONO = (port: number) => `import { serve } from '@hono/node-server';
import app from './hono.js';

serve({ fetch: app.fetch, port: ${port}, hostname: '127.0.0.1' });
`;

interface Served {
  readonly origin: string;
  stop(): Promise<void>;
}

let auth: AuthServer;
let project: FixtureProject;
const files = guideFiles();
const served: Record<string, Served> = {};

/** A Node program of the project, bundled as a user's build would (packages installed, not bundled). */
async function runInNode(entry: string, origin: string): Promise<Served> {
  await build({
    absWorkingDir: project.dir,
    entryPoints: [path.join(project.dir, entry)],
    outdir: path.join(project.dir, 'out'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'silent',
  });
  const child: ChildProcess = spawn(process.execPath, [`out/${path.basename(entry, '.ts')}.js`], {
    cwd: project.dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`${entry} exited (${code}) before serving`))),
  );
  // Listening once the metadata is served: asked until it answers, or until the program exits.
  const answered = (async () => {
    for (;;) {
      const answer = await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`).catch(() => undefined);
      if (answer) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  await Promise.race([answered, exited]);
  return {
    origin,
    stop: async () => {
      child.kill();
    },
  };
}

beforeAll(async () => {
  auth = await startAuthServer();
  project = copyFixture('generate/access');
  expect(project.cli('generate', '--quiet').status).toBe(0);
  mkdirSync(path.join(project.dir, 'node_modules/@hono'));
  for (const name of ['express', 'hono', '@hono/node-server'])
    symlinkSync(path.join(REPO, 'node_modules', name), path.join(project.dir, 'node_modules', name), 'dir');
  project.write('package.json', '{ "type": "module" }\n');
  project.write('src/runtime.ts', RUNTIME);
  const write = (file: string, port: number) => {
    const code = files.get(file);
    expect(code, `${GUIDE} has no block for ${file}`).toBeDefined();
    project.write(
      file,
      withAddresses(code as string, [
        ["'https://auth.example.com'", `'${auth.issuer}'`],
        ['https://mcp.example.com', `http://127.0.0.1:${port}`],
        ["'mcp.example.com'", "'127.0.0.1'"],
        ...(file === 'src/express.ts'
          ? [['app.listen(3000)', `app.listen(${port}, '127.0.0.1')`] as const]
          : []),
      ]),
    );
  };

  const expressPort = await freePort();
  write('src/express.ts', expressPort);
  served.express = await runInNode('src/express.ts', `http://127.0.0.1:${expressPort}`);

  const honoPort = await freePort();
  write('src/hono.ts', honoPort);
  project.write('src/serve-hono.ts', SERVE_HONO(honoPort));
  served.hono = await runInNode('src/serve-hono.ts', `http://127.0.0.1:${honoPort}`);

  const workerPort = await freePort();
  write('src/worker.ts', workerPort);
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
  const worker = new Miniflare({
    modules: true,
    script: bundled.outputFiles[0]?.text ?? '',
    compatibilityDate: '2026-07-01',
    host: '127.0.0.1',
    port: workerPort,
  });
  await worker.ready;
  served.worker = { origin: `http://127.0.0.1:${workerPort}`, stop: () => worker.dispose() };
}, 180_000);

afterAll(async () => {
  await Promise.all(Object.values(served).map((server) => server.stop()));
  auth?.close();
  project?.remove();
});

async function connect(origin: string, clientId: keyof typeof CLIENTS): Promise<Client> {
  const authProvider = new ClientCredentialsProvider({
    clientId,
    clientSecret: CLIENTS[clientId].secret,
    scope: CLIENTS[clientId].scope,
    expectedIssuer: auth.issuer,
  });
  const client = new Client(info, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { authProvider }));
  return client;
}

const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name).sort();

describe.each(['express', 'hono', 'worker'])('the guide’s %s wiring', (wiring) => {
  test('without a token: 401 naming the metadata it serves, which names the issuer', async () => {
    const { origin } = served[wiring] as Served;
    // Any request but a call of a public tool asks for a token, before it is read as MCP.
    const refused = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(refused.status).toBe(401);
    const metadataUrl = `${origin}/.well-known/oauth-protected-resource/mcp`;
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    const metadata = await fetch(metadataUrl);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toEqual({
      resource: `${origin}/mcp`,
      authorization_servers: [auth.issuer],
      bearer_methods_supported: ['header'],
    });
  });

  test('the SDK v2 client gets its tokens, and each caller lists and calls what its scopes allow', async () => {
    const { origin } = served[wiring] as Served;
    const reader = await connect(origin, 'reader');
    const writer = await connect(origin, 'writer');
    try {
      expect(reader.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(names((await reader.listTools()).tools)).toEqual(['echo', 'list_notes', 'status']);
      expect(names((await writer.listTools()).tools)).toEqual(['echo', 'list_notes', 'status', 'write_note']);
      expect(await reader.callTool({ name: 'list_notes', arguments: {} })).toMatchObject({
        content: [{ type: 'text', text: 'list_notes for reader' }],
      });
      expect(
        await writer.callTool({ name: 'write_note', arguments: { title: 'a', text: 'b' } }),
      ).toMatchObject({
        content: [{ type: 'text', text: 'write_note for writer' }],
      });
      // Hidden from the reader: answered as a tool that does not exist.
      await expect(
        reader.callTool({ name: 'write_note', arguments: { title: 'a', text: 'b' } }),
      ).rejects.toThrow(/Unknown tool "write_note"\. Available tools: echo, list_notes, status/);
    } finally {
      await Promise.all([reader.close(), writer.close()]);
    }
  });

  test('2025: the SDK v1 client with a bearer header sees its caller’s list', async () => {
    const { origin } = served[wiring] as Served;
    const token = await auth.token('reader', `${origin}/mcp`);
    const client = new ClientV1(info);
    await client.connect(
      new TransportV1(new URL(`${origin}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      expect(names((await client.listTools()).tools)).toEqual(['echo', 'list_notes', 'status']);
      expect(await client.callTool({ name: 'list_notes', arguments: {} })).toMatchObject({
        content: [{ type: 'text', text: 'list_notes for reader' }],
      });
    } finally {
      await client.close();
    }
  });
});
