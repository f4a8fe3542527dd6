import Anthropic from '@anthropic-ai/sdk';
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import { GoogleGenAI } from '@google/genai';
import { Agent, run, setDefaultOpenAIClient, setTracingDisabled } from '@openai/agents';
import { type JsonSchema, prepareToolSet } from '@toolprep/build';
import OpenAI from 'openai';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { defineTool } from 'toolprep';
import { anthropicTools, runAnthropicToolUse } from 'toolprep/anthropic';
import { geminiTools, runGeminiFunctionCall } from 'toolprep/gemini';
import {
  openaiChatTools,
  openaiResponsesTools,
  runChatToolCall,
  runResponsesFunctionCall,
} from 'toolprep/openai';
import { agentsTools } from 'toolprep/openai-agents';
import { createToolRuntime } from 'toolprep/runtime';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { ANTHROPIC_STRICT_LIMITS, PROFILE_NAMES, type ProfileName } from '../../src/manifest/profiles.js';
import { PROVIDER_RULES } from '../support/provider-rules.js';
import { scriptedFetch } from '../support/scripted-fetch.js';

/**
 * Each official SDK, driven with an injected `fetch` that captures the request and answers with
 * a scripted tool call (no network): the tool schemas it sends are the manifest's profile
 * documents, which pass the provider's rules (and are fixed points of the SDK's own strict
 * transform, where it has one); and the scripted answers — `null` for a key left out, an enum in
 * another case, a list written as text — end as the handler's arguments, or as the refusal.
 */

const LIST = 'paths is a list written as text — pass the array itself, not JSON written as text';

const contracts = {
  searchNotes: defineTool({
    description: 'Search notes.',
    input: z.object({
      q: z.string(),
      limit: z.number().int().min(1).max(50).optional(),
      unit: z.enum(['words', 'lines']).optional(),
    }),
  }),
  readNotes: defineTool({
    description: 'Read one note or several.',
    input: z.object({ paths: z.union([z.string(), z.array(z.string())]) }),
  }),
  moveNote: defineTool({
    description: 'Move a note.',
    input: z.object({
      path: z.string(),
      color: z.enum(['Dark Blue', 'Light Green']),
      opts: z.object({ copy: z.boolean().optional() }).optional(),
    }),
  }),
};

function notesRuntime() {
  const calls: [string, unknown][] = [];
  const record = (name: string) => (args: unknown) => {
    calls.push([name, args]);
    return `${name} done`;
  };
  const runtime = createToolRuntime(prepareToolSet(contracts, { profiles: [...PROFILE_NAMES] }), {
    handlers: {
      search_notes: record('search_notes'),
      read_notes: record('read_notes'),
      move_note: record('move_note'),
    },
  });
  return { runtime, calls };
}

/**
 * A document as a provider's SDK rewrites it without changing what it says: `type` beside an
 * enum whose members all have that type left out (the Anthropic SDK's transform drops it), and
 * OpenAPI types in capitals (the Gemini SDK's `Type` enum) read in lower case.
 */
function meaningOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(meaningOf);
  if (typeof value !== 'object' || value === null) return value;
  const node = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, meaningOf(child)]));
  if (typeof node.type === 'string') node.type = node.type.toLowerCase();
  if (
    Array.isArray(node.enum) &&
    typeof node.type === 'string' &&
    node.enum.every((member) => typeof member === node.type)
  )
    delete node.type;
  return node;
}

const documentOf = (
  runtime: ReturnType<typeof notesRuntime>['runtime'],
  name: string,
  profile: ProfileName,
) => runtime.list().find((tool) => tool.name === name)?.profiles?.[profile]?.inputSchema as JsonSchema;

describe("each profile's documents pass the provider's rules", () => {
  const { runtime } = notesRuntime();
  test.each(PROFILE_NAMES)('%s', (profile) => {
    for (const tool of runtime.list()) {
      const document = tool.profiles?.[profile]?.inputSchema as JsonSchema;
      expect({ tool: tool.name, broken: PROVIDER_RULES[profile](document) }).toEqual({
        tool: tool.name,
        broken: [],
      });
    }
  });
});

