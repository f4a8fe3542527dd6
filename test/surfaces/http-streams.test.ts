import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListResourcesRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { attachTools, type McpHttpOptions, serveHttp } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import { expect, test } from 'vitest';
import { z } from 'zod';

/**
 * Over HTTP, a handler's notifications reach the client: a request that asks for progress is
 * answered by a stream; and the HTTP helpers serve the user's own server, with more than tools.
 */
type Extra = {
  sendNotification(notification: object): Promise<void>;
  _meta?: { progressToken?: string | number };
};
const count = defineTool({ description: 'Count to three.', input: z.object({}) });
const runtime = createToolRuntime(prepareToolSet({ count }), {
  handlers: {
    count: async (_args: unknown, context: unknown) => {
      const { sendNotification, _meta } = context as Extra;
      for (let step = 1; step <= 3; step++)
        if (_meta?.progressToken !== undefined)
          await sendNotification({
            method: 'notifications/progress',
            params: { progressToken: _meta.progressToken, progress: step, total: 3 },
          });
      return 'three';
    },
  },
});

async function withClient(options: McpHttpOptions, use: (client: Client) => Promise<void>): Promise<void> {
  const server = await serveHttp(runtime, { name: 'test', version: '1.0.0' }, 0, options);
  const { port } = server.address() as AddressInfo;
  const client = new Client({ name: 'test', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    await use(client);
  } finally {
    await client.close();
    server.close();
  }
}

test.each<[string, McpHttpOptions, number[]]>([
  ['by default, a call that asks for progress is answered by a stream with its notifications', {}, [1, 2, 3]],
  ['answers as JSON when told to: the notifications cannot travel', { responses: 'json' }, []],
])('%s', async (_case, options, expected) => {
  await withClient(options, async (client) => {
    const progress: number[] = [];
    const result = await client.callTool({ name: 'count', arguments: {} }, undefined, {
      onprogress: ({ progress: step }) => progress.push(step),
    });
    expect(result.content).toEqual([{ type: 'text', text: 'three' }]);
    expect(progress).toEqual(expected);
  });
});

test("the user's own server, with resources beside the tools, through the same helper", async () => {
  const own = () => {
    const server = new Server({ name: 'own', version: '1.0.0' }, { capabilities: { resources: {} } });
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: [{ uri: 'file:///notes/a.md', name: 'a.md' }],
    }));
    return attachTools(server, runtime);
  };
  await withClient({ server: own }, async (client) => {
    expect((await client.listResources()).resources).toEqual([{ uri: 'file:///notes/a.md', name: 'a.md' }]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['count']);
    expect(client.getServerVersion()?.name).toBe('own');
  });
});
