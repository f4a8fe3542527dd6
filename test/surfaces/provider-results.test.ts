import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { Agent, run, setDefaultOpenAIClient, setTracingDisabled } from '@openai/agents';
import { prepareToolSet } from '@toolprep/build';
import OpenAI from 'openai';
import { content, defineTool, image, resource } from 'toolprep';
import { runAnthropicToolUse } from 'toolprep/anthropic';
import { runGeminiFunctionCall } from 'toolprep/gemini';
import { runChatToolCall, runResponsesFunctionCall } from 'toolprep/openai';
import { agentsTools } from 'toolprep/openai-agents';
import { createToolRuntime } from 'toolprep/runtime';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { PROFILE_NAMES } from '../../src/manifest/profiles.js';

/**
 * A tool result with media, sent back through each provider's own SDK (an injected `fetch` keeps
 * the request; no network): what each run function returns reaches the request as it is, where
 * the provider's format carries media (the case table in results.test.ts says what each gets).
 */
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const PDF = new TextEncoder().encode('%PDF-1.7 May');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

const noInput = { input: z.object({}) };
const runtime = createToolRuntime(
  prepareToolSet(
    {
      mixed: defineTool({ description: 'Text and an image.', ...noInput }),
      pdfResource: defineTool({ description: 'An embedded PDF.', ...noInput }),
    },
    { profiles: [...PROFILE_NAMES] },
  ),
  {
    handlers: {
      mixed: () => content(['Chart of May', image(PNG, 'image/png')]),
      pdf_resource: () => resource({ uri: 'file:///notes/may.pdf', mimeType: 'application/pdf', data: PDF }),
    },
  },
);

/** A `fetch` that keeps each request's JSON body and answers with the next scripted body. */
function capturingFetch(...answers: unknown[]) {
  const bodies: Record<string, unknown>[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body ?? '{}')));
    return new Response(JSON.stringify(answers[Math.min(bodies.length - 1, answers.length - 1)]), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch, bodies };
}

const NAMES = ['mixed', 'pdf_resource'];

describe.each(NAMES)('%s, sent back by each SDK', (name) => {
  test('Chat Completions: the tool message, its media named as left out', async () => {
    const message = await runChatToolCall(runtime, {
      id: 'call_1',
      type: 'function',
      function: { name, arguments: '{}' },
    });
    const { fetch, bodies } = capturingFetch({});
    await new OpenAI({ apiKey: 'test', fetch }).chat.completions
      .create({
        model: 'gpt-test',
        messages: [
          { role: 'user', content: 'Chart May.' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: '{}' } }],
          },
          message,
        ],
      })
      .catch(() => undefined);
    expect(((bodies[0]?.messages ?? []) as unknown[])[2]).toEqual(message);
    expect(message.content).toMatch(/\[left out: (image image\/png|resource file:\/\/\/notes\/may\.pdf)/);
  });

  test('Responses: function_call_output with input_image or input_file', async () => {
    const item = await runResponsesFunctionCall(runtime, { call_id: 'call_1', name, arguments: '{}' });
    const { fetch, bodies } = capturingFetch({});
    await new OpenAI({ apiKey: 'test', fetch }).responses
      .create({
        model: 'gpt-test',
        input: [{ type: 'function_call', call_id: 'call_1', name, arguments: '{}' }, item],
      })
      .catch(() => undefined);
    expect(((bodies[0]?.input ?? []) as unknown[])[1]).toEqual(item);
    expect(JSON.stringify(item.output)).toContain(name === 'mixed' ? '"input_image"' : '"input_file"');
  });

  test('Anthropic: tool_result with an image or a document block', async () => {
    const block = await runAnthropicToolUse(runtime, { id: 'tu_1', name, input: {} });
    const { fetch, bodies } = capturingFetch({});
    await new Anthropic({ apiKey: 'test', fetch }).messages
      .create({
        model: 'claude-test',
        max_tokens: 10,
        messages: [
          { role: 'user', content: 'Chart May.' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'tu_1', name, input: {} }] },
          { role: 'user', content: [block] },
        ],
      })
      .catch(() => undefined);
    expect(((bodies[0]?.messages ?? []) as { content: unknown[] }[])[2]?.content[0]).toEqual(block);
    expect(JSON.stringify(block.content)).toContain(name === 'mixed' ? '"image"' : '"document"');
  });

  test('Gemini: functionResponse with the media as parts of inline data', async () => {
    const part = await runGeminiFunctionCall(runtime, { id: 'g1', name, args: {} });
    const { fetch, bodies } = capturingFetch({
      candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }],
    });
    await new GoogleGenAI({ apiKey: 'test', httpOptions: { fetch } }).models.generateContent({
      model: 'gemini-test',
      contents: [
        { role: 'user', parts: [{ text: 'Chart May.' }] },
        { role: 'model', parts: [{ functionCall: { id: 'g1', name, args: {} } }] },
        { role: 'user', parts: [part] },
      ],
    });
    expect(((bodies[0]?.contents ?? []) as { parts: unknown[] }[])[2]?.parts[0]).toEqual(part);
    expect(part.functionResponse.parts).toEqual([
      name === 'mixed'
        ? { inlineData: { mimeType: 'image/png', data: b64(PNG) } }
        : { inlineData: { mimeType: 'application/pdf', data: b64(PDF) } },
    ]);
  });
});

test('@openai/agents: the agent sends the tool’s text and image as function_call_output parts', async () => {
  const usage = {
    input_tokens: 1,
    output_tokens: 1,
    total_tokens: 2,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
  const answer = (output: unknown[]) => ({
    id: 'resp_1',
    object: 'response',
    created_at: 0,
    model: 'gpt-test',
    status: 'completed',
    usage,
    output,
  });
  const { fetch, bodies } = capturingFetch(
    answer([
      {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_1',
        name: 'mixed',
        arguments: '{}',
        status: 'completed',
      },
    ]),
    answer([
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'A chart.', annotations: [] }],
      },
    ]),
  );
  setTracingDisabled(true);
  setDefaultOpenAIClient(new OpenAI({ apiKey: 'test', fetch }) as never);
  const agent = new Agent({
    name: 'charts',
    instructions: 'Chart.',
    model: 'gpt-test',
    tools: agentsTools(runtime),
  });
  expect((await run(agent, 'Chart May.')).finalOutput).toBe('A chart.');
  const sent = ((bodies[1]?.input ?? []) as { type: string; output?: unknown }[]).find(
    (item) => item.type === 'function_call_output',
  );
  expect(sent?.output).toMatchObject([
    { type: 'input_text', text: 'Chart of May' },
    { type: 'input_image', image_url: `data:image/png;base64,${b64(PNG)}` },
  ]);
});
