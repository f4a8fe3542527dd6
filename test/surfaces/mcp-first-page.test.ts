import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { createToolRuntime, type ToolRuntime } from 'toolprep/runtime';
import { expect, test } from 'vitest';
import { z } from 'zod';

/**
 * A `tools/list` page writes the tools it sends and no others (decision 0069): a first page of a
 * long list reads nothing of the tools past it, and the pages together are the whole list, byte
 * for byte.
 */

const COUNT = 7;
const PAGE_SIZE = 3;
const contracts = Object.fromEntries(
  Array.from({ length: COUNT }, (_, index) => [
    `tool${index}`,
    defineTool({
      description: `Tool ${index}.`,
      input: z.object({ field: z.string().describe(`The field of tool ${index}`) }),
      annotations: { readOnlyHint: index % 2 === 0 },
    }),
  ]),
);

/** A runtime whose tools count the reads of their description, by tool. */
function countingRuntime() {
  const tools = prepareToolSet(contracts, { warn: () => {} });
  const reads = new Map<string, number>();
  // Each prepared tool as it is, but for a description that counts its reads.
  const prepared = tools.prepared.map((tool) =>
    Object.defineProperty({ ...tool }, 'description', {
      enumerable: true,
      get: () => {
        reads.set(tool.name, (reads.get(tool.name) ?? 0) + 1);
        return tool.description;
      },
    }),
  );
  const handlers = Object.fromEntries(prepared.map((tool) => [tool.name, () => 'ok']));
  return { runtime: createToolRuntime({ ...tools, prepared }, { handlers }), reads };
}

/** The official SDK v2 client, pinned to 2026-07-28, on a fetch handler of the runtime's tools. */
async function connected(runtime: ToolRuntime, options: { pageSize?: number } = {}): Promise<Client> {
  const handle = createMcpFetchHandler(runtime, { name: 'test', version: '1.0.0' }, options);
  const client = new Client(
    { name: 'test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
      fetch: (url, init) => handle(new Request(url, init)),
    }),
  );
  return client;
}

test('a first page reads only its own tools, and the pages make the whole list byte for byte', async () => {
  const { runtime, reads } = countingRuntime();
  const paged = await connected(runtime, { pageSize: PAGE_SIZE });
  const whole = await connected(countingRuntime().runtime);
  try {
    // One page, as `listTools()` without a cursor would read every page.
    const first = await paged.request({ method: 'tools/list', params: {} });
    expect(paged.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(first.tools.map((tool) => tool.name)).toEqual(['tool0', 'tool1', 'tool2']);
    expect([...reads.keys()].sort()).toEqual(['tool0', 'tool1', 'tool2']);

    const pages = [first];
    for (let cursor = first.nextCursor; cursor !== undefined; cursor = pages.at(-1)?.nextCursor)
      pages.push(await paged.listTools({ cursor }));
    expect(pages.map((page) => page.tools.length)).toEqual([3, 3, 1]);

    const all = await whole.listTools();
    expect(all.nextCursor).toBeUndefined();
    expect(JSON.stringify(pages.flatMap((page) => page.tools))).toBe(JSON.stringify(all.tools));
  } finally {
    await Promise.all([paged.close(), whole.close()]);
  }
});
