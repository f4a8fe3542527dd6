import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import type { McpToolContext } from 'toolprep/mcp';
import { createMcpServer } from 'toolprep/mcp/server';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { createToolRuntime } from 'toolprep/runtime';
import { connectInMemory, type InMemoryProtocol, McpRequestError } from 'toolprep/testing';
import { afterAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createHandlers } from '../../examples/notes-server/src/handlers.js';
import { tools as exampleTools } from '../../examples/notes-server/src/toolprep.gen.js';
import { requestHeaders, requestMeta } from '../../scripts/mcp-2026-wire.mjs';
import { REPO } from '../support/fixture-project.js';

/**
 * `toolprep/testing`'s in-memory client (decision 0045): the same lists and answers on every
 * protocol revision, from the serving code itself — what an HTTP client and the official SDK
 * client receive, to the byte.
 */

const PROTOCOLS: readonly InMemoryProtocol[] = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];
const LIST = 'tags is a list written as text — pass the array itself, not JSON written as text';
const CONFIRM = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const } },
  required: ['confirm'],
};
const LOCKED = { code: -32050, message: 'the vault is locked', data: { vault: 'notes' } };

const runtime = createToolRuntime(
  prepareToolSet({
    tagNote: defineTool({
      description: 'Tags a note.',
      input: z.object({ path: z.string(), tags: z.union([z.string(), z.array(z.string())]) }),
      output: z.object({ tagged: z.number() }),
      annotations: { idempotentHint: true },
    }),
    readNote: defineTool({
      title: 'Read a note',
      description: 'Reads a note.',
      input: z.object({ path: z.string() }),
    }),
    openVault: defineTool({ description: 'Opens the vault.', input: z.object({}) }),
    waitForever: defineTool({ description: 'Waits until the call is cancelled.', input: z.object({}) }),
    archiveNote: defineTool({ description: 'Archives a note, once you confirm.', input: z.object({}) }),
  }),
  {
    handlers: {
      tag_note: ({ tags }: { tags: string | string[] }) => ({ tagged: [tags].flat().length }),
      read_note: ({ path: note }: { path: string }) => {
        if (note === 'missing.md') throw new Error(`${note} does not exist`);
        return `# ${note}`;
      },
      wait_forever: (_args: object, { signal }: McpToolContext) =>
        new Promise((_resolve, reject) => {
          if (signal.aborted) reject(signal.reason);
          signal.addEventListener('abort', () => reject(signal.reason));
        }),
      archive_note: async (_args: object, context: McpToolContext) => {
        const answer = await context.elicit({ message: 'Archive it?', requestedSchema: CONFIRM });
        return answer.content?.confirm === true ? 'archived' : 'kept';
      },
      open_vault: () => {
        throw Object.assign(new Error(LOCKED.message), { code: LOCKED.code, data: LOCKED.data });
      },
    },
  },
);

const text = (value: string) => ({ type: 'text', text: value });
/** What 2026-07-28 adds to every result: its type and the server's identity. */
const modern = (protocol: InMemoryProtocol) =>
  protocol === '2026-07-28'
    ? {
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'toolprep-testing', version: '0.0.0' } },
      }
    : {};

