import { prepareToolSet } from '@toolprep/build';
import OpenAI from 'openai';
import { defineTool } from 'toolprep';
import { runChatToolCall } from 'toolprep/openai';
import { createToolRuntime } from 'toolprep/runtime';
import { expect, test } from 'vitest';
import { z } from 'zod';

/**
 * Every call of a Chat Completions message goes to `runChatToolCall` as openai's own type gives it
 * (`ChatCompletionMessageToolCall`, a function's or a custom tool's): a custom tool is never
 * toolprep's (its tools are function tools), so its call is answered as the runner answers a tool
 * it does not have, seen by the `error` hook, whatever its free-text input.
 */
const readNotes = defineTool({
  description: 'Read notes.',
  input: z.object({ paths: z.array(z.string()) }),
});

const calls: [description: string, call: object, reply: string, seen: string | undefined][] = [
  [
    'a function call',
    { id: 'c1', type: 'function', function: { name: 'read_notes', arguments: '{"paths":["a.md"]}' } },
    'read a.md',
    undefined,
  ],
  [
    'a function call whose arguments are not JSON',
    { id: 'c2', type: 'function', function: { name: 'read_notes', arguments: '{"paths":' } },
    'The arguments are not JSON: {"paths":',
    undefined,
  ],
  [
    'a function call of a tool there is not, its arguments not JSON',
    { id: 'c3', type: 'function', function: { name: 'search', arguments: 'cats' } },
    'Unknown tool "search". Available tools: read_notes.',
    'UNKNOWN_TOOL',
  ],
  [
    'a custom tool’s call, with free text',
    { id: 'c4', type: 'custom', custom: { name: 'run_sql', input: 'select 1' } },
    'Unknown tool "run_sql". Available tools: read_notes.',
    'UNKNOWN_TOOL',
  ],
];

test.each(calls)('%s, as the SDK returns it', async (_, call, reply, seen) => {
  const errors: string[] = [];
  const runtime = createToolRuntime(prepareToolSet({ readNotes }, { profiles: ['openai-strict'] }), {
    handlers: { read_notes: ({ paths }: { paths: string[] }) => `read ${paths.join(', ')}` },
    hooks: { error: ({ error }) => errors.push(error.code) },
  });
  const openai = new OpenAI({
    apiKey: 'test',
    fetch: async () =>
      Response.json({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 0,
        model: 'gpt-test',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: { role: 'assistant', content: null, tool_calls: [call] },
          },
        ],
      }),
  });
  const completion = await openai.chat.completions.create({
    model: 'gpt-test',
    messages: [{ role: 'user', content: 'Read a.md.' }],
  });
  const [toolCall] = completion.choices[0]?.message.tool_calls ?? [];
  if (!toolCall) throw new Error('the SDK returned no tool call');
  expect(await runChatToolCall(runtime, toolCall)).toEqual({
    role: 'tool',
    tool_call_id: toolCall.id,
    content: reply,
  });
  expect(errors).toEqual(seen ? [seen] : []);
});
