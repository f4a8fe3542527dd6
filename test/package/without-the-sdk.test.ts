import { type ChildProcessWithoutNullStreams, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Stream } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bundleServers, packPackages, REPO } from '../../scripts/packages.mjs';
import { startAuthServer } from '../support/auth-server.js';
import { CLI, writeFiles } from '../support/fixture-project.js';

/**
 * No hidden dependency (issue 36, decision 0043): README installs `@modelcontextprotocol/sdk` for
 * 2025 sessions only, so a project installed from the packed package without it serves
 * 2026-07-28 over stdio and HTTP, and refuses a 2025 client with an answer that names the package
 * to install and no path of the server, logging why once. Two builds of the same server: one
 * generated without the SDK (no prepared first answers: the SDK would answer `initialize`), one
 * generated while it was there and run without it (a deploy that dropped it: `initialize` and
 * `tools/list` come from the prepared bytes, the first call is refused). Nor `jose` (decision
 * 0067): a Worker needs it only when it imports `toolprep/mcp/jwt` to verify JWTs.
 */

const INSTALL = 'npm install @modelcontextprotocol/sdk';
const LOGGED =
  '[toolprep] MCP 2025 sessions are served with @modelcontextprotocol/sdk, which is not installed';
const version = (name: string) =>
  (
    JSON.parse(readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

const FILES: Record<string, string> = {
  'src/tools/notes.ts': `import { defineTool } from 'toolprep';
import { z } from 'zod';

/** Replace a note's outline. */
export const setOutline = defineTool({ input: z.object({ outline: z.array(z.object({ title: z.string() })) }) });
`,
  'src/runtime.ts': `import { createToolRuntime } from 'toolprep/runtime';
import { type ToolHandlers, tools } from './toolprep.gen.js';

const handlers: ToolHandlers = { set_outline: ({ outline }) => outline.map((item) => item.title).join(' > ') };
export const runtime = createToolRuntime(tools, { handlers });
`,
  'src/stdio.ts': `import { serveStdio } from 'toolprep/mcp';
import { runtime } from './runtime.js';

await serveStdio(runtime, { name: 'notes', version: '1.0.0' });
`,
  'src/http.ts': `import { serveHttp } from 'toolprep/mcp';
import { runtime } from './runtime.js';

const server = await serveHttp(runtime, { name: 'notes', version: '1.0.0' }, 0);
console.log((server.address() as { port: number }).port);
`,

  // What a server of 2026-07-28 alone imports, for its declarations to be checked: each that
  // needs the SDK's types (or jose's, not installed either) would fail here. (The contracts' zod
  // would add a minute of checking.)
  'src/declarations.ts': `export { createMcpHttpHandler, serveHttp, serveStdio } from 'toolprep/mcp';
export { createMcpFetchHandler } from 'toolprep/mcp/web';
export { createMcpFetchHandler as createModernFetchHandler } from 'toolprep/mcp/fetch';
export { jwtVerifier } from 'toolprep/mcp/jwt';
`,
  // A Worker of 2026-07-28 alone, bundled as a Workers build bundles it (decision 0064).
  'src/worker.ts': `import { createMcpFetchHandler } from 'toolprep/mcp/fetch';
import { runtime } from './runtime.js';

export default { fetch: createMcpFetchHandler(runtime, { name: 'notes', version: '1.0.0' }) };
`,
  'tsconfig.json': `{
  "compilerOptions": {
    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true,
    "noEmit": true, "skipLibCheck": false, "types": ["node"]
  },
  "files": ["src/declarations.ts"]
}
`,
};

const BUILDS = ['generated without the SDK', 'generated with the SDK, run without it'] as const;
type Build = (typeof BUILDS)[number];
const OUT: Record<Build, string> = {
  'generated without the SDK': 'out/plain',
  'generated with the SDK, run without it': 'out/prepared',
};

/** A Worker of 2026-07-28 whose callers present JWTs of `issuer`, verified with jose. */
const JWT_WORKER = (issuer: string) => `import { createMcpFetchHandler } from 'toolprep/mcp/fetch';
import { jwtVerifier } from 'toolprep/mcp/jwt';
import { runtime } from './runtime.js';

export default {
  fetch: createMcpFetchHandler(runtime, { name: 'notes', version: '1.0.0' }, {
    auth: { issuer: '${issuer}', jwtVerifier, resourceMetadata: { resource: 'http://localhost/mcp' } },
  }),
};
`;

let dir: string;
let packs: string;
beforeAll(async () => {
  packs = mkdtempSync(path.join(tmpdir(), 'toolprep-packs-'));
  const tarballs = packPackages(packs);
  dir = mkdtempSync(path.join(tmpdir(), 'toolprep-without-sdk-'));
  writeFiles(dir, FILES);
  // As README installs a server for 2026-07-28 alone: toolprep and zod.
  const packageJson = {
    name: 'server',
    private: true,
    type: 'module',
    dependencies: { toolprep: `file:${tarballs.toolprep}`, zod: version('zod') },
  };
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
  });
  // Node's types, for the type check (the same bytes as an install of @types/node).
  mkdirSync(path.join(dir, 'node_modules/@types'), { recursive: true });
  symlinkSync(path.join(REPO, 'node_modules/@types/node'), path.join(dir, 'node_modules/@types/node'), 'dir');
  // The built `toolprep` command, as `npx toolprep generate` runs it from @toolprep/build.
  const generate = () => {
    const result = spawnSync(process.execPath, [CLI, 'generate'], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`toolprep generate failed:\n${result.stdout}${result.stderr}`);
    return readFileSync(path.join(dir, 'src/toolprep.gen.ts'), 'utf8');
  };
  const sdk = path.join(dir, 'node_modules/@modelcontextprotocol/sdk');
  mkdirSync(path.dirname(sdk), { recursive: true });
  symlinkSync(path.join(REPO, 'node_modules/@modelcontextprotocol/sdk'), sdk, 'dir');
  const withHandshake = generate();
  await bundleServers(
    dir,
    ['src/stdio.ts', 'src/http.ts'],
    path.join(dir, OUT['generated with the SDK, run without it']),
  );
  rmSync(sdk);
  expect(generate()).not.toBe(withHandshake);
  await bundleServers(dir, ['src/stdio.ts', 'src/http.ts'], path.join(dir, OUT['generated without the SDK']));
}, 180_000);
afterAll(() => {
  for (const folder of [dir, packs]) if (folder) rmSync(folder, { recursive: true, force: true });
});