describe.each(PROTOCOLS)('an in-memory client speaking %s', (protocol) => {
  const connect = () => connectInMemory(runtime, { protocol });

  test('lists every tool as the prepared entries, paged or not', async () => {
    const client = await connect();
    const paged = await connectInMemory(runtime, { protocol, serving: { pageSize: 1 } });
    try {
      const listed = await client.listTools();
      expect(listed.map((tool) => tool.name)).toEqual(runtime.list().map((tool) => tool.name));
      expect(listed.find((tool) => tool.name === 'tag_note')).toEqual({
        name: 'tag_note',
        description: 'Tags a note.',
        inputSchema: runtime.list().find((tool) => tool.name === 'tag_note')?.inputSchema.mcp,
        outputSchema: runtime.list().find((tool) => tool.name === 'tag_note')?.outputSchema,
        annotations: { idempotentHint: true },
      });
      expect(listed.find((tool) => tool.name === 'read_note')?.title).toBe('Read a note');
      expect(await paged.listTools()).toEqual(listed);
      expect(await paged.request('tools/list')).toMatchObject({
        tools: [listed[0]],
        nextCursor: expect.any(String),
      });
    } finally {
      await client.close();
      await paged.close();
    }
  });

  test.each([
    {
      call: 'a call, its arguments repaired',
      name: 'tag_note',
      args: { path: 'a.md', tags: ['x', 'y'] },
      result: { content: [text('{"tagged":2}')], structuredContent: { tagged: 2 } },
    },
    {
      call: 'a call with a text result',
      name: 'read_note',
      args: { path: 'a.md' },
      result: { content: [text('# a.md')] },
    },
    {
      call: 'an argument the contract refuses',
      name: 'tag_note',
      args: { path: 'a.md', tags: '["x","y"]' },
      result: { content: [text(expect.stringContaining(LIST))], isError: true },
    },
    {
      call: 'an argument of the wrong type',
      name: 'read_note',
      args: { path: 7 },
      result: {
        content: [text('Invalid arguments: "path" must be a string (got 7)')],
        isError: true,
      },
    },
    {
      call: 'a handler that throws',
      name: 'read_note',
      args: { path: 'missing.md' },
      result: { content: [text(expect.stringContaining('missing.md does not exist'))], isError: true },
    },
  ])('$call: the result as sent', async ({ name, args, result }) => {
    const client = await connect();
    try {
      expect(await client.callTool(name, args)).toEqual({ ...result, ...modern(protocol) });
    } finally {
      await client.close();
    }
  });

  test.each([
    {
      call: 'an unknown tool',
      name: 'no_such_tool',
      error: { code: -32602, message: expect.stringContaining('Unknown tool "no_such_tool"') },
    },
    { call: 'a handler’s JSON-RPC error', name: 'open_vault', error: LOCKED },
  ])('$call: a protocol error, thrown with its code, message and data', async ({ name, error }) => {
    const client = await connect();
    try {
      const thrown = await client.callTool(name).catch((caught: unknown) => caught);
      expect(thrown).toBeInstanceOf(McpRequestError);
      expect({ ...(thrown as McpRequestError), message: (thrown as Error).message }).toEqual({
        name: 'McpRequestError',
        data: undefined,
        ...error,
      });
    } finally {
      await client.close();
    }
  });
});

test.each(PROTOCOLS)(
  '%s: a closed client refuses to send, and closing twice is harmless',
  async (protocol) => {
    const client = await connectInMemory(runtime, { protocol });
    await client.close();
    await client.close();
    await expect(client.listTools()).rejects.toThrow(
      '[toolprep] tools/list on an in-memory client that was closed',
    );
  },
);

test.each(PROTOCOLS)(
  '%s: closing cancels a call still running, which is then not answered',
  async (protocol) => {
    const client = await connectInMemory(runtime, { protocol });
    const running = client.callTool('wait_forever');
    await client.close();
    await expect(running).rejects.toThrow(
      '[toolprep] the in-memory client was closed before the server answered',
    );
  },
);

describe('a handler’s question to the client', () => {
  const NEEDS_FORM = {
    name: 'McpRequestError',
    code: -32021,
    message: expect.stringMatching(/capabilit/),
    data: { requiredCapabilities: { elicitation: { form: {} } } },
  };
  const thrownBy = (call: Promise<unknown>) =>
    call.then(
      (result) => ({ result }),
      (error: McpRequestError) => ({ error: { ...error, message: error.message } }),
    );

  test.each(PROTOCOLS)(
    '%s: a client that declared no elicitation is refused at once, -32021',
    async (protocol) => {
      const client = await connectInMemory(runtime, { protocol });
      try {
        expect(await thrownBy(client.callTool('archive_note'))).toEqual({ error: NEEDS_FORM });
      } finally {
        await client.close();
      }
    },
  );

  test('2026-07-28: a client that declared it gets the input-required result as sent', async () => {
    const client = await connectInMemory(runtime, { capabilities: { elicitation: { form: {} } } });
    try {
      expect(await client.callTool('archive_note')).toEqual({
        resultType: 'input_required',
        inputRequests: {
          'input-1': {
            method: 'elicitation/create',
            params: expect.objectContaining({ message: 'Archive it?', requestedSchema: CONFIRM }),
          },
        },
        requestState: expect.any(String),
        _meta: expect.any(Object),
      });
    } finally {
      await client.close();
    }
  });

  test('2025: a client that declared it is asked, refuses (it answers no question) and the call ends', async () => {
    const client = await connectInMemory(runtime, {
      protocol: '2025-11-25',
      capabilities: { elicitation: {} },
    });
    try {
      // The handler's question fails with the client's refusal, a JSON-RPC error it passes on.
      expect(await thrownBy(client.callTool('archive_note'))).toEqual({
        error: {
          name: 'McpRequestError',
          code: -32601,
          message: 'MCP error -32601: the in-memory client does not answer elicitation/create',
          data: undefined,
        },
      });
    } finally {
      await client.close();
    }
  });
});

