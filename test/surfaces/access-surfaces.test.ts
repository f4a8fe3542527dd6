import { prepareToolSet } from '@toolprep/build';
import fc from 'fast-check';
import { defineTool } from 'toolprep';
import { aiTools } from 'toolprep/ai';
import { anthropicTools, runAnthropicToolUse } from 'toolprep/anthropic';
import { runToolCli } from 'toolprep/cli';
import { geminiTools, runGeminiFunctionCall } from 'toolprep/gemini';
import {
  openaiChatTools,
  openaiResponsesTools,
  runChatToolCall,
  runResponsesFunctionCall,
} from 'toolprep/openai';
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

/** What the shell CLI (`toolprep/cli`) answers: its exit code and what it wrote. */
async function shell(runtime: ToolRuntime, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runToolCli(runtime, argv, {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

/** The tool names each model-facing surface shows, by surface. */
async function shownBy(runtime: ToolRuntime, caller: Caller | undefined): Promise<Record<string, string[]>> {
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
    shell: sorted(
      (await shell(seen, 'list')).stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.split(' ')[0] as string),
    ),
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
  test('each sees the tools its scopes cover, on every model-facing surface; no one sees an app-only tool', async () => {
    const runtime = runtimeOf(toolSet(shapes).set);
    const surfaces = Object.keys(await shownBy(runtime, reader));
    expect(surfaces).toEqual([
      'ai',
      'openaiChat',
      'openaiResponses',
      'anthropic',
      'gemini',
      'agents',
      'shell',
    ]);
    const every = (names: string[]) => Object.fromEntries(surfaces.map((s) => [s, names]));
    expect(await shownBy(runtime, reader)).toEqual(every(['alpha', 'gamma']));
    expect(await shownBy(runtime, writer)).toEqual(every(['alpha', 'beta', 'gamma']));
    expect(await shownBy(runtime, undefined)).toEqual(every(['alpha', 'beta', 'gamma']));
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

test('an app-only tool is refused by every surface that calls for a model, as a tool it does not have', async () => {
  const { set, loads } = toolSet(shapes);
  const runtime = runtimeOf(set);
  const args = '{"id":"1"}';
  // Each surface's answer to a call of `name`: the app-only delta, and omega, which no one has.
  const answers = async (name: string) => ({
    chat: (await runChatToolCall(runtime, { id: 'c', function: { name, arguments: args } })).content,
    responses: (await runResponsesFunctionCall(runtime, { call_id: 'c', name, arguments: args })).output,
    anthropic: (await runAnthropicToolUse(runtime, { id: 'c', name, input: { id: '1' } })).content,
    gemini: (await runGeminiFunctionCall(runtime, { name, args: { id: '1' } })).functionResponse.response,
    shell: (await shell(runtime, name, '--json', args)).stderr,
  });
  const refused = await answers('delta');
  expect(refused).toEqual(JSON.parse(JSON.stringify(await answers('omega')).replaceAll('omega', 'delta')));
  expect(refused.shell).toBe('Unknown tool "delta". Available tools: alpha, beta, gamma.');
  // The AI SDK and the Agents SDK are given no tool to call: delta is not among them.
  expect(Object.keys(aiTools(runtime))).not.toContain('delta');
  expect(agentsTools(runtime).map((tool) => (tool as { name: string }).name)).not.toContain('delta');
  expect(loads).toEqual([]);
  // The runtime itself, which MCP serves, still calls it: a host lets only the view do so.
  expect(await runtime.call('delta', { id: '1' })).toMatchObject({ ok: true, value: 'delta ran' });
});

test("a group's view calls its own tools only, and is never widened to another group", async () => {
  const { set } = toolSet({});
  const grouped: PreparedToolSet = {
    ...set,
    prepared: set.prepared.map((tool) => ({ ...tool, groups: [tool.name === 'alpha' ? 'a' : 'b'] })),
  };
  const groupA = runtimeFor(runtimeOf(grouped), { group: 'a' });
  expect(groupA.list().map((tool) => tool.name)).toEqual(['alpha']);
  expect(await groupA.call('alpha', { id: '1' })).toMatchObject({ ok: true, value: 'alpha ran' });
  expect(await groupA.call('beta', { id: '1' })).toMatchObject({
    ok: false,
    error: { code: 'UNKNOWN_TOOL' },
  });
  // A programming error, thrown where the views are joined.
  expect(() => groupA.call('beta', { id: '1' }, {}, { audience: { group: 'b' } })).toThrow(
    'a view of group "a" was asked to serve group "b"',
  );
});

test('property: the visible set is exactly the public tools and those whose scopes the caller holds, on every surface', () => {
  const scope = fc.constantFrom<string>('a', 'b', 'c');
  return fc.assert(
    fc.asyncProperty(
      fc.tuple(
        ...NAMES.map(() =>
          fc.record({ scopes: fc.uniqueArray(scope, { maxLength: 3 }), appOnly: fc.boolean() }),
        ),
      ),
      fc.option(fc.uniqueArray(scope, { maxLength: 3 }), { nil: undefined }),
      async (assigned, held) => {
        const byName = Object.fromEntries(NAMES.map((name, index) => [name, assigned[index] as Shape]));
        const runtime = runtimeOf(toolSet(byName).set);
        const caller = held === undefined ? undefined : { subject: 's', scopes: held };
        const expected = NAMES.filter((name) => {
          const { scopes = [], appOnly } = byName[name] as Shape;
          return !appOnly && (held === undefined || scopes.every((each) => held.includes(each)));
        }).sort();
        for (const names of Object.values(await shownBy(runtime, caller))) expect(names).toEqual(expected);
      },
    ),
    { numRuns: 60 },
  );
});
