import { prepareToolSet } from '@toolprep/build';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { defineTool } from 'toolprep';
import { aiTools } from 'toolprep/ai';
import { createToolRuntime } from 'toolprep/runtime';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { scriptedModel, toolOutputShown } from '../support/scripted-model.mjs';

/** A model that makes one tool call with these arguments, then stops. */
const modelCalling = (toolName: string, args: object, prompts: unknown[][] = []) =>
  scriptedModel(MockLanguageModelV3, toolName, args, prompts);

function notesRuntime() {
  const calls: unknown[] = [];
  let parses = 0;
  const readNotes = defineTool({
    description: 'Read one note or several.',
    input: z.object({
      paths: z.union([z.string(), z.array(z.string())]).transform((paths) => {
        parses++;
        return [paths].flat();
      }),
      options: z.object({ lines: z.number() }).optional(),
    }),
  });
  const runtime = createToolRuntime(prepareToolSet({ readNotes }), {
    handlers: {
      read_notes: (args: { paths: string[] }) => {
        calls.push(args);
        return `read ${args.paths.length}`;
      },
    },
  });
  return { runtime, calls, parses: () => parses };
}

test('the tools carry the prepared draft-07 document as their schema', async () => {
  const { runtime } = notesRuntime();
  const tools = aiTools(runtime);
  expect(Object.keys(tools)).toEqual(['read_notes']);
  const schema = await (tools.read_notes as unknown as { inputSchema: { jsonSchema: unknown } }).inputSchema
    .jsonSchema;
  expect(schema).toBe(runtime.list()[0]?.inputSchema.agent);
});

test('a double-serialised tool call is repaired and executed once', async () => {
  const { runtime, calls, parses } = notesRuntime();
  const result = await generateText({
    model: modelCalling('read_notes', { paths: ['a.md'], options: '{"lines":3}' }),
    tools: aiTools(runtime),
    prompt: 'read',
    stopWhen: stepCountIs(2),
  });
  expect(calls).toEqual([{ paths: ['a.md'], options: { lines: 3 } }]);
  expect(parses()).toBe(1);
  expect(result.steps[0]?.toolResults).toEqual([
    expect.objectContaining({ toolName: 'read_notes', output: 'read 1' }),
  ]);
  expect(result.text).toBe('done');
});

test('a list written as text fails with the refusal, and the handler never runs', async () => {
  const { runtime, calls, parses } = notesRuntime();
  const prompts: unknown[][] = [];
  const result = await generateText({
    model: modelCalling('read_notes', { paths: '["a.md","b.md"]' }, prompts),
    tools: aiTools(runtime),
    prompt: 'read',
    stopWhen: stepCountIs(2),
  });
  expect(calls).toEqual([]);
  expect(parses()).toBe(0);
  const errors = result.steps[0]?.content.filter((part) => part.type === 'tool-error');
  expect(errors).toEqual([
    expect.objectContaining({
      toolName: 'read_notes',
      error: expect.objectContaining({
        name: 'ToolCallError',
        code: 'VALIDATION_ERROR',
        message: 'paths is a list written as text — pass the array itself, not JSON written as text',
      }),
    }),
  ]);
  // What the model reads next is the runner's message itself, with no class name before it.
  expect(toolOutputShown(prompts)).toEqual({
    type: 'error-text',
    value: 'paths is a list written as text — pass the array itself, not JSON written as text',
  });
});

test('with a profile, each tool is its strict document, and a null for a key left out is undone', async () => {
  const calls: unknown[] = [];
  const search = defineTool({
    description: 'Search notes.',
    input: z.object({ q: z.string(), limit: z.number().int().optional() }),
  });
  const runtime = createToolRuntime(prepareToolSet({ search }, { profiles: ['openai-strict'] }), {
    handlers: { search: (args: unknown) => calls.push(args) },
  });
  const tools = aiTools(runtime, { profile: 'openai-strict' });
  const tool = tools.search as unknown as { inputSchema: { jsonSchema: unknown }; strict?: boolean };
  expect(await tool.inputSchema.jsonSchema).toBe(runtime.list()[0]?.profiles?.['openai-strict']?.inputSchema);
  expect(tool.strict).toBe(true);
  await generateText({
    model: modelCalling('search', { q: 'cats', limit: null }),
    tools,
    prompt: 'search',
    stopWhen: stepCountIs(2),
  });
  expect(calls).toEqual([{ q: 'cats' }]);
  expect(() => aiTools(runtime, { profile: 'gemini' })).toThrow(
    'tool "search" was not prepared for the profile gemini',
  );
});
