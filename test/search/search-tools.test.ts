import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { prepareToolSet } from '@toolprep/build';
import fc from 'fast-check';
import { defineTool } from 'toolprep';
import { aiTools } from 'toolprep/ai';
import { anthropicTools, runAnthropicToolUse } from 'toolprep/anthropic';
import { createMcpServer } from 'toolprep/mcp/server';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { openaiResponsesTools } from 'toolprep/openai';
import { type Caller, createToolRuntime, runtimeFor, searchTools } from 'toolprep/runtime';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { PreparedTool } from '../../src/manifest/prepared-tool.js';
import { rankSearchIndex, searchTerms } from '../../src/manifest/search-index.js';
import { buildSearchIndex, SEARCH_WEIGHTS, searchFields } from '../../src/prepare/search-index.js';

const createIssue = defineTool({
  name: 'create_issue',
  description: 'Create an issue in a project. Returns its key.',
  input: z.object({ project: z.string().describe('The project key, e.g. WEB.'), title: z.string() }),
});
const listIssues = defineTool({
  name: 'list_issues',
  description: 'List the issues of a project, filtered by state.',
  input: z.object({ project: z.string(), state: z.enum(['open', 'closed']).optional() }),
});
const sendMessage = defineTool({
  name: 'send_message',
  description: 'Post a chat message to a channel.',
  input: z.object({ channel: z.string(), text: z.string() }),
});
const contracts = { createIssue, listIssues, sendMessage };
const handlers = { create_issue: () => 'WEB-1', list_issues: () => [], send_message: () => 'sent' };