describe('each rule catches the document that breaks it', () => {
  const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
    ...extra,
  });
  test.each<[ProfileName, RegExp, JsonSchema]>([
    ['openai-strict', /root: type must be "object"/, { anyOf: [object({})] }],
    ['openai-strict', /additionalProperties must be false/, { type: 'object', properties: {}, required: [] }],
    [
      'openai-strict',
      /'required' must include every key/,
      object({ a: { type: 'string' } }, { required: [] }),
    ],
    ['openai-strict', /"oneOf" is not permitted/, object({ a: { oneOf: [{ type: 'string' }] } })],
    ['openai-strict', /"prefixItems" is not permitted/, object({ a: { type: 'array', prefixItems: [] } })],
    ['openai-strict', /"default" is not permitted/, object({ a: { type: 'string', default: 'x' } })],
    ['openai-strict', /a schema must have a type/, object({ a: {} })],
    ['openai-strict', /format "uri" is not supported/, object({ a: { type: 'string', format: 'uri' } })],
    ['anthropic', /root: no anyOf at the top level/, { type: 'object', anyOf: [] }],
    ['anthropic-strict', /additionalProperties must be false/, { type: 'object', properties: {} }],
    ['anthropic-strict', /"maximum" is not permitted/, object({ a: { type: 'number', maximum: 3 } })],
    ['anthropic-strict', /minItems must be 0 or 1/, object({ a: { type: 'array', minItems: 2 } })],
    [
      'anthropic-strict',
      /outside the supported regex subset/,
      object({ a: { type: 'string', pattern: '(?=a)' } }),
    ],
    [
      'anthropic-strict',
      /recursive schemas are not supported/,
      object({ a: { $ref: '#/$defs/n' } }, { $defs: { n: object({ c: { $ref: '#/$defs/n' } }) } }),
    ],
    [
      'gemini',
      /"pattern" is not supported/,
      { type: 'object', properties: { a: { type: 'string', pattern: 'x' } } },
    ],
    [
      'gemini',
      /no keyword may stand beside \$ref/,
      { type: 'object', properties: { a: { $ref: '#/x', description: 'd' } } },
    ],
    [
      'gemini',
      /enum members must all be strings, or all numbers/,
      { type: 'object', properties: { a: { enum: [true] } } },
    ],
    [
      'gemini',
      /a parameter name must start with a letter/,
      { type: 'object', properties: { '1a': { type: 'string' } } },
    ],
    [
      'gemini-openapi',
      /Unknown name "additionalProperties"/,
      { type: 'object', additionalProperties: false },
    ],
    [
      'gemini-openapi',
      /type is not repeating/,
      { type: 'object', properties: { a: { type: ['string', 'null'] } } },
    ],
    [
      'gemini-openapi',
      /enum only allowed for STRING type/,
      { type: 'object', properties: { a: { type: 'number', enum: [1] } } },
    ],
    ['gemini-openapi', /Unknown name "const"/, { type: 'object', properties: { a: { const: 'x' } } }],
  ])('%s: %s', (profile, rule, document) => {
    expect(PROVIDER_RULES[profile](document).join('\n')).toMatch(rule);
  });
});

