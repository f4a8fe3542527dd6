import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { Agent, run, setDefaultOpenAIClient, setTracingDisabled } from '@openai/agents';
import { prepareToolSet } from '@toolprep/build';
import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import fc from 'fast-check';
import OpenAI from 'openai';
import type { Tool as ResponsesApiTool } from 'openai/resources/responses/responses';
import { defineTool } from 'toolprep';
import { aiTools } from 'toolprep/ai';
import { anthropicTools } from 'toolprep/anthropic';
import { geminiTools } from 'toolprep/gemini';
import { openaiChatTools, openaiResponsesTools, runResponsesFunctionCall } from 'toolprep/openai';
import { agentsTools } from 'toolprep/openai-agents';
import { createToolRuntime, type PreparedToolSet } from 'toolprep/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { PROFILE_NAMES, type ProfileName } from '../../src/manifest/profiles.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';
import { propertyRuns } from '../support/property-runs.js';
import { scriptedFetch } from '../support/scripted-fetch.js';

/**
 * One deferral decision, every surface (decision 0047): the tools the build deferred reach each
 * provider in its own words, judged by its SDK's types (tsc, on the typed constants below) and
 * code (each SDK sends the request through an injected `fetch`; `@openai/agents` lays out the
 * namespaces itself and refuses deferred tools without its tool search).
 */

const input = z.object({ id: z.string() });
const plain = {
  createIssue: defineTool({ description: 'Open an issue.', input }),
  closeIssue: defineTool({ description: 'Close an issue.', input }),
  searchIssues: defineTool({ description: 'Find issues by words.', input }),
  listProjects: defineTool({ description: 'List the projects.', input }),
  archiveProject: defineTool({ description: 'Archive a project.', input }),
  whoami: defineTool({ description: 'The signed-in user.', input }),
};
/** The same tools, their contracts saying their groups and loading. */
const disclosed = {
  createIssue: defineTool({ ...plain.createIssue, group: 'issues', loading: 'deferred' }),
  closeIssue: defineTool({ ...plain.closeIssue, group: 'issues', loading: 'deferred' }),
  searchIssues: defineTool({ ...plain.searchIssues, group: 'issues' }),
  listProjects: defineTool({ ...plain.listProjects, group: 'projects', loading: 'deferred' }),
  archiveProject: defineTool({ ...plain.archiveProject, group: 'projects', loading: 'deferred' }),
  whoami: defineTool({ ...plain.whoami, group: 'account' }),
};
const ISSUES = 'Issues: open, close and find them.';
// The groups without a description are warned of; these tests read the surfaces.
const quietly = { profiles: [...PROFILE_NAMES], warn: () => {} };

const EAGER = prepareToolSet(plain, quietly);
/** Grouped by the contracts, one tool in a second group by the config. */
const GROUPED = prepareToolSet(disclosed, {
  ...quietly,
  groups: { issues: { description: ISSUES }, triage: { tools: ['close_issue'] } },
});
/** No groups, and over its size: every tool deferred but the one the config keeps eager. */
const UNGROUPED = prepareToolSet(plain, { ...quietly, loading: { deferAbove: 0, eager: ['whoami'] } });
/** Every tool, whole, in the order of the set. */
const ALL_NAMES = EAGER.prepared.map(({ name }) => name);

const calls: unknown[] = [];
const runtimeOf = (set: PreparedToolSet) =>
  createToolRuntime(set, {
    handlers: Object.fromEntries(
      set.prepared.map(({ name }) => [
        name,
        (args: unknown) => {
          calls.push([name, args]);
          return `${name} done`;
        },
      ]),
    ),
  });

/** What a surface sends, one entry a tool: its name and its deferral, or the entry it is. */
const deferred = (name: string) => `${name} (deferred)`;

