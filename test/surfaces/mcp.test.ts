import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { createMcpServer } from 'toolprep/mcp/server';
import { createToolRuntime } from 'toolprep/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { CLI, REPO } from '../support/fixture-project.js';
import { createModuleRecorder } from '../support/record-modules.js';

const EXAMPLE = path.join(REPO, 'examples/notes-server');
const SERVER = path.join(EXAMPLE, 'dist/server.js');
const LIST = 'paths is a list written as text — pass the array itself, not JSON written as text';
const manifest = () => JSON.parse(readFileSync(path.join(EXAMPLE, 'toolprep.manifest.json'), 'utf8'));
const texts = (result: unknown) =>
  (result as { content: { text: string }[] }).content.map((part) => part.text).join('\n');

let notes: string;
beforeAll(async () => {
  const { build } = await import('vite');
  await build({ configFile: path.join(EXAMPLE, 'vite.config.ts'), logLevel: 'silent' });
  notes = mkdtempSync(path.join(tmpdir(), 'toolprep-notes-'));
  mkdirSync(path.join(notes, 'ideas'));
  writeFileSync(path.join(notes, 'ideas/today.md'), '# Today\nShip it.\n');
  writeFileSync(path.join(notes, 'todo.md'), '- docs\n');
}, 120_000);
afterAll(() => rmSync(notes, { recursive: true, force: true }));

test('the example’s committed manifest and module are current', () => {
  const check = spawnSync(process.execPath, [CLI, 'check', '--root', EXAMPLE], { encoding: 'utf8' });
  expect(check.stdout + check.stderr).toContain('the committed tool surface is current');
  expect(check.status).toBe(0);
});

/** The calls every transport must answer the same way. */
async function exercise(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  const expected = manifest().tools;
  expect(tools.map((tool) => tool.name)).toEqual(expected.map((tool: { name: string }) => tool.name));
  for (const [index, tool] of tools.entries()) {
    expect(tool.inputSchema).toEqual(expected[index].inputSchema.mcp);
    expect(tool.outputSchema).toEqual(expected[index].outputSchema);
    expect(tool.annotations).toEqual(expected[index].annotations);
  }

  const repaired = await client.callTool({
    name: 'set_outline',
    arguments: {
      path: 'ideas/today.md',
      outline: JSON.stringify([{ title: 'Plan', children: JSON.stringify([{ title: 'Build' }]) }]),
    },
  });
  expect(repaired).toMatchObject({ structuredContent: { sections: 2 } });
  expect(repaired.isError).toBeFalsy();

  const refused = await client.callTool({
    name: 'read_notes',
    arguments: { paths: '["ideas/today.md","todo.md"]' },
  });
  expect(refused.isError).toBe(true);
  expect(texts(refused)).toBe(LIST);

  const invalid = await client.callTool({ name: 'search_notes', arguments: { query: 'ship', limit: 'ten' } });
  expect(invalid.isError).toBe(true);
  expect(texts(invalid)).toBe('Invalid arguments: "limit" must be an integer (got "ten")');

  const failing = await client.callTool({ name: 'read_notes', arguments: { paths: '../outside.md' } });
  expect(failing.isError).toBe(true);
  expect(texts(failing)).toBe('"../outside.md" is outside the notes folder');

  await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
    /Unknown tool "no_such_tool"\. Available tools: delete_notes/,
  );

  // Still serving after every bad call.
  const correct = await client.callTool({
    name: 'read_notes',
    arguments: { paths: ['ideas/today.md', 'todo.md'] },
  });
  expect(correct.structuredContent).toEqual({
    notes: [
      { path: 'ideas/today.md', text: '# Today\nShip it.\n' },
      { path: 'todo.md', text: '- docs\n' },
    ],
  });
  expect(JSON.parse(texts(correct))).toEqual(correct.structuredContent);
}