describe('openai', () => {
  const calls = (...list: [string, object][]) =>
    list.map(([name, args], index) => ({ id: `call_${index}`, name, arguments: JSON.stringify(args) }));
  const scripted = calls(
    ['search_notes', { q: 'cats', limit: null, unit: null }],
    ['read_notes', { paths: '["a.md","b.md"]' }],
    ['move_note', { path: 'x', color: 'Dark Blue', opts: JSON.stringify({ copy: null }) }],
  );
  const expectCalls = (handled: [string, unknown][], replies: unknown[]) => {
    expect(handled).toEqual([
      ['search_notes', { q: 'cats' }],
      ['move_note', { path: 'x', color: 'Dark Blue', opts: {} }],
    ]);
    expect(replies).toEqual(['search_notes done', LIST, 'move_note done']);
  };

  test('Chat Completions: strict tools as the profile documents them, their calls brought back', async () => {
    const { runtime, calls: handled } = notesRuntime();
    const { fetch, requests } = scriptedFetch({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 0,
      model: 'gpt-test',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            tool_calls: scripted.map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: call.arguments },
            })),
          },
        },
      ],
    });
    const client = new OpenAI({ apiKey: 'test', fetch });
    const completion = await client.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'Find cats.' }],
      tools: openaiChatTools(runtime) as never,
    });
    const sent = requests[0]?.tools as {
      function: { name: string; parameters: JsonSchema; strict: boolean };
    }[];
    for (const tool of sent) {
      expect(tool.function.strict).toBe(true);
      expect(tool.function.parameters).toEqual(documentOf(runtime, tool.function.name, 'openai-strict'));
      expect(toStrictJsonSchema(tool.function.parameters as never)).toEqual(tool.function.parameters);
    }
    const replies = [];
    for (const call of completion.choices[0]?.message.tool_calls ?? [])
      replies.push((await runChatToolCall(runtime, call as never)).content);
    expectCalls(handled, replies);
  });

  test('Responses: the same tools and calls, as function_call items', async () => {
    const { runtime, calls: handled } = notesRuntime();
    const { fetch, requests } = scriptedFetch({
      id: 'resp_1',
      object: 'response',
      created_at: 0,
      model: 'gpt-test',
      status: 'completed',
      output: scripted.map((call) => ({
        type: 'function_call',
        id: `fc_${call.id}`,
        call_id: call.id,
        name: call.name,
        arguments: call.arguments,
        status: 'completed',
      })),
    });
    const client = new OpenAI({ apiKey: 'test', fetch });
    const response = await client.responses.create({
      model: 'gpt-test',
      input: 'Find cats.',
      tools: openaiResponsesTools(runtime) as never,
    });
    const sent = requests[0]?.tools as { name: string; parameters: JsonSchema; strict: boolean }[];
    for (const tool of sent) {
      expect(tool.strict).toBe(true);
      expect(tool.parameters).toEqual(documentOf(runtime, tool.name, 'openai-strict'));
    }
    const replies = [];
    for (const item of response.output)
      if (item.type === 'function_call') replies.push((await runResponsesFunctionCall(runtime, item)).output);
    expectCalls(handled, replies);
  });

  test('@openai/agents: an agent run calls the tool with the answer brought back', async () => {
    const { runtime, calls: handled } = notesRuntime();
    const usage = {
      input_tokens: 1,
      output_tokens: 1,
      total_tokens: 2,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    };
    const { fetch, requests } = scriptedFetch(
      {
        id: 'resp_1',
        object: 'response',
        created_at: 0,
        model: 'gpt-test',
        status: 'completed',
        usage,
        output: [
          {
            type: 'function_call',
            id: 'fc_1',
            call_id: 'call_1',
            name: 'search_notes',
            arguments: JSON.stringify({ q: 'cats', limit: 5, unit: null }),
            status: 'completed',
          },
        ],
      },
      {
        id: 'resp_2',
        object: 'response',
        created_at: 0,
        model: 'gpt-test',
        status: 'completed',
        usage,
        output: [
          {
            type: 'message',
            id: 'msg_1',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: 'Found them.', annotations: [] }],
          },
        ],
      },
    );
    setTracingDisabled(true);
    setDefaultOpenAIClient(new OpenAI({ apiKey: 'test', fetch }) as never);
    const agent = new Agent({
      name: 'notes',
      instructions: 'Help.',
      model: 'gpt-test',
      tools: agentsTools(runtime),
    });
    const result = await run(agent, 'Find cats.');
    expect(result.finalOutput).toBe('Found them.');
    expect(handled).toEqual([['search_notes', { q: 'cats', limit: 5 }]]);
    const sent = requests[0]?.tools as { name: string; parameters: JsonSchema; strict: boolean }[];
    for (const tool of sent) {
      expect(tool.strict).toBe(true);
      expect(tool.parameters).toEqual(documentOf(runtime, tool.name, 'openai-strict'));
    }
    expect(JSON.stringify(requests[1]?.input)).toContain('search_notes done');
  });
});