describe('Anthropic: defer_loading and a tool search tool first', () => {
  const BM25 = { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };
  test.each<[string, PreparedToolSet, Parameters<typeof anthropicTools>[1], unknown[]]>([
    ['no tool deferred: as before', EAGER, {}, ALL_NAMES],
    [
      'grouped: the deferred flagged, BM25 search first',
      GROUPED,
      {},
      [
        BM25,
        deferred('create_issue'),
        deferred('close_issue'),
        'search_issues',
        deferred('list_projects'),
        deferred('archive_project'),
        'whoami',
      ],
    ],
    [
      'regex search on request',
      UNGROUPED,
      { toolSearch: 'regex' },
      [
        { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
        ...['create_issue', 'close_issue', 'search_issues', 'list_projects', 'archive_project'].map(deferred),
        'whoami',
      ],
    ],
    ['deferral: false: every tool whole', GROUPED, { deferral: false }, ALL_NAMES],
    [
      'only eager tools chosen: no search',
      GROUPED,
      { tools: ['whoami', 'search_issues'] },
      ['whoami', 'search_issues'],
    ],
    [
      'strict, a deferred tool chosen',
      GROUPED,
      { strict: true, tools: ['list_projects'] },
      [BM25, deferred('list_projects')],
    ],
  ])('%s', (_case, set, options, expected) => {
    const sent: ToolUnion[] = anthropicTools(runtimeOf(set), options);
    expect(
      sent.map((tool) =>
        'input_schema' in tool ? (tool.defer_loading ? deferred(tool.name) : tool.name) : tool,
      ),
    ).toEqual(expected);
  });

  test('sent by the Anthropic SDK as they are', async () => {
    const runtime = runtimeOf(GROUPED);
    const { fetch, requests } = scriptedFetch({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [{ type: 'text', text: 'ok' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    const tools: ToolUnion[] = anthropicTools(runtime, { strict: true });
    await new Anthropic({ apiKey: 'test', fetch }).messages.create({
      model: 'claude-test',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'Close issue 7.' }],
      tools,
    });
    expect(requests[0]?.tools).toEqual(JSON.parse(JSON.stringify(tools)));
  });
});

describe('OpenAI Responses: a namespace per group, defer_loading, and tool_search', () => {
  const namespace = (name: string, description: string, ...tools: string[]) => ({
    namespace: name,
    description,
    tools: tools.map(deferred),
  });
  test.each<[string, PreparedToolSet, { deferral?: boolean }, unknown[]]>([
    ['no tool deferred: as before', EAGER, {}, ALL_NAMES],
    [
      'grouped: each group’s deferred tools one namespace, where its first comes; eager tools alone',
      GROUPED,
      {},
      [
        namespace('issues', ISSUES, 'create_issue', 'close_issue'),
        'search_issues',
        namespace(
          'projects',
          'The projects tools: list_projects, archive_project.',
          'list_projects',
          'archive_project',
        ),
        'whoami',
        { type: 'tool_search' },
      ],
    ],
    [
      'ungrouped: deferred functions alone',
      UNGROUPED,
      {},
      [
        ...['create_issue', 'close_issue', 'search_issues', 'list_projects', 'archive_project'].map(deferred),
        'whoami',
        { type: 'tool_search' },
      ],
    ],
    ['deferral: false: every tool whole', GROUPED, { deferral: false }, ALL_NAMES],
  ])('%s', (_case, set, options, expected) => {
    const sent: ResponsesApiTool[] = openaiResponsesTools(runtimeOf(set), options);
    const named = (tool: ResponsesApiTool): unknown =>
      tool.type === 'function'
        ? tool.defer_loading
          ? deferred(tool.name)
          : tool.name
        : tool.type === 'namespace'
          ? {
              namespace: tool.name,
              description: tool.description,
              tools: tool.tools.map((member) => named(member as ResponsesApiTool)),
            }
          : tool;
    expect(sent.map(named)).toEqual(expected);
  });

  test('Chat Completions and Gemini have no deferral: every tool sent whole', () => {
    const runtime = runtimeOf(GROUPED);
    expect(openaiChatTools(runtime).map((tool) => tool.function.name)).toEqual(ALL_NAMES);
    expect(geminiTools(runtime).functionDeclarations.map((tool) => tool.name)).toEqual(ALL_NAMES);
  });

  test('@openai/agents lays out the same request from its own namespaces, and an agent calls a namespaced tool', async () => {
    const runtime = runtimeOf(GROUPED);
    const issues = openaiResponsesTools(runtime)[0];
    // The hosted search loads the issues namespace as it was sent, then the model calls into it.
    const searched = { call_id: null, execution: 'server', status: 'completed' };
    const { fetch, requests } = scriptedFetch(
      responsesAnswer([
        { type: 'tool_search_call', id: 'ts_1', arguments: { paths: ['issues'] }, ...searched },
        { type: 'tool_search_output', id: 'tso_1', tools: [issues], ...searched },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          namespace: 'issues',
          name: 'close_issue',
          arguments: '{"id":"7"}',
          status: 'completed',
        },
      ]),
      responsesAnswer([
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Closed.', annotations: [] }],
        },
      ]),
    );
    setTracingDisabled(true);
    setDefaultOpenAIClient(new OpenAI({ apiKey: 'test', fetch }) as never);
    calls.length = 0;
    const agent = new Agent({
      name: 'issues',
      instructions: 'Help.',
      model: 'gpt-test',
      tools: agentsTools(runtime),
    });
    expect((await run(agent, 'Close issue 7.')).finalOutput).toBe('Closed.');
    expect(calls).toEqual([['close_issue', { id: '7' }]]);

    const direct = scriptedFetch(responsesAnswer([]));
    const tools: ResponsesApiTool[] = openaiResponsesTools(runtime);
    await new OpenAI({ apiKey: 'test', fetch: direct.fetch }).responses.create({
      model: 'gpt-test',
      input: 'Close issue 7.',
      tools,
    });
    expect(requests[0]?.tools).toEqual(direct.requests[0]?.tools);
    expect(direct.requests[0]?.tools).toEqual(JSON.parse(JSON.stringify(tools)));
  });

  test('@openai/agents refuses deferred tools without its tool search: agentsTools always adds it', async () => {
    const { fetch } = scriptedFetch(responsesAnswer([]));
    setDefaultOpenAIClient(new OpenAI({ apiKey: 'test', fetch }) as never);
    const withoutSearch = agentsTools(runtimeOf(GROUPED)).filter((tool) => tool.type === 'function');
    const agent = new Agent({
      name: 'issues',
      instructions: 'Help.',
      model: 'gpt-test',
      tools: withoutSearch,
    });
    await expect(run(agent, 'Close issue 7.')).rejects.toThrow(/require toolSearchTool\(\)/);
  });

  test('a Responses function call from a namespace runs as any other', async () => {
    calls.length = 0;
    const reply = await runResponsesFunctionCall(runtimeOf(GROUPED), {
      call_id: 'call_1',
      name: 'list_projects',
      arguments: '{"id":"all"}',
    });
    expect(reply.output).toBe('list_projects done');
    expect(calls).toEqual([['list_projects', { id: 'all' }]]);
  });
});

describe('AI SDK 6: no deferral, every tool sent whole', () => {
  test('the deferred tools reach the model with the others, and no tool search is added', async () => {
    const sent: string[][] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        sent.push((options.tools ?? []).map((tool) => tool.name));
        return {
          content: [{ type: 'text', text: 'ok' }],
          finishReason: { unified: 'stop', raw: undefined },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 1, text: 1, reasoning: 0 },
          },
          warnings: [],
        };
      },
    });
    await generateText({ model, tools: aiTools(runtimeOf(GROUPED)), prompt: 'Close issue 7.' });
    expect(sent).toEqual([ALL_NAMES]);
  });
});