describe('the built example server', () => {
  test('over stdio, with the official MCP client', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [SERVER],
        env: { ...process.env, NOTES_DIR: notes } as Record<string, string>,
      }),
    );
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
  });

  test('over Streamable HTTP, stateless, with the official MCP client', async () => {
    const server: ChildProcess = spawn(process.execPath, [SERVER, '--http', '0'], {
      env: { ...process.env, NOTES_DIR: notes },
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        server.stdout?.on('data', (chunk: Buffer) => {
          const match = /listening on (\S+)/.exec(chunk.toString());
          if (match?.[1]) resolve(match[1]);
        });
        server.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
      });
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      await exercise(client);
      await client.close();
    } finally {
      server.kill();
    }
  });

  test('over stdio, tools/list writes the prepared documents byte for byte, the same text each time', () => {
    const requests = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} },
    ];
    const run = spawnSync(process.execPath, [SERVER], {
      input: `${requests.map((request) => JSON.stringify(request)).join('\n')}\n`,
      env: { ...process.env, NOTES_DIR: notes },
      encoding: 'utf8',
      timeout: 20_000,
    });
    const lines = run.stdout.trim().split('\n');
    // The SDK's own order: result, then jsonrpc, then id.
    const listed = (id: number) => {
      const [prefix, suffix] = ['{"result":', `,"jsonrpc":"2.0","id":${id}}`];
      const line =
        lines.find((candidate) => candidate.startsWith(prefix) && candidate.endsWith(suffix)) ?? '';
      return line.slice(prefix.length, -suffix.length);
    };
    const expected = JSON.stringify({
      tools: manifest().tools.map((tool: Record<string, unknown> & { inputSchema: { mcp: unknown } }) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema.mcp,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
      })),
    });
    expect(listed(2)).toBe(expected);
    expect(listed(3)).toBe(expected);
  });

  test('until tools/list is answered, nothing of the SDK, of Zod, of a contract or of toolprep’s build is loaded', async () => {
    const recorder = createModuleRecorder(notes);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', recorder.register, SERVER],
        env: { ...process.env, NOTES_DIR: notes, ...recorder.env } as Record<string, string>,
      }),
    );
    try {
      await client.listTools();
      // The client's first request (id 0) is initialize, its second (id 1) tools/list.
      const resolved = recorder.resolvedBeforeAnswer(1);
      expect(resolved.filter((url) => /@modelcontextprotocol\/sdk|\/node_modules\/zod\//.test(url))).toEqual(
        [],
      );
      const added = resolved
        .filter((url) => url.includes(`${REPO}dist/`))
        .map((url) => url.slice(url.indexOf('/dist/') + 1));
      expect(
        resolved.filter((url) => url.includes('/dist/assets/') || url.includes('/packages/build/')),
      ).toEqual([]);
      // toolprep's run-time package is bundled: its entries the server imports, and shared chunks.
      expect(new Set(added.filter((file) => !file.startsWith('dist/chunks/')))).toEqual(
        new Set([
          'dist/src/surfaces/mcp/index.js',
          'dist/src/runtime/index.js',
          'dist/src/adapters/zod4/runtime.js',
        ]),
      );
      // The chunks they share are merged at build, one for the run time and one for serving: a
      // few files, not the 25 chunks the splitting made (decision 0069).
      const chunks = new Set(added.filter((file) => file.startsWith('dist/chunks/')));
      expect([...chunks]).toEqual(
        expect.arrayContaining(['dist/chunks/runtime-start.js', 'dist/chunks/mcp-start.js']),
      );
      expect(chunks.size).toBeLessThanOrEqual(4);
      await client.callTool({ name: 'list_notes', arguments: {} });
      const afterCall = recorder.resolved().join('\n');
      expect(afterCall).toContain('/dist/assets/organise-');
      expect(afterCall).toContain('@modelcontextprotocol/sdk/dist/esm/server/index.js');
    } finally {
      await client.close();
    }
  });
});

