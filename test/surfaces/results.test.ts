import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { Part } from '@google/genai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  type FunctionTool,
  RunContext,
  type ToolOutputFileContent,
  type ToolOutputImage,
  type ToolOutputText,
} from '@openai/agents';
import { prepareToolSet } from '@toolprep/build';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { ChatCompletionToolMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { audio, content, defineTool, image, resource, resourceLink } from 'toolprep';
import { aiTools } from 'toolprep/ai';
import { runAnthropicToolUse } from 'toolprep/anthropic';
import { runToolCli } from 'toolprep/cli';
import { runGeminiFunctionCall } from 'toolprep/gemini';
import { createMcpServer } from 'toolprep/mcp/server';
import { runChatToolCall, runResponsesFunctionCall } from 'toolprep/openai';
import { agentsTools } from 'toolprep/openai-agents';
import { createToolRuntime } from 'toolprep/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { PROFILE_NAMES } from '../../src/manifest/profiles.js';
import { type renderAgentsOutput, renderMcpResult } from '../../src/surfaces/tool-content.js';
import { aiOutputShown } from '../support/ai-output.js';
import { scriptedModel, toolOutputShown } from '../support/scripted-model.mjs';

/**
 * Results of every kind: a handler returns content parts (text, an image, audio, a resource link,
 * an embedded resource) and structured content; MCP sends them as content blocks, the AI SDK as
 * its tool output with media, the providers as their tool results take media (a placeholder for
 * what they cannot carry), the shell CLI prints text and writes media to files.
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
      { type: 'text', text: '[resource link may.md: file:///notes/may.md]' },
      { type: 'text', text: '# Summary' },
      { type: 'file-data', data: b64(WAV), mediaType: 'application/octet-stream', filename: 'raw.bin' },
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
      '[resource link may.md: file:///notes/may.md]',
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

/**
 * What each surface makes of each kind of result, one row a kind and one column a surface. The
 * provider columns are what their run functions return; each is typed by that SDK's own parameter
 * type below, so that tsc holds the forms to the SDKs (test/surfaces/provider-results.test.ts
 * sends them through the SDKs).
 */
const PDF_BYTES = new TextEncoder().encode('%PDF-1.7 May');
const SVG = new TextEncoder().encode('<svg/>');
const DOWN = 'The chart service is down';
const noInput = { input: z.object({}) };
const counts = z.object({ notes: z.number().int(), words: z.number().default(0) });

const kinds = {
  text: defineTool({ description: 'Text.', ...noInput }),
  structured: defineTool({ description: 'A value with an output schema.', ...noInput, output: counts }),
  structuredParts: defineTool({ description: 'Parts and structured content.', ...noInput, output: counts }),
  image: defineTool({ description: 'A PNG image.', ...noInput }),
  svg: defineTool({ description: 'An SVG image.', ...noInput }),
  audio: defineTool({ description: 'Audio.', ...noInput }),
  link: defineTool({ description: 'A resource link.', ...noInput }),
  textResource: defineTool({ description: 'An embedded text resource.', ...noInput }),
  pdfResource: defineTool({ description: 'An embedded PDF.', ...noInput }),
  binaryResource: defineTool({ description: 'Embedded bytes.', ...noInput }),
  mixed: defineTool({ description: 'Text and an image.', ...noInput }),
  failing: defineTool({ description: 'Fails.', ...noInput }),
};

const kindsRuntime = () =>
  createToolRuntime(prepareToolSet(kinds, { profiles: [...PROFILE_NAMES] }), {
    handlers: {
      text: () => 'Notes of May',
      structured: () => ({ notes: 3 }),
      structured_parts: () => content(['3 notes'], { structured: { notes: 3 } }) as never,
      image: () => image(PNG, 'image/png'),
      svg: () => image(SVG, 'image/svg+xml'),
      audio: () => audio(WAV, 'audio/wav'),
      link: () => resourceLink({ uri: 'file:///notes/may.md', name: 'may.md', description: 'Notes of May' }),
      text_resource: () =>
        resource({ uri: 'file:///notes/summary.md', mimeType: 'text/markdown', text: '# Summary' }),
      pdf_resource: () =>
        resource({ uri: 'file:///notes/may.pdf', mimeType: 'application/pdf', data: PDF_BYTES }),
      binary_resource: () =>
        resource({ uri: 'file:///notes/raw.bin', mimeType: 'application/octet-stream', data: WAV }),
      mixed: () => content(['Chart of May', image(PNG, 'image/png')]),
      failing: () => {
        throw new Error(DOWN);
      },
    },
  });
type KindsRuntime = ReturnType<typeof kindsRuntime>;
/** A kind's tool: its key in snake case (`pdfResource` → `pdf_resource`). */
const toolName = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

// Each provider's run function, its answer typed by the SDK's own parameter type: tsc judges the form.
const chatCell = async (runtime: KindsRuntime, name: string): Promise<ChatCompletionToolMessageParam> =>
  runChatToolCall(runtime, { id: 'call_1', type: 'function', function: { name, arguments: '{}' } });
const responsesCell = async (
  runtime: KindsRuntime,
  name: string,
): Promise<ResponseInputItem.FunctionCallOutput> =>
  runResponsesFunctionCall(runtime, { call_id: 'call_1', name, arguments: '{}' });
const anthropicCell = async (runtime: KindsRuntime, name: string): Promise<ToolResultBlockParam> =>
  runAnthropicToolUse(runtime, { id: 'tu_1', name, input: {} });
const geminiCell = async (runtime: KindsRuntime, name: string): Promise<Part> =>
  runGeminiFunctionCall(runtime, { id: 'g1', name, args: {} });
type AgentsOutput = string | (ToolOutputText | ToolOutputImage | ToolOutputFileContent)[];
const agentsCell = async (runtime: KindsRuntime, name: string): Promise<AgentsOutput> => {
  const tool = agentsTools(runtime).find(
    (candidate): candidate is FunctionTool => candidate.type === 'function' && candidate.name === name,
  );
  // What execute returns, or, for a failed call, what the tool's errorFunction gives the model.
  return (await tool?.invoke(new RunContext(), '{}')) as ReturnType<typeof renderAgentsOutput>;
};

const P = b64(PNG);
const S = b64(SVG);
const W = b64(WAV);
const D = b64(PDF_BYTES);
const LINK = '[resource link may.md: file:///notes/may.md — Notes of May]';
const PNG_OUT = `[left out: image image/png, ${PNG.length} bytes]`;
const SVG_OUT = `[left out: image image/svg+xml, ${SVG.length} bytes]`;
const WAV_OUT = `[left out: audio audio/wav, ${WAV.length} bytes]`;
const PDF_OUT = `[left out: resource file:///notes/may.pdf, application/pdf, ${PDF_BYTES.length} bytes]`;
const BIN_OUT = `[left out: resource file:///notes/raw.bin, application/octet-stream, ${WAV.length} bytes]`;
const COUNTS = { notes: 3, words: 0 };
const COUNTS_TEXT = JSON.stringify(COUNTS);
const text = (value: string) => ({ type: 'text', text: value });
const pngBlock = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: P } };
const pngInline = { inlineData: { mimeType: 'image/png', data: P } };
const pngUrl = { type: 'input_image', image_url: `data:image/png;base64,${P}` };
const pngAgents = { type: 'image', image: { data: P, mediaType: 'image/png' } };