/** Each tool's groups (in this order) and whether the config defers it. */
const GROUP_NAMES = ['issues', 'projects', 'account'];
type Layout = Record<string, { readonly groups: readonly string[]; readonly deferred?: true }>;

test('any layout: every tool sent once, deferred exactly where the build deferred it, a search only beside deferred tools', () => {
  const layouts = fc.record(
    Object.fromEntries(
      ALL_NAMES.map((name) => [
        name,
        fc.record(
          { groups: fc.subarray(GROUP_NAMES, { minLength: 1 }), deferred: fc.constant(true as const) },
          { requiredKeys: ['groups'] },
        ),
      ]),
    ) as Record<string, fc.Arbitrary<Layout[string]>>,
  );
  fc.assert(
    fc.property(layouts, (layout) => {
      const membersOf = (group: string) => ALL_NAMES.filter((name) => layout[name]?.groups.includes(group));
      const runtime = runtimeOf(
        prepareToolSet(plain, {
          ...quietly,
          groups: Object.fromEntries(
            GROUP_NAMES.flatMap((group) =>
              membersOf(group).length > 0 ? [[group, { tools: membersOf(group) }]] : [],
            ),
          ),
          loading: { deferred: ALL_NAMES.filter((name) => layout[name]?.deferred) },
        }),
      );
      const wanted = ALL_NAMES.map((name) => (layout[name]?.deferred ? deferred(name) : name)).sort();
      const searched = wanted.some((name) => name.endsWith('(deferred)'));
      const anthropic = anthropicTools(runtime);
      const anthropicSent = anthropic.flatMap((tool) =>
        'input_schema' in tool ? [tool.defer_loading ? deferred(tool.name) : tool.name] : [],
      );
      expect(anthropicSent.sort()).toEqual(wanted);
      expect(anthropic.length - anthropicSent.length).toBe(searched ? 1 : 0);
      const responses = openaiResponsesTools(runtime);
      const responsesSent = responses.flatMap((tool) =>
        tool.type === 'namespace' ? tool.tools : tool.type === 'function' ? [tool] : [],
      );
      expect(
        responsesSent.map((tool) => (tool.defer_loading ? deferred(tool.name) : tool.name)).sort(),
      ).toEqual(wanted);
      expect(responses.filter((tool) => tool.type === 'tool_search')).toHaveLength(searched ? 1 : 0);
      for (const namespace of responses)
        if (namespace.type === 'namespace')
          for (const member of namespace.tools)
            expect([member.defer_loading, layout[member.name]?.groups[0]]).toEqual([true, namespace.name]);
    }),
    { numRuns: propertyRuns(60) },
  );
});

