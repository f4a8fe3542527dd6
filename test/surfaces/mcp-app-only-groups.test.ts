import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { serveHttp } from 'toolprep/mcp';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import type { PreparedToolSet } from 'toolprep/runtime';
import { createToolRuntime } from 'toolprep/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { modernRequest } from '../support/modern-request.js';
import { viewToolSet } from '../support/view-tool-set.js';

/**
 * A client that renders no view (it did not declare `io.modelcontextprotocol/ui`) meets no
 * app-only tool anywhere (decision 0073): not in the groups draft's `tools/list`, `groups/list`
 * (an undescribed group is described by the tools it sees; a group of app-only tools only is not
 * offered), `groups/get` or what `search_tools` finds, and no `_meta.ui`. A host that renders views gets them all, linked.
 * Through the official SDK v2 client and raw 2026-07-28 requests.
 */

const VERSION = '2026-07-28';
const GROUPS = 'io.modelcontextprotocol/groups';
const UI = 'io.modelcontextprotocol/ui';
const HOST = { extensions: { [GROUPS]: {}, [UI]: { mimeTypes: ['text/html;profile=mcp-app'] } } };
const PLAIN = { extensions: { [GROUPS]: {} } };
const info = { name: 'views', version: '1.0.0' };
const html = { forecast: '<p>forecast</p>', gallery: '<p>gallery</p>', todo: '<p>todo</p>' };
const origins = { api: 'https://api.example.com', cdn: 'https://cdn.example.com' };

// The to-do tools deferred in an undescribed group; the app-only `todo_add` alone in `helpers` too.
const placement: Record<string, { groups: string[]; deferred?: true }> = {
  weather: { groups: ['outside'] },
  gallery: { groups: ['outside'] },
  todo_list: { groups: ['todo'], deferred: true },
  todo_add: { groups: ['todo', 'helpers'], deferred: true },
};
const base = viewToolSet(html, origins, { search: { tool: true } });
const toolSet: PreparedToolSet = {
  ...base,
  groups: [{ name: 'outside', description: 'Weather and pictures.' }, { name: 'todo' }, { name: 'helpers' }],
  prepared: base.prepared.map((tool) => {
    const placed = placement[tool.name] as (typeof placement)[string];
    return { ...tool, groups: placed.groups, ...(placed.deferred ? { loading: 'deferred' as const } : {}) };
  }),
};
const runtime = createToolRuntime(toolSet, {
  handlers: {
    weather: ({ city }: { city: string }) => ({ city, temperature: 21 }),
    gallery: ({ tag }: { tag: string }) => ({ tag, images: [] }),
    todo_list: () => ({ items: [] }),
    todo_add: ({ item }: { item: string }) => ({ items: [item] }),
  },
});

const handle = createMcpFetchHandler(runtime, info, { responses: 'json' });
async function ask(
  method: string,
  params: object,
  capabilities: object,
  headers: Record<string, string> = {},
): Promise<string> {
  const response = await handle(modernRequest('http://localhost/mcp', method, params, capabilities, headers));
  expect(response.status).toBe(200);
  return response.text();
}

/** Every answer of the draft a client can ask for: the list, the groups, each group of the whole set. */
async function everyAnswer(capabilities: object): Promise<Record<string, string>> {
  const answers: Record<string, string> = {
    'tools/list': await ask('tools/list', {}, capabilities),
    'groups/list': await ask('groups/list', {}, capabilities),
  };
  for (const { name } of toolSet.groups ?? [])
    answers[`groups/get ${name}`] = await ask('groups/get', { name }, capabilities);
  const query = { name: 'search_tools', arguments: { query: 'add an item to the to-do list', limit: 5 } };
  answers.search_tools = await ask('tools/call', query, capabilities, { 'mcp-name': 'search_tools' });
  return answers;
}

const names = (answer: string): string[] => {
  const { result } = JSON.parse(answer);
  return (result.tools ?? result.contents?.tools ?? result.groups).map((one: { name: string }) => one.name);
};

describe('the groups draft, by whether the client renders views', () => {
  test('a client that renders none meets no app-only tool and no _meta.ui in any answer', async () => {
    const answers = await everyAnswer(PLAIN);
    for (const [asked, answer] of Object.entries(answers)) {
      expect(answer, asked).not.toContain('todo_add');
      expect(answer, asked).not.toContain('"ui"');
      expect(answer, asked).not.toContain('ui/resourceUri');
    }
    expect(names(answers['tools/list'] as string)).toEqual(['weather', 'gallery', 'search_tools']);
    expect(answers.search_tools).toContain('todo_list');
    expect(JSON.parse(answers['groups/list'] as string).result.groups).toEqual([
      { name: 'todo', description: 'Tools: todo_list.' },
    ]);
    expect(names(answers['groups/get todo'] as string)).toEqual(['todo_list']);
    // A group of app-only tools only is unknown to it, and its refusal names only what it is offered.
    expect(JSON.parse(answers['groups/get helpers'] as string).error).toMatchObject({
      code: -32002,
      message: 'Unknown group "helpers". Groups: todo.',
    });
  });

  test('a host gets every group and tool, each linked to its view', async () => {
    const answers = await everyAnswer(HOST);
    expect(JSON.parse(answers['groups/list'] as string).result.groups).toEqual([
      { name: 'todo', description: 'Tools: todo_list, todo_add.' },
      { name: 'helpers', description: 'Tools: todo_add.' },
    ]);
    const todo = JSON.parse(answers['groups/get todo'] as string).result.contents.tools;
    expect(todo.map((tool: { name: string }) => tool.name)).toEqual(['todo_list', 'todo_add']);
    expect(todo[1]._meta.ui).toEqual({
      resourceUri: expect.stringMatching(/^ui:\/\/todo\//),
      visibility: ['app'],
    });
    expect(names(answers['groups/get helpers'] as string)).toEqual(['todo_add']);
    expect(answers.search_tools).toContain('todo_add');
  });
});

describe('through the SDK v2 client over HTTP', () => {
  let url: URL;
  let close: () => void;
  beforeAll(async () => {
    const server = await serveHttp(runtime, info, 0);
    url = new URL(`http://localhost:${(server.address() as AddressInfo).port}/mcp`);
    close = () => server.close();
  });
  afterAll(() => close?.());

  test('groups/get hands a client without the ui extension the tools its model may call, unlinked', async () => {
    const client = new Client(info, { capabilities: PLAIN, versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(url));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(VERSION);
      const GroupGet = z.object({
        contents: z.object({ tools: z.array(z.object({ name: z.string() }).passthrough()) }),
      });
      const todo = await client.request(
        { method: 'groups/get', params: { name: 'todo' } } as never,
        GroupGet,
      );
      expect(todo.contents.tools.map((tool) => tool.name)).toEqual(['todo_list']);
      expect(todo.contents.tools[0]?._meta).toEqual({ [GROUPS]: ['todo'] });
    } finally {
      await client.close();
    }
  });
});