interface Row {
  readonly ai: unknown;
  readonly chat: unknown;
  readonly responses: unknown;
  readonly agents: unknown;
  readonly anthropic: unknown;
  readonly gemini: unknown;
  /** Lines of stdout, and stderr as `stderr: …`; `{dir}` is the media folder. */
  readonly cli: readonly string[];
  readonly mcp: unknown;
}

/** Text every provider reads as it is: one string (Gemini's `output`), and the AI SDK's parts. */
const textRow = (value: string, ai: unknown, mcp: unknown): Row => ({
  ai,
  chat: value,
  responses: value,
  agents: value,
  anthropic: { content: value },
  gemini: { response: { output: value } },
  cli: [value],
  mcp,
});

const ROWS: Record<keyof typeof kinds, Row> = {
  text: textRow('Notes of May', { type: 'text', value: 'Notes of May' }, { content: [text('Notes of May')] }),
  structured: {
    ...textRow(COUNTS_TEXT, { type: 'json', value: COUNTS }, {}),
    cli: [JSON.stringify(COUNTS, null, 2)],
    mcp: { content: [text(COUNTS_TEXT)], structuredContent: COUNTS },
  },
  structuredParts: {
    ...textRow('3 notes', { type: 'content', value: [text('3 notes')] }, {}),
    cli: ['3 notes', JSON.stringify(COUNTS, null, 2)],
    mcp: { content: [text('3 notes')], structuredContent: COUNTS },
  },
  image: {
    ai: { type: 'content', value: [{ type: 'image-data', data: P, mediaType: 'image/png' }] },
    chat: PNG_OUT,
    responses: [pngUrl],
    agents: [pngAgents],
    anthropic: { content: [pngBlock] },
    gemini: { response: { output: '' }, parts: [pngInline] },
    cli: ['[image/png written to {dir}/image-1.png]'],
    mcp: { content: [{ type: 'image', data: P, mimeType: 'image/png' }] },
  },
  svg: {
    ...textRow(
      SVG_OUT,
      { type: 'content', value: [{ type: 'image-data', data: S, mediaType: 'image/svg+xml' }] },
      {},
    ),
    cli: ['[image/svg+xml written to {dir}/svg-1.svg]'],
    mcp: { content: [{ type: 'image', data: S, mimeType: 'image/svg+xml' }] },
  },
  audio: {
    ...textRow(
      WAV_OUT,
      { type: 'content', value: [{ type: 'file-data', data: W, mediaType: 'audio/wav' }] },
      {},
    ),
    cli: ['[audio/wav written to {dir}/audio-1.wav]'],
    mcp: { content: [{ type: 'audio', data: W, mimeType: 'audio/wav' }] },
  },
  link: textRow(
    LINK,
    { type: 'content', value: [text(LINK)] },
    {
      content: [
        { type: 'resource_link', uri: 'file:///notes/may.md', name: 'may.md', description: 'Notes of May' },
      ],
    },
  ),
  textResource: textRow(
    '# Summary',
    { type: 'content', value: [text('# Summary')] },
    {
      content: [
        {
          type: 'resource',
          resource: { uri: 'file:///notes/summary.md', mimeType: 'text/markdown', text: '# Summary' },
        },
      ],
    },
  ),
  pdfResource: {
    ai: {
      type: 'content',
      value: [{ type: 'file-data', data: D, mediaType: 'application/pdf', filename: 'may.pdf' }],
    },
    chat: PDF_OUT,
    responses: [{ type: 'input_file', file_data: `data:application/pdf;base64,${D}`, filename: 'may.pdf' }],
    agents: [{ type: 'file', file: { data: D, mediaType: 'application/pdf', filename: 'may.pdf' } }],
    anthropic: {
      content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: D } }],
    },
    gemini: { response: { output: '' }, parts: [{ inlineData: { mimeType: 'application/pdf', data: D } }] },
    cli: ['[application/pdf written to {dir}/pdf_resource-1.pdf]'],
    mcp: {
      content: [
        {
          type: 'resource',
          resource: { uri: 'file:///notes/may.pdf', mimeType: 'application/pdf', blob: D },
        },
      ],
    },
  },
  binaryResource: {
    ...textRow(
      BIN_OUT,
      {
        type: 'content',
        value: [{ type: 'file-data', data: W, mediaType: 'application/octet-stream', filename: 'raw.bin' }],
      },
      {},
    ),
    cli: ['[application/octet-stream written to {dir}/binary_resource-1.bin]'],
    mcp: {
      content: [
        {
          type: 'resource',
          resource: { uri: 'file:///notes/raw.bin', mimeType: 'application/octet-stream', blob: W },
        },
      ],
    },
  },
  mixed: {
    ai: {
      type: 'content',
      value: [text('Chart of May'), { type: 'image-data', data: P, mediaType: 'image/png' }],
    },
    chat: `Chart of May\n${PNG_OUT}`,
    responses: [{ type: 'input_text', text: 'Chart of May' }, pngUrl],
    agents: [text('Chart of May'), pngAgents],
    anthropic: { content: [text('Chart of May'), pngBlock] },
    gemini: { response: { output: 'Chart of May' }, parts: [pngInline] },
    cli: ['Chart of May', '[image/png written to {dir}/mixed-2.png]'],
    mcp: { content: [text('Chart of May'), { type: 'image', data: P, mimeType: 'image/png' }] },
  },
  failing: {
    ai: { type: 'error-text', value: DOWN },
    chat: DOWN,
    responses: DOWN,
    agents: DOWN,
    anthropic: { content: DOWN, is_error: true },
    gemini: { response: { error: DOWN } },
    cli: [`stderr: ${DOWN}`],
    mcp: { content: [text(DOWN)], isError: true },
  },
};