describe('a search tool beside deferred tools never hides a tool of the set', () => {
  const clashing = {
    ...plain,
    toolSearch: defineTool({ description: 'Search.', input }),
    toolSearchToolBm25: defineTool({ description: 'Search by words.', input }),
  };
  const runtime = runtimeOf(prepareToolSet(clashing, { ...quietly, loading: { deferAbove: 0 } }));
  test.each<[string, () => unknown, string]>([
    ['openaiResponsesTools', () => openaiResponsesTools(runtime), 'tool_search'],
    ['agentsTools', () => agentsTools(runtime), 'tool_search'],
    ['anthropicTools', () => anthropicTools(runtime), 'tool_search_tool_bm25'],
  ])('%s refuses, naming the tool', (_surface, make, name) => {
    expect(make).toThrow(`tool "${name}" has the name of the tool search tool sent beside deferred tools`);
  });
  test('deferral: false sends them', () => {
    expect(openaiResponsesTools(runtime, { deferral: false })).toHaveLength(8);
    expect(anthropicTools(runtime, { deferral: false })).toHaveLength(8);
  });
});

describe('the build warns of an OpenAI namespace past 10 functions', () => {
  const many = (count: number, loading?: 'deferred') =>
    Object.fromEntries(
      Array.from({ length: count }, (_, index) => [
        `tool${index}`,
        defineTool({
          description: `Tool ${index}.`,
          input,
          group: 'issues',
          ...(loading ? { loading } : {}),
        }),
      ]),
    );
  test.each<[string, ReturnType<typeof many>, ProfileName[], object[]]>([
    [
      '11 deferred in one group: a warning naming it and its count',
      many(11, 'deferred'),
      ['openai-strict'],
      [
        {
          severity: 'warning',
          code: 'namespace-size',
          profile: 'openai-strict',
          hint: expect.stringContaining('split the group'),
          message: expect.stringMatching(
            /^group "issues" has 11 deferred tools, .*: past the 10 functions OpenAI advises for one$/,
          ),
        },
      ],
    ],
    ['10 deferred: none', many(10, 'deferred'), ['openai-strict'], []],
    ['11 eager: no namespace, none', many(11), ['openai-strict'], []],
    ['not prepared for openai-strict: no namespace, none', many(11, 'deferred'), ['anthropic'], []],
  ])('%s', (_case, contracts, profiles, expected) => {
    const warnings: { code: string }[] = [];
    prepareToolSet(contracts, { profiles, warn: (problem) => warnings.push(problem) });
    expect(warnings.filter((problem) => problem.code === 'namespace-size')).toEqual(expected);
  });
});