describe('anthropic', () => {
  const toolUse = (name: string, input: object, id: string) => ({ type: 'tool_use', id, name, input });
  const message = (...content: object[]) => ({
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content,
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  });

  test.each([
    [false, 'anthropic' as const],
    [true, 'anthropic-strict' as const],
  ])('strict %s: the %s documents, their calls brought back', async (strict, profile) => {
    const { runtime, calls: handled } = notesRuntime();
    const { fetch, requests } = scriptedFetch(
      message(
        toolUse('search_notes', { q: 'cats', limit: null }, 'tu_1'),
        toolUse('read_notes', { paths: '["a.md","b.md"]' }, 'tu_2'),
        toolUse('move_note', { path: 'x', color: 'dark blue', opts: { copy: null } }, 'tu_3'),
      ),
    );
    const client = new Anthropic({ apiKey: 'test', fetch });
    const reply = await client.messages.create({
      model: 'claude-test',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Find cats.' }],
      tools: anthropicTools(runtime, { strict }) as never,
    });
    const sent = requests[0]?.tools as { name: string; input_schema: JsonSchema; strict?: boolean }[];
    for (const tool of sent) {
      expect(tool.strict).toBe(strict ? true : undefined);
      expect(tool.input_schema).toEqual(documentOf(runtime, tool.name, profile));
      if (strict)
        expect(meaningOf(transformJSONSchema(tool.input_schema))).toEqual(meaningOf(tool.input_schema));
    }
    const results = [];
    for (const block of reply.content)
      if (block.type === 'tool_use') results.push(await runAnthropicToolUse(runtime, block, { strict }));
    expect(results.map((result) => [result.content, result.is_error ?? false])).toEqual([
      ['search_notes done', false],
      [LIST, true],
      // An enum in another case is repaired on every call (the repair caseFold), strict or not.
      ['move_note done', false],
    ]);
    expect(handled).toEqual([
      ['search_notes', { q: 'cats' }],
      ['move_note', { path: 'x', color: 'Dark Blue', opts: {} }],
    ]);
  });
});

describe('gemini', () => {
  test.each([
    [false, 'gemini' as const, 'parametersJsonSchema'],
    [true, 'gemini-openapi' as const, 'parameters'],
  ])('openapi %s: the %s documents as %s, their calls brought back', async (openapi, profile, field) => {
    const { runtime, calls: handled } = notesRuntime();
    const { fetch, requests } = scriptedFetch({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { functionCall: { id: 'g1', name: 'search_notes', args: { q: 'cats', unit: null } } },
              { functionCall: { id: 'g2', name: 'read_notes', args: { paths: '["a.md","b.md"]' } } },
            ],
          },
          finishReason: 'STOP',
        },
      ],
    });
    const client = new GoogleGenAI({ apiKey: 'test', httpOptions: { fetch } });
    const response = await client.models.generateContent({
      model: 'gemini-test',
      contents: 'Find cats.',
      config: { tools: [geminiTools(runtime, { openapi }) as never] },
    });
    const [sentTool] = (requests[0]?.tools ?? []) as { functionDeclarations: Record<string, unknown>[] }[];
    const declarations = sentTool?.functionDeclarations ?? [];
    expect(declarations).toHaveLength(3);
    for (const declaration of declarations)
      expect(meaningOf(declaration[field])).toEqual(
        meaningOf(documentOf(runtime, declaration.name as string, profile)),
      );
    const parts = [];
    for (const call of response.functionCalls ?? [])
      parts.push(await runGeminiFunctionCall(runtime, call, { openapi }));
    expect(parts.map((part) => part.functionResponse)).toEqual([
      { id: 'g1', name: 'search_notes', response: { output: 'search_notes done' } },
      { id: 'g2', name: 'read_notes', response: { error: LIST } },
    ]);
    expect(handled).toEqual([['search_notes', { q: 'cats' }]]);
  });
});

test('a tool not prepared for a profile is named when the provider tools are made', () => {
  const runtime = createToolRuntime(
    prepareToolSet({ readNotes: contracts.readNotes }, { profiles: ['gemini'] }),
    {
      handlers: { read_notes: () => 'read' },
    },
  );
  expect(() => openaiChatTools(runtime)).toThrow(
    '[toolprep] tool "read_notes" was not prepared for the profile openai-strict: add "openai-strict" to profiles in the toolprep config',
  );
});

