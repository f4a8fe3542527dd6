import { prepareToolSet } from '@toolprep/build';
import fc from 'fast-check';
import { defineTool } from 'toolprep';
import { aiTools } from 'toolprep/ai';
import { anthropicTools } from 'toolprep/anthropic';
import { geminiTools } from 'toolprep/gemini';
import { openaiChatTools, openaiResponsesTools, runChatToolCall } from 'toolprep/openai';
import { agentsTools } from 'toolprep/openai-agents';
import {
  type Caller,
  createToolRuntime,
  type PreparedTool,
  type PreparedToolSet,
  runtimeFor,
  type ToolRuntime,
} from 'toolprep/runtime';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

/**
 * Which tools a model-facing surface shows: those the caller's scopes cover (every tool for the
 * process), never a tool only an app may call; a hidden tool is called as an unknown one.
 */

const NAMES = ['alpha', 'beta', 'gamma', 'delta'] as const;
const base = prepareToolSet(
  Object.fromEntries(
    NAMES.map((name) => [
      name,
      defineTool({ name, description: `The ${name} tool.`, input: z.object({ id: z.string() }) }),
    ]),
  ),
  { warn: () => {}, profiles: ['openai-strict', 'anthropic', 'gemini'] },
);

interface Shape {
  readonly scopes?: readonly string[];
  readonly appOnly?: boolean;
}

/** The prepared set with each tool's access and view as given, and a count of contract loads. */
function toolSet(shapes: Readonly<Record<string, Shape>>): { set: PreparedToolSet; loads: string[] } {
  const loads: string[] = [];
  const prepared = base.prepared.map((tool): PreparedTool => {
    const shape = shapes[tool.name] ?? {};
    return {
      ...tool,
      ...(shape.scopes && shape.scopes.length > 0 ? { access: { scopes: shape.scopes } } : {}),
      ...(shape.appOnly
        ? { view: { resourceUri: `ui://${tool.name}/0.html`, visibility: ['app'] as const } }
        : {}),
    };
  });
  const load = Object.fromEntries(
    Object.entries(base.load).map(([name, loader]) => [
      name,
      () => {
        loads.push(name);
        return loader();
      },
    ]),
  );
  return { set: { ...base, prepared, load }, loads };
}

const handlers = Object.fromEntries(NAMES.map((name) => [name, () => `${name} ran`]));
const runtimeOf = (set: PreparedToolSet) => createToolRuntime(set, { handlers, hooks: { error() {} } });

/** The tool names each model-facing surface shows, by surface. */
function shownBy(runtime: ToolRuntime, caller: Caller | undefined): Record<string, string[]> {
  const seen = caller ? runtimeFor(runtime, { caller }) : runtime;
  const sorted = (names: string[]) => names.sort();
  return {
    ai: sorted(Object.keys(aiTools(runtime, caller ? { caller } : {}))),
    openaiChat: sorted(openaiChatTools(seen).map((tool) => tool.function.name)),
    openaiResponses: sorted(
      openaiResponsesTools(seen).flatMap((tool) => ('name' in tool ? [tool.name] : [])),
    ),
    anthropic: sorted(anthropicTools(seen).flatMap((tool) => ('input_schema' in tool ? [tool.name] : []))),
    gemini: sorted(geminiTools(seen).functionDeclarations.map((tool) => tool.name)),
    agents: sorted(agentsTools(seen).map((tool) => (tool as { name: string }).name)),
  };
}

const reader: Caller = { subject: 'reader', scopes: ['notes:read'] };
const writer: Caller = { subject: 'writer', scopes: ['notes:read', 'notes:write'] };
const shapes = {
  alpha: { scopes: ['notes:read'] },
  beta: { scopes: ['notes:read', 'notes:write'] },
  delta: { appOnly: true },
};

describe('two callers, two surfaces', () => {
  test('each sees the tools its scopes cover, on every model-facing surface; no one sees an app-only tool', () => {
    const runtime = runtimeOf(toolSet(shapes).set);
    const every = (names: string[]) =>
      Object.fromEntries(Object.keys(shownBy(runtime, reader)).map((s) => [s, names]));
    expect(shownBy(runtime, reader)).toEqual(every(['alpha', 'gamma']));
    expect(shownBy(runtime, writer)).toEqual(every(['alpha', 'beta', 'gamma']));
    expect(shownBy(runtime, undefined)).toEqual(every(['alpha', 'beta', 'gamma']));
    // The runtime itself (MCP's host, stdio) still lists every tool.
    expect(runtime.list().map((tool) => tool.name)).toEqual([...NAMES]);
  });

  test('a hidden tool is refused as an unknown one, and nothing of it is loaded', async () => {
    const { set, loads } = toolSet(shapes);
    const runtime = runtimeOf(set);
    const seen = runtimeFor(runtime, { caller: reader, model: true });
    const hidden = await seen.call('beta', { id: '1' });
    const unknown = await seen.call('omega', { id: '1' });
    expect(hidden.ok || unknown.ok).toBe(false);
    if (hidden.ok || unknown.ok) return;
    expect(hidden.error.code).toBe('UNKNOWN_TOOL');
    expect(hidden.error.message).toBe(unknown.error.message.replace('"omega"', '"beta"'));
    expect(hidden.error.message).toBe('Unknown tool "beta". Available tools: alpha, gamma.');
    expect((await seen.call('delta', { id: '1' })).ok).toBe(false);
    expect(loads).toEqual([]);

    const chat = (name: string) =>
      runChatToolCall(runtimeFor(runtime, { caller: reader }), {
        id: 'c1',
        type: 'function',
        function: { name, arguments: 'not json' },
      });
    expect((await chat('beta')).content).toBe((await chat('omega')).content.replace('"omega"', '"beta"'));

    const ai = aiTools(runtime, { caller: writer });
    expect(await ai.beta?.execute?.({ id: '1' }, { toolCallId: 't', messages: [] })).toBe('beta ran');
    expect(loads).toEqual(['beta']);
  });
});

test('property: the visible set is exactly the public tools and those whose scopes the caller holds, on every surface', () => {
  const scope = fc.constantFrom<string>('a', 'b', 'c');
  fc.assert(
    fc.property(
      fc.tuple(
        ...NAMES.map(() =>
          fc.record({ scopes: fc.uniqueArray(scope, { maxLength: 3 }), appOnly: fc.boolean() }),
        ),
      ),
      fc.option(fc.uniqueArray(scope, { maxLength: 3 }), { nil: undefined }),
      (assigned, held) => {
        const byName = Object.fromEntries(NAMES.map((name, index) => [name, assigned[index] as Shape]));
        const runtime = runtimeOf(toolSet(byName).set);
        const caller = held === undefined ? undefined : { subject: 's', scopes: held };
        const expected = NAMES.filter((name) => {
          const { scopes = [], appOnly } = byName[name] as Shape;
          return !appOnly && (held === undefined || scopes.every((each) => held.includes(each)));
        }).sort();
        for (const names of Object.values(shownBy(runtime, caller))) expect(names).toEqual(expected);
      },
    ),
    { numRuns: 60 },
  );
});