describe('the index answers as Okapi BM25 over the weighted documents would', () => {
  /** Plain BM25 over each document as a list of terms, each field repeated by its weight. */
  function referenceScores(tools: readonly PreparedTool[], query: string): number[] {
    const documents = tools.map((tool) =>
      searchFields(tool, SEARCH_WEIGHTS).flatMap(({ text, weight }) =>
        Array.from({ length: weight }, () => searchTerms(text)).flat(),
      ),
    );
    const average = documents.reduce((sum, terms) => sum + terms.length, 0) / documents.length;
    return documents.map((terms) =>
      [...new Set(searchTerms(query))].reduce((score, term) => {
        const tf = terms.filter((each) => each === term).length;
        if (tf === 0) return score;
        const n = documents.filter((each) => each.includes(term)).length;
        const idf = Math.log(1 + (documents.length - n + 0.5) / (n + 0.5));
        return score + (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * terms.length) / average));
      }, 0),
    );
  }

  const word = fc.constantFrom(
    'issue',
    'issues',
    'create',
    'list',
    'project',
    'the',
    'channel',
    'message',
    'Policy',
    'policies',
  );
  const text = fc.array(word, { maxLength: 8 }).map((words) => words.join(' '));
  const tool = fc.record({
    name: fc.tuple(word, word).map(([a, b]) => `${a}_${b}`.toLowerCase()),
    description: text.filter((value) => value.trim() !== ''),
    argument: fc.tuple(word, text),
  });

  test('for any tools and query, the same scores (to 1e-9)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(tool, { minLength: 1, maxLength: 12, selector: (entry) => entry.name }),
        text,
        (entries, query) => {
          const tools = entries.map(
            ({ name, description, argument: [key, about] }) =>
              ({
                name,
                description,
                inputSchema: {
                  mcp: { type: 'object', properties: { [key]: { type: 'string', description: about } } },
                },
              }) as unknown as PreparedTool,
          );
          const expected = referenceScores(tools, query);
          const index = JSON.parse(JSON.stringify(buildSearchIndex(tools)));
          const found = rankSearchIndex(index, query, tools.length);
          expect(found.length).toBe(expected.filter((score) => score > 0).length);
          for (const { document, score } of found) expect(score).toBeCloseTo(expected[document] as number, 9);
          // Best first, ties by position.
          for (let at = 1; at < found.length; at++) {
            const [before, after] = [found[at - 1], found[at]] as [
              (typeof found)[number],
              (typeof found)[number],
            ];
            expect(
              before.score > after.score ||
                (before.score === after.score && before.document < after.document),
            ).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('search_tools: listed last, answered from the index, in each surface’s dialect', () => {
  const toolSet = prepareToolSet(contracts, {
    search: { tool: true },
    profiles: ['openai-strict', 'anthropic'],
  });
  const runtime = createToolRuntime(toolSet, { handlers });

  test('searchTools ranks by the index built with the tools; a set without search is refused', () => {
    expect(searchTools(toolSet, 'post a message in the team channel')[0]).toEqual({
      name: 'send_message',
      summary: 'Post a chat message to a channel.',
      score: expect.any(Number),
    });
    expect(searchTools(toolSet, 'issues', { limit: 1 }).map((found) => found.name)).toEqual(['list_issues']);
    expect(() => searchTools(prepareToolSet(contracts), 'issues')).toThrow(/no search index: set search/);
  });

  test('the runtime lists it and answers a call with names, summaries and definitions', async () => {
    expect(runtime.list().map((tool) => tool.name)).toEqual([
      'create_issue',
      'list_issues',
      'send_message',
      'search_tools',
    ]);
    const answer = await runtime.call('search_tools', { query: 'create an issue', limit: 1 });
    expect(answer).toEqual({
      ok: true,
      value: {
        tools: [{ name: 'create_issue', description: 'Create an issue in a project.' }],
        definitions: [
          {
            name: 'create_issue',
            description: 'Create an issue in a project. Returns its key.',
            inputSchema: toolSet.prepared[0]?.inputSchema.mcp,
          },
        ],
      },
    });
    const strict = await runtime.call('search_tools', { query: 'create an issue', limit: null }, undefined, {
      profile: 'openai-strict',
    });
    expect(
      strict.ok && (strict.value as { definitions: { inputSchema: unknown }[] }).definitions[0]?.inputSchema,
    ).toEqual(toolSet.prepared[0]?.profiles?.['openai-strict']?.inputSchema);
    const refused = await runtime.call('search_tools', { query: ' ', limit: 99, extra: 1 });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error.issues.map((issue) => issue.path)).toEqual([
      ['query'],
      ['limit'],
      ['extra'],
    ]);
    expect((await runtime.check('search_tools', { query: 'issue' })).ok).toBe(true);
  });

  test('a caller is found only the tools it sees, and a search names no tool it does not', async () => {
    const scoped = createToolRuntime(
      {
        ...toolSet,
        prepared: toolSet.prepared.map((tool) =>
          tool.name === 'create_issue' ? { ...tool, access: { scopes: ['issues:write'] } } : tool,
        ),
      },
      { handlers },
    );
    const names = async (caller: Caller) => {
      const answer = await runtimeFor(scoped, { caller }).call('search_tools', {
        query: 'create an issue',
        limit: 5,
      });
      return answer.ok
        ? (answer.value as { tools: { name: string }[] }).tools.map((tool) => tool.name)
        : answer;
    };
    expect(await names({ subject: 'writer', scopes: ['issues:write'] })).toContain('create_issue');
    const read = await names({ subject: 'reader', scopes: [] });
    expect(Array.isArray(read) && !read.includes('create_issue')).toBe(true);
  });

  test('an MCP client (SDK v1) lists it and calls it, structured content and all', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(runtime, { name: 'test', version: '1.0.0' }).connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    expect(tools.at(-1)).toMatchObject({ name: 'search_tools', annotations: { readOnlyHint: true } });
    const result = await client.callTool({ name: 'search_tools', arguments: { query: 'chat channel' } });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ tools: [{ name: 'send_message' }] });
    await client.close();
  });

  test('beside deferred tools it stays eager: Claude Code loads it up front (anthropic/alwaysLoad)', async () => {
    const deferred = createToolRuntime(
      prepareToolSet(contracts, { search: { tool: true }, loading: { deferAbove: 0 } }),
      { handlers },
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(deferred, { name: 'test', version: '1.0.0' }).connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    expect(
      tools.filter((tool) => tool._meta?.['anthropic/alwaysLoad'] === true).map((tool) => tool.name),
    ).toEqual(['search_tools']);
    await client.close();
  });

  test('an MCP client (SDK v2, 2026-07-28) lists it and calls it', async () => {
    const handler = createMcpFetchHandler(runtime, { name: 'test', version: '1.0.0' });
    const client = new ClientV2(
      { name: 'test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
        fetch: (input, init) => handler(new Request(input, init)),
      }),
    );
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('search_tools');
    const result = await client.callTool({ name: 'search_tools', arguments: { query: 'list issues' } });
    const found = (result.structuredContent as { tools: { name: string }[] }).tools;
    expect(found.map((tool) => tool.name)).toEqual(['list_issues']);
    await client.close();
  });

  test('the provider surfaces send it in their dialect and run it', async () => {
    const openai = openaiResponsesTools(runtime);
    expect(openai.at(-1)).toMatchObject({ name: 'search_tools', strict: true });
    const anthropic = anthropicTools(runtime);
    expect(anthropic.at(-1)?.name).toBe('search_tools');
    const result = await runAnthropicToolUse(runtime, {
      id: 'toolu_1',
      name: 'search_tools',
      input: { query: 'issue project' },
    });
    expect(JSON.stringify(result)).toContain('create_issue');
    const ai = aiTools(runtime);
    const executed = await ai.search_tools?.execute?.(
      { query: 'chat' },
      { toolCallId: 'call-1', messages: [] },
    );
    expect(executed).toMatchObject({ tools: [{ name: 'send_message' }] });
  });
});