/** A Worker's bundle of `entry`, as a Workers build makes it. */
const bundleWorker = (entry: string, external: string[] = []) =>
  build({
    absWorkingDir: dir,
    stdin: { contents: entry, resolveDir: path.join(dir, 'src'), loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    external,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });

test('a Worker of toolprep/mcp/fetch bundles without the SDK; one of toolprep/mcp/web cannot', async () => {
  const built = await bundleWorker("export { default } from './worker.js';");
  expect(built.errors).toEqual([]);
  await expect(bundleWorker("export { createMcpFetchHandler } from 'toolprep/mcp/web';")).rejects.toThrow(
    'Could not resolve "@modelcontextprotocol/sdk',
  );
});

// jose is the JWT verifier of `auth.issuer`, which the web-standard handlers are given from
// `toolprep/mcp/jwt` (decision 0067): installed for it, and not otherwise.
describe('jose, not installed here, is needed only by a Worker that imports toolprep/mcp/jwt', () => {
  test.each([
    ['toolprep/mcp/fetch', []],
    // The SDK is the 2025 exchange's, installed with this entry: left to the runtime here, as it is not installed.
    ['toolprep/mcp/web', ['@modelcontextprotocol/sdk']],
  ])('a Worker of %s with auth by verify bundles, and holds no jose', async (entry, external) => {
    const built = await bundleWorker(
      `import { createMcpFetchHandler } from '${entry}';
import { runtime } from './runtime.js';

export default {
  fetch: createMcpFetchHandler(runtime, { name: 'notes', version: '1.0.0' }, {
    auth: { verify: async () => undefined, resourceMetadata: { resource: 'https://mcp.example.com/mcp', authorizationServers: ['https://auth.example.com'] } },
  }),
};`,
      external,
    );
    expect(built.errors).toEqual([]);
    // The gate is there (its metadata path), and no jose: it is not installed, and nothing asked for it.
    expect(built.outputFiles[0]?.text).toContain('/.well-known/oauth-protected-resource');
    expect(Object.keys(built.metafile.inputs).filter((file) => file.includes('jose'))).toEqual([]);
  });

  test('one that imports toolprep/mcp/jwt asks for jose', async () => {
    await expect(bundleWorker(JWT_WORKER('https://auth.example.com'))).rejects.toThrow(
      'Could not resolve "jose"',
    );
  });
});

describe('with jose installed, a Worker verifying JWTs', () => {
  const jose = () => path.join(dir, 'node_modules/jose');
  beforeAll(() => symlinkSync(path.join(REPO, 'node_modules/jose'), jose(), 'dir'));
  afterAll(() => rmSync(jose()));

  test('serves in workerd the caller whose token the issuer signed, and refuses one it did not', async () => {
    const auth = await startAuthServer();
    const built = await bundleWorker(JWT_WORKER(auth.issuer));
    expect(Object.keys(built.metafile.inputs).some((file) => file.includes('node_modules/jose/'))).toBe(true);
    const worker = new Miniflare({
      modules: true,
      script: built.outputFiles[0]?.text ?? '',
      compatibilityDate: '2026-07-01',
    });
    try {
      const connect = async (token: string) => {
        const client = modernClient();
        await client.connect(
          new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
            fetch: (url, init) =>
              worker.dispatchFetch(String(url), init as never) as unknown as Promise<Response>,
            requestInit: { headers: { authorization: `Bearer ${token}` } },
          }),
        );
        return client;
      };
      const resource = 'http://localhost/mcp';
      const client = await connect(await auth.sign({ sub: 'reader' }, resource));
      await listAndCall(client);
      await client.close();
      const another = await auth.sign({ iss: 'https://issuer.example' }, resource);
      await expect(connect(another).then((refused) => refused.listTools())).rejects.toThrow(/401|iss/);
    } finally {
      await worker.dispose();
      auth.close();
    }
  }, 60_000);
});

