import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import type { McpToolContext } from 'toolprep/mcp';
import { attachTools } from 'toolprep/mcp/v2';
import { createToolRuntime } from 'toolprep/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';

/**
 * toolprep's tools on a user's own SDK v2 server (a resource and a prompt of its own), served the
 * SDK's documented way, `createMcpHandler` with a factory per request: the SDK converts no schema,
 * the documents go out as prepared, and every call gets the plan and one parse.
 */

const LIST = 'paths is a list written as text — pass the array itself, not JSON written as text';
let parses = 0;
const tagNotes = defineTool({
  description: 'Set the tags of several notes at once.',
  input: z.object({
    notes: z.array(z.object({ title: z.string(), tags: z.array(z.string()) })).transform((notes) => {
      parses++;
      return notes;
    }),
  }),
});
const deleteNotes = defineTool({
  description: 'Delete one note or several.',
  input: z.object({ paths: z.union([z.string(), z.array(z.string())]) }),
});
const runtime = createToolRuntime(prepareToolSet({ tagNotes, deleteNotes }), {
  handlers: {
    tag_notes: ({ notes }: { notes: { title: string }[] }) =>
      `tagged ${notes.map((note) => note.title).join(', ')}`,
    delete_notes: async ({ paths }: { paths: string | string[] }, context: McpToolContext) => {
      const answer = await context.elicit({
        message: `Delete ${[paths].flat().join(', ')}?`,
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean' } },
          required: ['confirm'],
        },
      });
      return answer.content?.confirm === true ? `deleted ${[paths].flat().length}` : 'kept them';
    },
  },
});

let factoryCalls = 0;
/** The user's server: a resource and a prompt of its own, and toolprep's tools. */
function userServer(): McpServer {
  factoryCalls++;
  const server = new McpServer({ name: 'user-v2', version: '1.0.0' });
  server.registerResource('readme', 'notes://readme', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, text: 'Notes, tagged.' }],
  }));
  server.registerPrompt('summarise', { description: 'Summarise the notes.' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'Summarise my notes.' } }],
  }));
  return attachTools(server, runtime, {
    requestState: { key: 'a shared secret of thirty-two characters or more' },
  });
}

let http: HttpServer;
let url: string;
beforeAll(async () => {
  const handler = toNodeHandler(createMcpHandler(userServer));
  http = createServer((request, response) => void handler(request, response));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterAll(() => http?.close());

describe('tools attached to a user’s SDK v2 McpServer, served by createMcpHandler', () => {
  test('the v2 client on 2026-07-28 sees the prepared documents byte for byte beside the server’s own resources and prompts', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    const tools = runtime
      .list()
      .map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema.mcp }));
    expect(await response.text()).toContain(`"tools":${JSON.stringify(tools)}`);

    const client = new Client(
      { name: 'test', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { confirm: true },
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
        'delete_notes',
        'tag_notes',
      ]);
      expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([
        'notes://readme',
      ]);
      expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['summarise']);

      parses = 0;
      expect(
        await client.callTool({
          name: 'tag_notes',
          arguments: { notes: JSON.stringify([{ title: 'a', tags: ['x'] }]) },
        }),
      ).toMatchObject({ content: [{ type: 'text', text: 'tagged a' }] });
      expect(parses).toBe(1);
      expect(
        await client.callTool({ name: 'delete_notes', arguments: { paths: '["a.md","b.md"]' } }),
      ).toMatchObject({
        isError: true,
        content: [{ text: LIST }],
      });
      // The question is an input-required result, and the SDK's client answers and retries.
      expect(
        await client.callTool({ name: 'delete_notes', arguments: { paths: ['a.md', 'b.md'] } }),
      ).toMatchObject({
        content: [{ text: 'deleted 2' }],
      });
      await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
    } finally {
      await client.close();
    }
    // A fresh server per request, as the SDK serves: each one cost three registrations, not one per tool.
    expect(factoryCalls).toBeGreaterThan(5);
  });

  test('a 2025 client is served by the same factory', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toMatch(/^2025-/);
      expect(
        await client.callTool({
          name: 'tag_notes',
          arguments: { notes: JSON.stringify([{ title: 'b', tags: [] }]) },
        }),
      ).toMatchObject({ content: [{ text: 'tagged b' }] });
    } finally {
      await client.close();
    }
  });
});
