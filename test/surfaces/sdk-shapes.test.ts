import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { Part } from '@google/genai';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { prepareToolSet } from '@toolprep/build';
import type { ChatCompletionToolMessageParam } from 'openai/resources/chat/completions';
import { defineTool, type ToolResult } from 'toolprep';
import { runAnthropicToolUse } from 'toolprep/anthropic';
import { runToolCli } from 'toolprep/cli';
import { runGeminiFunctionCall } from 'toolprep/gemini';
import { serveHttp } from 'toolprep/mcp';
import { createMcpServer } from 'toolprep/mcp/server';
import { attachTools } from 'toolprep/mcp/v2';
import { runChatToolCall } from 'toolprep/openai';
import { createToolRuntime } from 'toolprep/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { aiOutputShown } from '../support/ai-output.js';

/**
 * Results shaped like the MCP SDK's `CallToolResult` (decision 0038): read as one — content,
 * structured content (parsed by the output schema), `_meta` — and `isError: true` as the tool's
 * error on every surface, never a success; a value that claims the shape and breaks it is refused
 * at run time, naming the field. Titles and icons reach every binding's `tools/list`.
 */

const PNG = 'iVBORw0KGgo=';
const text = (value: string) => ({ type: 'text' as const, text: value });
const counts = z.object({ notes: z.number().int(), words: z.number().default(0) });

const contracts = {
  plain: defineTool({ description: 'Any value.', input: z.object({}) }),
  stats: defineTool({ description: 'Count notes.', input: z.object({}), output: counts }),
  page: defineTool({
    description: 'A page of its own, whose data has a `content` field.',
    input: z.object({}),
    output: z.object({ content: z.array(z.object({ type: z.string(), text: z.string() })) }),
  }),
};
type Returns<Name extends keyof typeof contracts> = ToolResult<(typeof contracts)[Name]>;

const REPORTED = { ok: false, code: 'HANDLER_ERROR' };
const refused = (message: string) => ({
  ok: false,
  code: 'OUTPUT_ERROR',
  message: expect.stringContaining(message),
});

/** Each row: the tool, what its handler returns (typed as the generated handler types take it), the outcome. */
const rows: [description: string, tool: keyof typeof contracts, returned: unknown, outcome: object][] = [
  [
    'content alone, without an output: a result of that content',
    'plain',
    { content: [text('found 3')] } satisfies Returns<'plain'>,
    { ok: true, mcp: { content: [text('found 3')] } },
  ],
  [
    'isError: true, without an output: the tool’s error, its text the message',
    'plain',
    { content: [text('rate limited')], isError: true } satisfies Returns<'plain'>,
    { ...REPORTED, message: 'rate limited', mcp: { content: [text('rate limited')], isError: true } },
  ],
  [
    'isError: false: a success',
    'plain',
    { content: [text('fine')], isError: false } satisfies Returns<'plain'>,
    { ok: true, mcp: { content: [text('fine')] } },
  ],
  [
    'structuredContent, with an output: parsed by it (a default filled in)',
    'stats',
    { content: [text('3 notes')], structuredContent: { notes: 3 } } satisfies Returns<'stats'>,
    { ok: true, mcp: { content: [text('3 notes')], structuredContent: { notes: 3, words: 0 } } },
  ],
  [
    'structuredContent the output refuses',
    'stats',
    // @ts-expect-error: notes is a number
    { content: [text('3 notes')], structuredContent: { notes: 'three' } } satisfies Returns<'stats'>,
    refused('output schema refuses: notes:'),
  ],
  [
    'content without structuredContent, where the output needs one',
    'stats',
    // @ts-expect-error: the output needs structuredContent
    { content: [text('3 notes')] } satisfies Returns<'stats'>,
    refused('output schema refuses'),
  ],
  [
    'isError: true, with an output: an error needs no structured content',
    'stats',
    { content: [text('no index yet')], isError: true } satisfies Returns<'stats'>,
    { ...REPORTED, message: 'no index yet', mcp: { content: [text('no index yet')], isError: true } },
  ],
  [
    'an error of an image alone: MCP gets the image, the other surfaces a message that counts it',
    'plain',
    {
      content: [{ type: 'image', data: PNG, mimeType: 'image/png' }],
      isError: true,
    } satisfies Returns<'plain'>,
    {
      ...REPORTED,
      message: 'Tool "plain" reported an error\n[1 more part of this error, sent to MCP clients only]',
      mcp: { content: [{ type: 'image', data: PNG, mimeType: 'image/png' }], isError: true },
    },
  ],
  [
    '_meta: sent as the result’s _meta',
    'plain',
    { content: [text('traced')], _meta: { 'com.example/trace': 'abc' } } satisfies Returns<'plain'>,
    { ok: true, mcp: { content: [text('traced')], _meta: { 'com.example/trace': 'abc' } } },
  ],
  [
    'isError: true with content that is not a list: refused, never a success',
    'plain',
    { isError: true, content: 'oops' },
    refused('returned an MCP result that is not one: content must be a list of MCP content blocks'),
  ],
  [
    'isError: true beside a key of its own: refused, naming it',
    'plain',
    { isError: true, message: 'oops' },
    refused('"message" is not a key of an MCP CallToolResult (content, structuredContent, isError, _meta)'),
  ],
  [
    'a text block without its text',
    'plain',
    { content: [{ type: 'text' }] },
    refused('content[0] (text) needs text as strings'),
  ],
  [
    'a block of a type MCP does not define',
    'plain',
    { content: [text('a'), { type: 'video', url: 'https://example.com/v.mp4' }] },
    refused('content[1] has type "video", which MCP does not define'),
  ],
  [
    'isError that is not a boolean',
    'stats',
    // @ts-expect-error: isError is true or false
    { content: [text('a')], isError: 'yes' } satisfies Returns<'stats'>,
    refused('isError must be true or false'),
  ],
  [
    'structuredContent that is not an object',
    'plain',
    { content: [text('a')], structuredContent: 'a' },
    refused('structuredContent must be an object'),
  ],
  [
    'a list of strings named content: a plain value, as before',
    'plain',
    { content: ['a', 'b'] } satisfies Returns<'plain'>,
    { ok: true, mcp: { content: [text('{"content":["a","b"]}')] } },
  ],
  [
    'the shape, where the output schema declares `content` itself: the tool’s data, as declared',
    'page',
    { content: [text('a')] } satisfies Returns<'page'>,
    {
      ok: true,
      mcp: {
        content: [text('{"content":[{"type":"text","text":"a"}]}')],
        structuredContent: { content: [text('a')] },
      },
    },
  ],
];

