import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { node22 } from '../../scripts/side-tools.mjs';
import { ai7Project } from '../support/ai7-project.js';
import { REPO } from '../support/fixture-project.js';

/**
 * AI SDK 7 (which needs Node 22) against the same tools: a project whose `ai` is version 7, with
 * toolprep installed in it as a user's is (so that `toolprep/ai` imports that `ai`), run by a Node
 * 22 this test installs once under node_modules/.cache (the `node` package on npm).
 */
let nodeBinary: string;
let project: string;
beforeAll(() => {
  nodeBinary = node22();
  project = ai7Project('toolprep-ai7-', ['toolprep']);
  const modules = path.join(project, 'node_modules');
  mkdirSync(path.join(modules, 'toolprep'), { recursive: true });
  cpSync(path.join(REPO, 'dist'), path.join(modules, 'toolprep/dist'), { recursive: true });
  cpSync(path.join(REPO, 'package.json'), path.join(modules, 'toolprep/package.json'));
  writeFileSync(path.join(project, 'run.mjs'), SCRIPT);
  writeFileSync(path.join(project, 'search.mjs'), SEARCH_SCRIPT);
}, 180_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

const SCRIPT = `
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { defineTool } from 'toolprep';
import { aiTools } from 'toolprep/ai';
import { prepareToolSet } from '@toolprep/build';
import { createToolRuntime } from 'toolprep/runtime';
import { z } from 'zod';
import { scriptedModel, toolOutputShown } from '${pathToFileURL(path.join(REPO, 'test/support/scripted-model.mjs')).href}';

const prompts = [];
const modelCalling = (toolName, args) => scriptedModel(MockLanguageModelV3, toolName, args, prompts);
const calls = [];
const readNotes = defineTool({ description: 'Read notes.', input: z.object({ paths: z.union([z.string(), z.array(z.string())]), limit: z.number().int().optional() }) });
const runtime = createToolRuntime(prepareToolSet({ readNotes }, { profiles: ['openai-strict'] }), {
  handlers: { read_notes: (args) => { calls.push(args); return 'read'; } },
});
const seen = [];
for (const [args, options] of [
  [{ paths: ['a.md'], limit: 'three' }, {}],
  [{ paths: '["a.md","b.md"]' }, {}],
  [{ paths: 'a.md', limit: null }, { profile: 'openai-strict' }],
]) {
  prompts.length = 0;
  await generateText({ model: modelCalling('read_notes', args), tools: aiTools(runtime, options), prompt: 'read', stopWhen: stepCountIs(2) });
  seen.push(toolOutputShown(prompts));
}
console.log(JSON.stringify({ node: process.version, seen, calls }));
`;

test('AI SDK 7 on Node 22: calls repaired, a refusal read by the model as the runner wrote it, a profile undone', () => {
  const run = spawnSync(nodeBinary, ['run.mjs'], { cwd: project, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  const { node, seen, calls } = JSON.parse(run.stdout);
  expect(node).toMatch(/^v22\./);
  expect(seen).toEqual([
    { type: 'error-text', value: expect.stringMatching(/^Invalid arguments: "limit" /) },
    {
      type: 'error-text',
      value: 'paths is a list written as text — pass the array itself, not JSON written as text',
    },
    { type: 'text', value: 'read' },
  ]);
  expect(calls).toEqual([{ paths: 'a.md' }]);
});

/**
 * Tools whose contracts are deferred, found by AI SDK 7's own `toolSearch()`: a model that
 * searches, then calls what it found.
 */
const SEARCH_SCRIPT = `
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { defineTool } from 'toolprep';
import { aiTools } from 'toolprep/ai';
import { prepareToolSet } from '@toolprep/build';
import { createToolRuntime } from 'toolprep/runtime';
import { z } from 'zod';

const input = z.object({ id: z.string() });
const contracts = {
  searchIssues: defineTool({ description: 'Find issues by words.', input, group: 'issues' }),
  closeIssue: defineTool({ description: 'Close an issue, with a comment.', input, group: 'issues', loading: 'deferred' }),
  archiveProject: defineTool({ description: 'Archive a project.', input, group: 'issues', loading: 'deferred' }),
};
const set = prepareToolSet(contracts, { warn: () => {} });
const calls = [];
const runtime = createToolRuntime(set, {
  handlers: Object.fromEntries(set.prepared.map(({ name }) => [name, (args) => { calls.push([name, args]); return name + ' done'; }])),
});
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const steps = [
  { toolName: 'tool_search', input: { query: 'close issue' } },
  { toolName: 'close_issue', input: { id: '7' } },
];
const shown = [];
const model = new MockLanguageModelV3({
  doGenerate: async (options) => {
    shown.push({ tools: (options.tools ?? []).map((tool) => tool.name), found: options.prompt.findLast((message) => message.role === 'tool')?.content.at(-1)?.output });
    const step = steps[shown.length - 1];
    return step
      ? { content: [{ type: 'tool-call', toolCallId: 'call-' + shown.length, toolName: step.toolName, input: JSON.stringify(step.input) }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] }
      : { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
  },
});
await generateText({ model, tools: aiTools(runtime), prompt: 'Close issue 7.', stopWhen: stepCountIs(4) });
const whole = [];
await generateText({ model: new MockLanguageModelV3({ doGenerate: async (options) => { whole.push(options.tools.map((tool) => tool.name)); return { content: [{ type: 'text', text: 'ok' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] }; } }), tools: aiTools(runtime, { deferral: false }), prompt: 'Close issue 7.' });
console.log(JSON.stringify({ shown, calls, whole }));
`;

test("AI SDK 7's toolSearch() finds a deferred toolprep tool, which the model then calls", () => {
  const run = spawnSync(nodeBinary, ['search.mjs'], { cwd: project, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  const { shown, calls, whole } = JSON.parse(run.stdout);
  expect(shown).toEqual([
    { tools: ['tool_search', 'search_issues'] },
    {
      tools: ['tool_search', 'search_issues', 'close_issue'],
      found: {
        type: 'json',
        value: { tools: [{ name: 'close_issue', description: 'Close an issue, with a comment.' }] },
      },
    },
    {
      tools: ['tool_search', 'search_issues', 'close_issue'],
      found: { type: 'text', value: 'close_issue done' },
    },
  ]);
  expect(calls).toEqual([['close_issue', { id: '7' }]]);
  expect(whole).toEqual([['search_issues', 'close_issue', 'archive_project']]);
});