describe('each kind of result on each surface', () => {
  const runtime = kindsRuntime();
  const mediaDir = mkdtempSync(path.join(tmpdir(), 'toolprep-kinds-'));
  let client: Client;
  beforeAll(async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(runtime, { name: 'test', version: '1.0.0' }).connect(serverSide);
    client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
  });
  afterAll(async () => {
    await client.close();
    rmSync(mediaDir, { recursive: true, force: true });
  });

  test.each(Object.entries(ROWS))('%s', async (key, row) => {
    const name = toolName(key);
    const { tool_use_id, type, ...anthropic } = await anthropicCell(runtime, name);
    const { id, name: named, ...gemini } = (await geminiCell(runtime, name)).functionResponse ?? {};
    const lines: string[] = [];
    const code = await runToolCli(runtime, [name], {
      stdout: (line) => lines.push(line),
      stderr: (line) => lines.push(`stderr: ${line}`),
      mediaDir,
    });
    expect({
      ai: await aiOutputShown(runtime, name),
      chat: (await chatCell(runtime, name)).content,
      responses: (await responsesCell(runtime, name)).output,
      agents: await agentsCell(runtime, name),
      anthropic,
      gemini,
      cli: lines,
      mcp: await client.callTool({ name, arguments: {} }),
    }).toEqual({ ...row, cli: row.cli.map((line) => line.replace('{dir}', mediaDir)) });
    expect([tool_use_id, type, id, named, code]).toEqual([
      'tu_1',
      'tool_result',
      'g1',
      name,
      key === 'failing' ? 1 : 0,
    ]);
  });

  test.each(Object.keys(ROWS).filter((key) => key !== 'failing'))(
    '%s: renderMcpResult gives what the MCP server sends',
    async (key) => {
      const tool = runtime.list().find((candidate) => candidate.name === toolName(key));
      const result = await runtime.call(tool?.name as string, {});
      if (!result.ok) throw new Error(result.error.message);
      const rendered: Pick<CallToolResult, 'content' | 'structuredContent'> = renderMcpResult(
        result.value,
        tool?.outputSchema !== undefined,
      );
      expect(rendered).toEqual(ROWS[key as keyof typeof kinds].mcp);
    },
  );
});