describe('what a client receives', () => {
  const calls = [
    { name: 'tag_note', arguments: { path: 'a.md', tags: '["x"]' } },
    { name: 'read_note', arguments: { path: 'missing.md' } },
    { name: 'no_such_tool', arguments: {} },
    { name: 'open_vault', arguments: {} },
  ];
  const answered = async (send: () => Promise<unknown>) =>
    send().then(
      (result) => ({ result }),
      (error: { code: number; message: string; data?: unknown }) => ({
        error: { code: error.code, message: error.message, data: error.data },
      }),
    );

  test('2026-07-28: the answers of the fetch handler, to the byte', async () => {
    const handler = createMcpFetchHandler(runtime, { name: 'toolprep-testing', version: '0.0.0' });
    const client = await connectInMemory(runtime);
    try {
      for (const [index, params] of calls.entries()) {
        const response = await handler(
          new Request('http://localhost/mcp', {
            method: 'POST',
            headers: requestHeaders('tools/call', params),
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: index,
              method: 'tools/call',
              params: { ...params, _meta: requestMeta() },
            }),
          }),
        );
        const { result, error } = JSON.parse(await response.text()) as { result?: unknown; error?: unknown };
        expect(await answered(() => client.callTool(params.name, params.arguments))).toEqual(
          result === undefined ? { error: { data: undefined, ...(error as object) } } : { result },
        );
      }
    } finally {
      await client.close();
    }
  });

  test('2025: the answers the official SDK client gets from the same server', async () => {
    const official = new Client({ name: 'official', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(runtime, { name: 'toolprep-testing', version: '0.0.0' }).connect(serverSide);
    await official.connect(clientSide);
    const client = await connectInMemory(runtime, { protocol: '2025-11-25' });
    try {
      expect(await client.listTools()).toEqual((await official.listTools()).tools);
      for (const params of calls) {
        const theirs = await answered(() => official.callTool(params));
        const ours = await answered(() => client.callTool(params.name, params.arguments));
        // The SDK's McpError prefixes `MCP error <code>: ` to the message the server sent.
        if ('error' in theirs) theirs.error.message = theirs.error.message.replace(/^MCP error -?\d+: /, '');
        expect(ours).toEqual(theirs);
      }
    } finally {
      await client.close();
      await official.close();
    }
  });
});

describe('the example project’s generated module', () => {
  const notes = mkdtempSync(path.join(tmpdir(), 'toolprep-testing-'));
  writeFileSync(path.join(notes, 'todo.md'), '- docs\n');
  afterAll(() => rmSync(notes, { recursive: true, force: true }));
  const example = createToolRuntime(exampleTools, { handlers: createHandlers(notes) });
  const manifest = JSON.parse(
    readFileSync(path.join(REPO, 'examples/notes-server/toolprep.manifest.json'), 'utf8'),
  );

  test.each(PROTOCOLS)('%s: lists the manifest’s tools and calls them', async (protocol) => {
    const client = await connectInMemory(example, { protocol });
    try {
      const listed = await client.listTools();
      expect(listed.map((tool) => [tool.name, tool.inputSchema])).toEqual(
        manifest.tools.map((tool: { name: string; inputSchema: { mcp: unknown } }) => [
          tool.name,
          tool.inputSchema.mcp,
        ]),
      );
      expect(await client.callTool('read_notes', { paths: 'todo.md' })).toMatchObject({
        structuredContent: { notes: [{ path: 'todo.md', text: '- docs\n' }] },
      });
      expect(await client.callTool('read_notes', { paths: '["todo.md"]' })).toMatchObject({ isError: true });
    } finally {
      await client.close();
    }
  });
});
