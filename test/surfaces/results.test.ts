import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { prepareToolSet } from '@toolprep/build';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { audio, content, defineTool, image, resource, resourceLink } from 'toolprep';
import { aiTools } from 'toolprep/ai';
import { runToolCli } from 'toolprep/cli';
import { createMcpServer } from 'toolprep/mcp/server';
import { createToolRuntime } from 'toolprep/runtime';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { scriptedModel, toolOutputShown } from '../support/scripted-model.mjs';

/**
 * Results of every kind: a handler returns content parts (text, an image, audio, a resource link,
 * an embedded resource) and structured content; MCP sends them as content blocks, the AI SDK as
 * its tool output with media, the shell CLI prints text and writes media to files.
 */
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const WAV = Uint8Array.from([0x52, 0x49, 0x46, 0x46, 9, 8, 7]);
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

const chart = defineTool({
  description: 'Chart the notes of a month.',
  input: z.object({ month: z.string() }),
});
const stats = defineTool({
  description: 'Count notes.',
  input: z.object({}),
  output: z.object({ notes: z.number().int(), words: z.number().default(0) }),
});

function mediaRuntime(structured: unknown = { notes: 3 }) {
  return createToolRuntime(prepareToolSet({ chart, stats }), {
    handlers: {
      chart: ({ month }: { month: string }) =>
        content([
          `Notes of ${month}`,
          image(PNG, 'image/png'),
          audio(WAV, 'audio/wav'),
          resourceLink({ uri: 'file:///notes/may.md', name: 'may.md', mimeType: 'text/markdown' }),
          resource({ uri: 'file:///notes/summary.md', mimeType: 'text/markdown', text: '# Summary' }),
          resource({ uri: 'file:///notes/raw.bin', mimeType: 'application/octet-stream', data: WAV }),
        ]),
      stats: () => content(['3 notes'], { structured }) as never,
    },
  });
}

test('MCP: content parts arrive as content blocks; structured content parsed by the output schema', async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(mediaRuntime(), { name: 'test', version: '1.0.0' }).connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    expect(await client.callTool({ name: 'chart', arguments: { month: 'May' } })).toEqual({
      content: [
        { type: 'text', text: 'Notes of May' },
        { type: 'image', data: b64(PNG), mimeType: 'image/png' },
        { type: 'audio', data: b64(WAV), mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'file:///notes/may.md', name: 'may.md', mimeType: 'text/markdown' },
        {
          type: 'resource',
          resource: { uri: 'file:///notes/summary.md', mimeType: 'text/markdown', text: '# Summary' },
        },
        {
          type: 'resource',
          resource: { uri: 'file:///notes/raw.bin', mimeType: 'application/octet-stream', blob: b64(WAV) },
        },
      ],
    });
    // The client validates structured content against the listed outputSchema: the default is filled.
    expect(await client.callTool({ name: 'stats', arguments: {} })).toEqual({
      content: [{ type: 'text', text: '3 notes' }],
      structuredContent: { notes: 3, words: 0 },
    });
  } finally {
    await client.close();
  }
});

test('structured content the output schema refuses is the tool’s error', async () => {
  const result = await mediaRuntime({ notes: 'three' }).call('stats', {});
  expect(result).toMatchObject({
    ok: false,
    error: { code: 'OUTPUT_ERROR', message: expect.stringMatching(/output schema refuses: notes: /) },
  });
});

test('AI SDK: the model reads text, the image as image data, audio and bytes as file data', async () => {
  const prompts: unknown[][] = [];
  await generateText({
    model: scriptedModel(MockLanguageModelV3, 'chart', { month: 'May' }, prompts),
    tools: aiTools(mediaRuntime()),
    prompt: 'chart',
    stopWhen: stepCountIs(2),
  });
  expect(toolOutputShown(prompts)).toEqual({
    type: 'content',
    value: [
      { type: 'text', text: 'Notes of May' },
      { type: 'image-data', data: b64(PNG), mediaType: 'image/png' },
      { type: 'file-data', data: b64(WAV), mediaType: 'audio/wav' },
      { type: 'text', text: 'Resource may.md: file:///notes/may.md' },
      { type: 'text', text: '# Summary' },
      { type: 'file-data', data: b64(WAV), mediaType: 'application/octet-stream' },
    ],
  });
});

test('shell CLI: text printed, media written to files it names', async () => {
  const mediaDir = mkdtempSync(path.join(tmpdir(), 'toolprep-media-'));
  try {
    const out: string[] = [];
    const code = await runToolCli(mediaRuntime(), ['chart', '--month', 'May'], {
      stdout: (line) => out.push(line),
      stderr: (line) => out.push(`stderr: ${line}`),
      mediaDir,
    });
    expect(code).toBe(0);
    expect(out).toEqual([
      'Notes of May',
      `[image/png written to ${path.join(mediaDir, 'chart-2.png')}]`,
      `[audio/wav written to ${path.join(mediaDir, 'chart-3.wav')}]`,
      '[resource may.md: file:///notes/may.md]',
      '# Summary',
      `[application/octet-stream written to ${path.join(mediaDir, 'chart-6.bin')}]`,
    ]);
    expect(new Uint8Array(readFileSync(path.join(mediaDir, 'chart-2.png')))).toEqual(PNG);
  } finally {
    rmSync(mediaDir, { recursive: true, force: true });
  }
});

test('a part returned alone is a result of that part, on every surface, not a value sent as JSON', async () => {
  const picture = defineTool({ description: 'Draw a picture.', input: z.object({}) });
  const runtime = createToolRuntime(prepareToolSet({ picture }), {
    handlers: { picture: () => image(PNG, 'image/png') },
  });
  expect(await runtime.call('picture', {})).toMatchObject({
    ok: true,
    value: { content: [{ type: 'image', data: b64(PNG), mimeType: 'image/png' }] },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(runtime, { name: 'test', version: '1.0.0' }).connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    expect(await client.callTool({ name: 'picture', arguments: {} })).toEqual({
      content: [{ type: 'image', data: b64(PNG), mimeType: 'image/png' }],
    });
  } finally {
    await client.close();
  }
});