test('one parse per call through MCP, with and without repairs', async () => {
  let parses = 0;
  const tagNotes = defineTool({
    description: 'Tag notes.',
    input: z.object({
      notes: z.array(z.object({ path: z.string(), tags: z.array(z.string()) })).transform((list) => {
        parses++;
        return list;
      }),
    }),
  });
  const runtime = createToolRuntime(prepareToolSet({ tagNotes }), {
    handlers: { tag_notes: ({ notes }: { notes: unknown[] }) => notes.length },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(runtime, { name: 'test', version: '1.0.0' }).connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  await client.callTool({ name: 'tag_notes', arguments: { notes: [{ path: 'a', tags: ['x'] }] } });
  expect(parses).toBe(1);
  const repaired = await client.callTool({
    name: 'tag_notes',
    arguments: { notes: '[{"path":"a","tags":"[\\"x\\"]"}]' },
  });
  expect(texts(repaired)).toBe('1');
  expect(parses).toBe(2);
  await client.close();
});

test("a value the output schema refuses is the tool's error the client reads, never a protocol error", async () => {
  const stats = defineTool({
    description: 'Count notes.',
    input: z.object({}),
    output: z.object({ notes: z.number().int() }),
  });
  let notes: unknown = 3;
  const runtime = createToolRuntime(prepareToolSet({ stats }), {
    handlers: { stats: () => ({ notes }) as never },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(runtime, { name: 'test', version: '1.0.0' }).connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  expect(await client.callTool({ name: 'stats', arguments: {} })).toMatchObject({
    structuredContent: { notes: 3 },
  });
  notes = 'many';
  const refused = await client.callTool({ name: 'stats', arguments: {} });
  expect(refused.isError).toBe(true);
  expect(texts(refused)).toMatch(/^Tool "stats" returned a value its output schema refuses: notes: /);
  await client.close();
});

test('servers share one JSON Schema validator and still check the answers to elicitation', async () => {
  const contract = defineTool({ name: 'noop', description: 'Nothing.', input: z.object({}) });
  const runtime = createToolRuntime(prepareToolSet({ noop: contract }), { handlers: { noop: () => null } });
  const requestedSchema = {
    type: 'object' as const,
    properties: { count: { type: 'number' as const } },
    required: ['count'],
  };
  for (const count of [2, 'two', 3]) {
    const server = createMcpServer(runtime, { name: 'test', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { count } }));
    await client.connect(clientSide);
    const answer = server.elicitInput({ message: 'How many?', requestedSchema });
    if (typeof count === 'number') await expect(answer).resolves.toMatchObject({ content: { count } });
    else await expect(answer).rejects.toThrow(/does not match requested schema/);
    await client.close();
  }
});

test('long lists are paged with a cursor; annotations, outputSchema and _meta are listed', async () => {
  const contracts = Array.from({ length: 5 }, (_, index) =>
    defineTool({
      name: `tool_${index}`,
      description: `Tool ${index}.`,
      input: z.object({ n: z.number() }),
      output: z.object({ doubled: z.number() }),
      annotations: { readOnlyHint: true },
      meta: { category: 'math' },
    }),
  );
  const runtime = createToolRuntime(
    prepareToolSet(Object.fromEntries(contracts.map((contract) => [contract.name as string, contract]))),
    {
      handlers: Object.fromEntries(
        contracts.map((contract) => [
          contract.name as string,
          ({ n }: { n: number }) => ({ doubled: n * 2 }),
        ]),
      ),
    },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(runtime, { name: 'test', version: '1.0.0' }, { pageSize: 2 }).connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    pages.push(page.tools.map((tool) => tool.name));
    cursor = page.nextCursor;
    expect(page.tools[0]).toMatchObject({
      annotations: { readOnlyHint: true },
      _meta: { category: 'math' },
      outputSchema: { type: 'object' },
    });
  } while (cursor !== undefined);
  expect(pages).toEqual([['tool_0', 'tool_1'], ['tool_2', 'tool_3'], ['tool_4']]);
  await expect(client.listTools({ cursor: 'bogus' })).rejects.toThrow(/Invalid cursor "bogus"/);
  expect(await client.callTool({ name: 'tool_3', arguments: { n: 4 } })).toMatchObject({
    structuredContent: { doubled: 8 },
  });
  await client.close();
});