describe('anthropic strict: what one request may send', () => {
  const filters = (count: number, optional: number) =>
    Object.fromEntries(
      Array.from({ length: count }, (_, index) => [
        `filter${index}`,
        defineTool({
          description: `Filter ${index}.`,
          input: z.object(
            Object.fromEntries(
              Array.from({ length: optional }, (_, key) => [`k${key}`, z.string().optional()]),
            ),
          ),
        }),
      ]),
    );
  const runtimeOf = (contracts: Parameters<typeof prepareToolSet>[0]) => {
    const prepared = prepareToolSet(contracts, { profiles: ['anthropic', 'anthropic-strict'] });
    const handlers = Object.fromEntries(prepared.prepared.map((tool) => [tool.name, () => 'done']));
    return createToolRuntime(prepared, { handlers });
  };

  test('more strict tools than a request takes are refused, naming the limit; fewer chosen by name pass', () => {
    const runtime = runtimeOf(filters(21, 0));
    expect(() => anthropicTools(runtime, { strict: true })).toThrow(
      '[toolprep] one strict request cannot send these tools: 21 strict tools, over the limit of 20. Choose fewer with the tools option',
    );
    expect(anthropicTools(runtime)).toHaveLength(21);
    const chosen = anthropicTools(runtime, { strict: true, tools: ['filter3', 'filter1'] });
    expect(chosen.map((tool) => tool.name)).toEqual(['filter3', 'filter1']);
    expect(() => anthropicTools(runtime, { tools: ['filter99'] })).toThrow(
      '[toolprep] no tool is named "filter99"; the tools are filter0, filter1',
    );
  });

  test('optional parameters summed over the tools, the ones spending most named', () => {
    const runtime = runtimeOf(filters(7, 4));
    expect(() => anthropicTools(runtime, { strict: true })).toThrow(
      'one strict request cannot send these tools: 28 optional parameters (filter0 4, filter1 4, filter2 4, filter3 4, filter4 4, 2 more), over the limit of 24',
    );
    expect(anthropicTools(runtime, { strict: true, tools: ['filter0', 'filter1'] })).toHaveLength(2);
  });
});

/** A Messages API answer with these content blocks (tool uses, or none). */
const anthropicReply = (...content: object[]) => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-test',
  content,
  stop_reason: content.length > 0 ? 'tool_use' : 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
});