test('the declarations of toolprep/mcp, its web, fetch and jwt entries check without the SDK’s or jose’s, skipLibCheck off', () => {
  const checked = spawnSync(
    process.execPath,
    [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', dir],
    {
      encoding: 'utf8',
    },
  );
  expect(checked.stdout).toBe('');
  expect(checked.status).toBe(0);
});

/** What a stream has written so far. */
function collected(stream: Stream | null): () => string {
  let text = '';
  stream?.on('data', (chunk) => {
    text += chunk;
  });
  return () => text;
}

const modernClient = () =>
  new Client({ name: 'test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });

/** Lists the tools and makes a call that needs a repair. */
async function listAndCall(client: Client | ClientV1) {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(['set_outline']);
  expect(
    await client.callTool({
      name: 'set_outline',
      arguments: { outline: '[{"title":"Plan"},{"title":"Ship"}]' },
    }),
  ).toMatchObject({ content: [{ type: 'text', text: 'Plan > Ship' }] });
}

/**
 * A 2025 session's refusal: at `initialize` where nothing was prepared, at the first call where
 * the prepared bytes answered `initialize` and `tools/list`.
 */
async function refusalOf(build: Build, connect: (client: ClientV1) => Promise<void>): Promise<string> {
  const client = new ClientV1({ name: 'test', version: '1.0.0' });
  try {
    if (build === 'generated without the SDK') {
      const refused = await connect(client).then(
        () => 'connected',
        (error: Error) => error.message,
      );
      return refused;
    }
    await connect(client);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['set_outline']);
    return await client.callTool({ name: 'set_outline', arguments: { outline: [] } }).then(
      () => 'answered',
      (error: Error) => error.message,
    );
  } finally {
    await client.close();
  }
}

describe.each(BUILDS)('a server %s', (build) => {
  const entry = (name: string) => path.join(dir, OUT[build], `${name}.js`);

  test('over stdio: a 2026-07-28 client is served; a 2025 client is refused, told what to install', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [entry('stdio')],
      cwd: dir,
      stderr: 'pipe',
    });
    const stderr = collected(transport.stderr);
    const client = modernClient();
    await client.connect(transport);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      await listAndCall(client);
    } finally {
      await client.close();
    }
    expect(stderr()).toBe('');

    let legacyStderr = () => '';
    const refused = await refusalOf(build, (legacy) => {
      const legacyTransport = new StdioClientTransportV1({
        command: process.execPath,
        args: [entry('stdio')],
        cwd: dir,
        stderr: 'pipe',
      });
      legacyStderr = collected(legacyTransport.stderr);
      return legacy.connect(legacyTransport);
    });
    expect(refused).toContain('-32022');
    expect(refused).toContain(
      `2025 sessions need @modelcontextprotocol/sdk on the server, which is not installed there (${INSTALL})`,
    );
    expect(refused).not.toContain(dir);
    expect(legacyStderr().split(LOGGED)).toHaveLength(2);
  });

  describe('over HTTP', () => {
    let server: ChildProcessWithoutNullStreams;
    let url: URL;
    let stderr: () => string;
    beforeAll(async () => {
      server = spawn(process.execPath, [entry('http')], { cwd: dir });
      stderr = collected(server.stderr);
      const port = await new Promise<string>((resolve) =>
        server.stdout.once('data', (chunk) => resolve(String(chunk).trim())),
      );
      url = new URL(`http://127.0.0.1:${port}/mcp`);
    });
    afterAll(() => {
      server?.kill();
    });

    test('a 2026-07-28 client is served', async () => {
      const client = modernClient();
      await client.connect(new StreamableHTTPClientTransport(url));
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
        await listAndCall(client);
      } finally {
        await client.close();
      }
    });

    test('a 2025 client is refused, twice, told what to install; the server says why once', async () => {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const refused = await refusalOf(build, (client) =>
          client.connect(new StreamableHTTPClientTransportV1(url)),
        );
        expect(refused).toContain('-32022');
        expect(refused).toContain(`(${INSTALL})`);
        expect(refused).not.toContain(dir);
      }
      expect(stderr().split(LOGGED)).toHaveLength(2);
    });

    test('a raw 2025 initialize is answered 400 with the refusal, naming the version asked for', async () => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'raw', version: '1' },
          },
        }),
      });
      const body = (await response.json()) as { error?: { code: number; data: unknown } };
      if (build === 'generated without the SDK') {
        expect(response.status).toBe(400);
        expect(body.error).toMatchObject({
          code: -32022,
          data: { supported: ['2026-07-28'], requested: '2025-06-18' },
        });
      } else expect(response.status).toBe(200);
    });
  });
});
