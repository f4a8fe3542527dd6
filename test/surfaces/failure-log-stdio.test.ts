import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { linkPackages, REPO } from '../support/fixture-project.js';

/**
 * Over stdio, where stdout is the protocol's, a server's failures go to stderr (decision 0044):
 * a contract module that throws as it is loaded, and a handler that throws, each logged once
 * however often it is called, with its stack, and never with the arguments; a refusal of the
 * caller's arguments not at all. Both eras, through the official clients, from a spawned server.
 */

const SECRET = 'sk-live-0123456789abcdef';
const SERVER = `import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { serveStdio } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import { z } from 'zod';
const input = z.object({ token: z.string() });
const prepared = prepareToolSet({
  explode: defineTool({ description: 'Queries the database.', input }),
  broken: defineTool({ description: 'Its module throws.', input }),
});
// As the generated module loads a contract: its module is imported on the tool's first call.
const tools = { ...prepared, load: { ...prepared.load, broken: () => import('./broken-tool.mjs') } };
const handlers = {
  explode: () => {
    throw new Error('the database refused the query');
  },
  broken: () => 'never runs',
};
await serveStdio(createToolRuntime(tools, { handlers }), { name: 'failing', version: '1.0.0' });
`;

let dir: string;
let server: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'toolprep-failure-log-'));
  linkPackages(dir);
  symlinkSync(path.join(REPO, 'node_modules/zod'), path.join(dir, 'node_modules/zod'), 'dir');
  server = path.join(dir, 'server.mjs');
  writeFileSync(server, SERVER);
  writeFileSync(path.join(dir, 'broken-tool.mjs'), "throw new Error('cannot open /srv/app/notes.sqlite');\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Everything a stream gives until it ends. */
function collect(stream: Readable | null): Promise<string> {
  let text = '';
  stream?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return new Promise((resolve) => stream?.on('end', () => resolve(text)));
}

const ERAS = {
  '2026-07-28 (SDK v2 client)': async () => {
    const client = new Client(
      { name: 'test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const transport = new StdioClientTransport({ command: process.execPath, args: [server], stderr: 'pipe' });
    const stderr = collect(transport.stderr as Readable);
    await client.connect(transport);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    return { client, stderr };
  },
  '2025 (SDK v1 client)': async () => {
    const client = new ClientV1({ name: 'test', version: '1.0.0' });
    const transport = new StdioClientTransportV1({
      command: process.execPath,
      args: [server],
      stderr: 'pipe',
    });
    const stderr = collect(transport.stderr as Readable);
    await client.connect(transport);
    return { client, stderr };
  },
};

describe.each(Object.entries(ERAS))('%s', (_era, connect) => {
  test('each failure once on stderr, with its stack, no argument; the refused call not at all', async () => {
    const { client, stderr } = await connect();
    for (let round = 0; round < 3; round++) {
      for (const name of ['explode', 'broken'])
        expect(await client.callTool({ name, arguments: { token: SECRET } })).toMatchObject({
          isError: true,
        });
      expect(await client.callTool({ name: 'explode', arguments: { tokn: SECRET } })).toMatchObject({
        isError: true,
      });
    }
    await client.close();
    const logged = await stderr;
    expect(logged.split('\n').filter((line) => line.startsWith('[toolprep]'))).toEqual([
      '[toolprep] tool "explode" threw (HANDLER_ERROR): the database refused the query',
      '[toolprep] tool "broken" could not be loaded (LOAD_ERROR): cannot open /srv/app/notes.sqlite',
    ]);
    expect(logged).toMatch(
      /\n {4}Error: cannot open \/srv\/app\/notes\.sqlite\n {4}\s+at .*broken-tool\.mjs/,
    );
    expect(logged).not.toContain(SECRET);
  });
});