function runtimeReturning(returned: unknown) {
  const handlers = { plain: () => returned, stats: () => returned, page: () => returned };
  return createToolRuntime(prepareToolSet(contracts), { handlers });
}

async function mcpClientOf(runtime: ReturnType<typeof runtimeReturning>): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(runtime, { name: 'test', version: '1.0.0' }).connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

test.each(rows)('%s', async (_, tool, returned, outcome) => {
  const runtime = runtimeReturning(returned);
  const result = await runtime.call(tool, {});
  const { mcp, ...expected } = outcome as { mcp?: unknown };
  expect(
    result.ok ? { ok: true } : { ok: false, code: result.error.code, message: result.error.message },
  ).toEqual(result.ok ? expected : { message: expect.any(String), ...expected });
  const client = await mcpClientOf(runtime);
  try {
    const answer = await client.callTool({ name: tool, arguments: {} });
    // Every failure is an error to the client; a row that names the answer has it exactly.
    if (mcp === undefined) expect(answer).toMatchObject({ isError: true });
    else expect(answer).toEqual(mcp);
  } finally {
    await client.close();
  }
});

describe('an SDK result on every surface: a success is a success, an error an error', () => {
  const DOWN = 'the index is being rebuilt';
  const runtime = createToolRuntime(
    prepareToolSet(
      {
        found: defineTool({ description: 'Finds.', input: z.object({}) }),
        down: defineTool({ description: 'Fails.', input: z.object({}) }),
      },
      { profiles: ['openai-strict', 'anthropic', 'gemini'] },
    ),
    {
      handlers: {
        found: () => ({ content: [text('found 3')] }),
        down: () => ({ content: [text(DOWN)], isError: true }),
      },
    },
  );
  const surfaces = async (name: string) => {
    const chat: ChatCompletionToolMessageParam = await runChatToolCall(runtime, {
      id: 'call_1',
      type: 'function',
      function: { name, arguments: '{}' },
    });
    const { content, is_error }: ToolResultBlockParam = await runAnthropicToolUse(runtime, {
      id: 'tu_1',
      name,
      input: {},
    });
    const gemini: Part = await runGeminiFunctionCall(runtime, { id: 'g1', name, args: {} });
    const lines: string[] = [];
    const exit = await runToolCli(runtime, [name], {
      stdout: (line) => lines.push(line),
      stderr: (line) => lines.push(`stderr: ${line}`),
    });
    return {
      ai: await aiOutputShown(runtime, name),
      chat: chat.content,
      anthropic: { content, is_error },
      gemini: gemini.functionResponse?.response,
      cli: { exit, lines },
    };
  };

  test('a result: its text, as a success', async () => {
    expect(await surfaces('found')).toEqual({
      ai: { type: 'content', value: [text('found 3')] },
      chat: 'found 3',
      anthropic: { content: 'found 3', is_error: undefined },
      gemini: { output: 'found 3' },
      cli: { exit: 0, lines: ['found 3'] },
    });
  });

  test('isError: true: its text, as an error', async () => {
    expect(await surfaces('down')).toEqual({
      ai: { type: 'error-text', value: DOWN },
      chat: DOWN,
      anthropic: { content: DOWN, is_error: true },
      gemini: { error: DOWN },
      cli: { exit: 1, lines: [`stderr: ${DOWN}`] },
    });
  });
});