describe('a profile per tool: each tool sent with its own profile', () => {
  const Section: z.ZodType<{ title: string; sections?: unknown[] }> = z.lazy(() =>
    z.object({ title: z.string(), sections: z.array(Section).optional() }),
  );
  const mixed = {
    tagNote: defineTool({
      description: 'Set free-form properties.',
      input: z.object({ path: z.string(), properties: z.record(z.string(), z.string()) }),
      profiles: { 'openai-strict': 'fallback', 'anthropic-strict': 'fallback', 'gemini-openapi': 'fallback' },
    }),
    outlineNote: defineTool({
      description: 'Replace the outline.',
      input: z.object({ path: z.string(), outline: z.array(Section) }),
    }),
    moveNote: contracts.moveNote,
  };
  const mixedRuntime = () => {
    const calls: [string, unknown][] = [];
    const prepared = prepareToolSet(mixed, {
      profiles: [...PROFILE_NAMES],
      profileOptions: {
        'anthropic-strict': { tools: { 'outline_*': 'fallback' } },
        'gemini-openapi': { tools: { 'outline_*': 'fallback' } },
      },
    });
    const handlers = Object.fromEntries(
      prepared.prepared.map((tool) => [
        tool.name,
        (args: unknown) => calls.push([tool.name, args]) && 'done',
      ]),
    );
    return { runtime: createToolRuntime(prepared, { handlers }), calls };
  };

  test('OpenAI Chat Completions and Responses: strict: false with the MCP document where it falls back', async () => {
    const { runtime } = mixedRuntime();
    const { fetch, requests } = scriptedFetch({
      id: 'r',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [],
    });
    const client = new OpenAI({ apiKey: 'test', fetch });
    await client.chat.completions.create({
      model: 'm',
      messages: [],
      tools: openaiChatTools(runtime) as never,
    });
    await client.responses
      .create({ model: 'm', input: 'x', tools: openaiResponsesTools(runtime) as never })
      .catch(() => {});
    const chat = requests[0]?.tools as {
      function: { name: string; parameters: JsonSchema; strict: boolean };
    }[];
    expect(chat.map(({ function: f }) => [f.name, f.strict])).toEqual([
      ['tag_note', false],
      ['outline_note', true],
      ['move_note', true],
    ]);
    const tag = runtime.list().find((tool) => tool.name === 'tag_note');
    const { $schema: _schema, ...mcp } = tag?.inputSchema.mcp ?? {};
    expect(chat[0]?.function.parameters).toEqual(mcp);
    for (const { function: f } of chat.filter(({ function: f }) => f.strict))
      expect(toStrictJsonSchema(f.parameters as never)).toEqual(f.parameters);
    const responses = requests[1]?.tools as { name: string; strict: boolean }[];
    expect(responses.map((tool) => [tool.name, tool.strict])).toEqual(
      chat.map(({ function: f }) => [f.name, f.strict]),
    );
  });

  test('Anthropic strict: strict only where the tool stays strict, each fallback its anthropic document', async () => {
    const { runtime, calls } = mixedRuntime();
    const { fetch, requests } = scriptedFetch(
      anthropicReply({
        type: 'tool_use',
        id: 'tu_1',
        name: 'tag_note',
        input: { path: 'a.md', properties: { k: 'v' } },
      }),
    );
    const client = new Anthropic({ apiKey: 'test', fetch });
    const reply = await client.messages.create({
      model: 'claude-test',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x' }],
      tools: anthropicTools(runtime, { strict: true }) as never,
    });
    const sent = requests[0]?.tools as { name: string; input_schema: JsonSchema; strict?: boolean }[];
    expect(sent.map((tool) => [tool.name, tool.strict])).toEqual([
      ['tag_note', undefined],
      ['outline_note', undefined],
      ['move_note', true],
    ]);
    for (const tool of sent)
      expect(tool.input_schema).toEqual(
        documentOf(runtime, tool.name, tool.strict ? 'anthropic-strict' : 'anthropic'),
      );
    for (const block of reply.content)
      if (block.type === 'tool_use') await runAnthropicToolUse(runtime, block, { strict: true });
    expect(calls).toEqual([['tag_note', { path: 'a.md', properties: { k: 'v' } }]]);
  });

  test('Gemini: parameters where gemini-openapi holds, parametersJsonSchema where the tool falls back to gemini', async () => {
    const { runtime } = mixedRuntime();
    const { fetch, requests } = scriptedFetch({ candidates: [] });
    const client = new GoogleGenAI({ apiKey: 'test', httpOptions: { fetch } });
    await client.models.generateContent({
      model: 'gemini-test',
      contents: 'x',
      config: { tools: [geminiTools(runtime, { openapi: true }) as never] },
    });
    const [sentTool] = (requests[0]?.tools ?? []) as { functionDeclarations: Record<string, unknown>[] }[];
    expect(
      sentTool?.functionDeclarations.map((declaration) => [
        declaration.name,
        'parameters' in declaration ? 'parameters' : 'parametersJsonSchema',
      ]),
    ).toEqual([
      ['tag_note', 'parametersJsonSchema'],
      ['outline_note', 'parametersJsonSchema'],
      ['move_note', 'parameters'],
    ]);
    expect(meaningOf(sentTool?.functionDeclarations[0]?.parametersJsonSchema)).toEqual(
      meaningOf(documentOf(runtime, 'tag_note', 'gemini')),
    );
  });

  test('a tool left out of a profile is not sent, and naming it is refused with the reason', () => {
    const prepared = prepareToolSet(
      { readNotes: contracts.readNotes, moveNote: contracts.moveNote },
      {
        profiles: ['openai-strict'],
        profileOptions: { 'openai-strict': { tools: { read_notes: 'exclude' } } },
      },
    );
    const runtime = createToolRuntime(prepared, {
      handlers: { read_notes: () => 'r', move_note: () => 'm' },
    });
    expect(openaiChatTools(runtime).map((tool) => tool.function.name)).toEqual(['move_note']);
    expect(() => anthropicTools(runtime, { tools: ['read_notes'] })).toThrow(
      'was not prepared for the profile anthropic',
    );
  });
});