describe('the large fixture (178 tools in 16 folder groups), deferred by its size', () => {
  let fixture: FixtureProject;
  let runtime: ReturnType<typeof runtimeOf>;
  let warned: string[];
  beforeAll(async () => {
    fixture = copyFixture('large-set');
    const config = fixture.read('toolprep.config.ts');
    fixture.write(
      'toolprep.config.ts',
      config.replace(
        "names: 'strict',",
        "names: 'strict',\n  profiles: ['openai-strict', 'anthropic'],\n  profileOptions: { 'openai-strict': { fallback: 'auto' } },",
      ),
    );
    const generated = fixture.cli('generate', '--quiet');
    expect(generated.status).toBe(0);
    warned = generated.stderr
      .split('\n')
      .flatMap((line) => /group "([\w-]+)" has (\d+) deferred tools/.exec(line)?.slice(1).join(': ') ?? []);
    const { tools } = (await import(path.join(fixture.dir, 'src/toolprep.gen.ts'))) as {
      tools: PreparedToolSet;
    };
    runtime = runtimeOf(tools);
  }, 180_000);
  afterAll(() => fixture?.remove());

  test('Responses: one namespace per group; the build warned of exactly those past 10 functions', () => {
    const sent: ResponsesApiTool[] = openaiResponsesTools(runtime);
    const namespaces = sent.flatMap((tool) =>
      tool.type === 'namespace' ? [[tool.name, tool.tools.length] as const] : [],
    );
    expect(namespaces).toHaveLength(16);
    expect(namespaces.reduce((sum, [, size]) => sum + size, 0)).toBe(178);
    expect(sent.filter((tool) => tool.type !== 'namespace')).toEqual([{ type: 'tool_search' }]);
    expect(warned.sort()).toEqual(
      namespaces
        .filter(([, size]) => size > 10)
        .map(([group, size]) => `${group}: ${size}`)
        .sort(),
    );
  });

  test('Anthropic: every tool deferred, after the BM25 search', () => {
    const sent: ToolUnion[] = anthropicTools(runtime);
    expect(sent[0]).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    expect(sent.slice(1).every((tool) => 'defer_loading' in tool && tool.defer_loading)).toBe(true);
    expect(sent).toHaveLength(179);
  });
});

function responsesAnswer(output: unknown[]) {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 0,
    model: 'gpt-test',
    status: 'completed',
    usage: {
      input_tokens: 1,
      output_tokens: 1,
      total_tokens: 2,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
    output,
  };
}