describe('title, icons and SDK results over the wire, on every binding and era', () => {
  const ICONS = [
    { src: 'https://example.com/find.png', mimeType: 'image/png', sizes: ['48x48'] },
    { src: `data:image/png;base64,${PNG}`, theme: 'dark' as const },
  ];
  const runtime = createToolRuntime(
    prepareToolSet({
      findNotes: defineTool({
        title: 'Find notes',
        icons: ICONS,
        description: 'Find notes by words.',
        input: z.object({ words: z.string() }),
        output: z.object({ paths: z.array(z.string()) }),
      }),
      lockedVault: defineTool({ description: 'Open the vault.', input: z.object({}) }),
    }),
    {
      handlers: {
        find_notes: ({ words }: { words: string }) => ({
          content: [text(`a.md has ${words}`)],
          structuredContent: { paths: ['a.md'] },
        }),
        locked_vault: () => ({ content: [text('the vault is locked')], isError: true }),
      },
    },
  );
  const LISTED = {
    name: 'find_notes',
    title: 'Find notes',
    description: 'Find notes by words.',
    icons: ICONS,
  };
  const FOUND = { content: [text('a.md has may')], structuredContent: { paths: ['a.md'] } };
  const LOCKED = { content: [text('the vault is locked')], isError: true };

  let own: HttpServer;
  let ownUrl: URL;
  let sdk: HttpServer;
  let sdkUrl: URL;
  beforeAll(async () => {
    own = await serveHttp(runtime, { name: 'own', version: '1.0.0' }, 0);
    ownUrl = new URL(`http://127.0.0.1:${(own.address() as AddressInfo).port}/mcp`);
    const handler = toNodeHandler(
      createMcpHandler(() => attachTools(new McpServer({ name: 'user-v2', version: '1.0.0' }), runtime)),
    );
    sdk = createServer((request, response) => void handler(request, response));
    await new Promise<void>((resolve) => sdk.listen(0, '127.0.0.1', resolve));
    sdkUrl = new URL(`http://127.0.0.1:${(sdk.address() as AddressInfo).port}/mcp`);
  });
  afterAll(() => {
    own?.close();
    sdk?.close();
  });

  type Session = {
    listTools(): Promise<{ tools: object[] }>;
    callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
    close(): Promise<void>;
  };
  const v2 = async (url: () => URL, pin?: string): Promise<[Session, string | undefined]> => {
    const client = new ClientV2(
      { name: 'test', version: '1.0.0' },
      pin ? { versionNegotiation: { mode: { pin } } } : {},
    );
    await client.connect(new StreamableHTTPClientTransportV2(url()));
    return [client, client.getNegotiatedProtocolVersion()];
  };
  const v1 = async (connect: (client: Client) => Promise<void>): Promise<[Session, string | undefined]> => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await connect(client);
    // SDK v1 speaks the 2025 revisions alone, and says not which it agreed.
    return [client, undefined];
  };
  const bindings: [string, () => Promise<[Session, string | undefined]>, RegExp | undefined][] = [
    [
      'toolprep’s own server, 2026-07-28, SDK v2 client',
      () => v2(() => ownUrl, '2026-07-28'),
      /^2026-07-28$/,
    ],
    [
      'toolprep’s own server, 2025, SDK v1 client',
      () => v1((client) => client.connect(new StreamableHTTPClientTransport(ownUrl))),
      undefined,
    ],
    [
      'a user’s SDK v2 server, 2026-07-28, SDK v2 client',
      () => v2(() => sdkUrl, '2026-07-28'),
      /^2026-07-28$/,
    ],
    ['a user’s SDK v2 server, 2025, SDK v2 client', () => v2(() => sdkUrl), /^2025-/],
    [
      'an SDK v1 server, 2025, SDK v1 client',
      () =>
        v1(async (client) => {
          const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
          await createMcpServer(runtime, { name: 'v1', version: '1.0.0' }).connect(serverSide);
          await client.connect(clientSide);
        }),
      undefined,
    ],
  ];

  /** A 2026-07-28 result's `_meta` names the server, and nothing else here. */
  const withoutServerInfo = (answer: unknown) => {
    const { _meta, ...rest } = answer as { _meta?: Record<string, unknown> };
    const { 'io.modelcontextprotocol/serverInfo': _server, ...meta } = _meta ?? {};
    return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
  };

  test.each(bindings)('%s', async (_, open, era) => {
    const [client, version] = await open();
    try {
      if (era) expect(version).toMatch(era);
      const { tools } = await client.listTools();
      expect(tools.find((tool) => (tool as { name: string }).name === 'find_notes')).toMatchObject(LISTED);
      expect(
        withoutServerInfo(await client.callTool({ name: 'find_notes', arguments: { words: 'may' } })),
      ).toEqual(FOUND);
      expect(withoutServerInfo(await client.callTool({ name: 'locked_vault', arguments: {} }))).toEqual(
        LOCKED,
      );
    } finally {
      await client.close();
    }
  });
});