describe("anthropic strict: the build plans the request's budget", () => {
  // 30 tools over every limit: each has 2 optional parameters and 1 with a union type, and the
  // first ten a required enum (the most constrained, which the plan keeps strict first).
  const tools = Object.fromEntries(
    Array.from({ length: 30 }, (_, index) => [
      `tool${String(index).padStart(2, '0')}`,
      defineTool({
        description: `Tool ${index}.`,
        input: z.object({
          q: z.string(),
          a: z.string().optional(),
          b: z.number().optional(),
          u: z.union([z.string(), z.number()]),
          ...(index < 10 ? { mode: z.enum(['fast', 'slow']) } : {}),
        }),
      }),
    ]),
  );
  const planned = (order?: string[]) => {
    const warnings: string[] = [];
    const prepared = prepareToolSet(tools, {
      profiles: ['anthropic', 'anthropic-strict'],
      profileOptions: { 'anthropic-strict': { budget: 'plan', ...(order ? { order } : {}) } },
      warn: (warning) => warnings.push(warning.message),
    });
    const handlers = Object.fromEntries(prepared.prepared.map((tool) => [tool.name, () => 'done']));
    return { runtime: createToolRuntime(prepared, { handlers }), warnings };
  };

  test('unplanned, all 30 are over the limits: the build warns and anthropicTools refuses', () => {
    const warnings: string[] = [];
    const prepared = prepareToolSet(tools, {
      profiles: ['anthropic-strict'],
      warn: (warning) => warnings.push(warning.message),
    });
    expect(warnings).toEqual([
      'one request with all 30 tools would send 30 strict tools, over the limit of 20',
      'one request with all 30 tools would send 60 optional parameters (tool00 2, tool01 2, tool02 2, tool03 2, tool04 2, 25 more), over the limit of 24',
      'one request with all 30 tools would send 30 parameters with union types (tool00 1, tool01 1, tool02 1, tool03 1, tool04 1, 25 more), over the limit of 16',
    ]);
    const handlers = Object.fromEntries(prepared.prepared.map((tool) => [tool.name, () => 'done']));
    const runtime = createToolRuntime(prepared, { handlers });
    expect(() => anthropicTools(runtime, { strict: true })).toThrow(
      'one strict request cannot send these tools',
    );
  });

  test('planned, what anthropicTools sends fits every limit, summed from the request the SDK sends', async () => {
    const { runtime, warnings } = planned();
    const { fetch, requests } = scriptedFetch(anthropicReply());
    await new Anthropic({ apiKey: 'test', fetch }).messages.create({
      model: 'claude-test',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x' }],
      tools: anthropicTools(runtime, { strict: true }) as never,
    });
    const sent = requests[0]?.tools as { name: string; input_schema: JsonSchema; strict?: boolean }[];
    expect(sent).toHaveLength(30);
    const strict = sent.filter((tool) => tool.strict);
    // Summed from the sent schemas themselves, as Anthropic counts: properties not required, and
    // properties whose schema is an anyOf or a type list.
    const sums = { tools: strict.length, optional: 0, unions: 0 };
    for (const tool of strict) {
      const required = new Set(tool.input_schema.required as string[]);
      for (const [key, value] of Object.entries(tool.input_schema.properties as Record<string, JsonSchema>)) {
        if (!required.has(key)) sums.optional++;
        if (Array.isArray(value.anyOf) || Array.isArray(value.type)) sums.unions++;
      }
    }
    expect(sums).toEqual({ tools: 12, optional: 24, unions: 12 });
    expect(sums.tools).toBeLessThanOrEqual(ANTHROPIC_STRICT_LIMITS.tools);
    // The most constrained first: the ten with an enum, then by name.
    expect(strict.map((tool) => tool.name)).toEqual([
      ...Array.from({ length: 10 }, (_, index) => `tool0${index}`),
      'tool10',
      'tool11',
    ]);
    for (const tool of sent.filter((each) => !each.strict))
      expect(tool.input_schema).toEqual(documentOf(runtime, tool.name, 'anthropic'));
    expect(warnings).toEqual([
      'the budget plan keeps 12 of 30 strict tools strict (all 30 tools: 12 strict, 24 optional, 12 with union types) and sends 18 as anthropic: tool12, tool13, tool14, tool15, tool16, tool17, tool18, tool19, tool20, tool21, tool22, tool23, tool24, tool25, tool26, tool27, tool28, tool29',
    ]);
    const reason = runtime.list().find((tool) => tool.name === 'tool12')?.profiles?.[
      'anthropic-strict'
    ]?.reason;
    expect(reason).toBe(
      'the budget plan: with it, one request with all 30 tools would send 26 optional parameters, over the limit of 24',
    );
  });

  test('an order the user gives comes first, then the most constrained', () => {
    const { runtime } = planned(['tool29', 'tool2*']);
    const strict = anthropicTools(runtime, { strict: true }).filter(
      (tool) => 'strict' in tool && tool.strict,
    );
    // tool29 and tool20–tool28 spend 20 optional parameters; tool00 and tool01 (with an enum) the last 4.
    expect(strict.map((tool) => tool.name)).toEqual([
      'tool00',
      'tool01',
      ...Array.from({ length: 10 }, (_, index) => `tool2${index}`),
    ]);
  });
});
