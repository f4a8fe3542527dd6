import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { node22 } from '../../scripts/side-tools.mjs';
import { aiSdkRanker } from '../../src/generate/findability/ai-sdk.js';
import { rankOf } from '../../src/generate/findability/ranking.js';
import type { PreparedTool } from '../../src/manifest/prepared-tool.js';
import { ai7Project } from '../support/ai7-project.js';
import { REPO } from '../support/fixture-project.js';

/**
 * The AI SDK ranker against the real thing: AI SDK 7's `toolSearch()` (which needs Node 22), asked
 * by a scripted model through `generateText`, on tool sets and queries fast-check makes. The
 * findability check must put each tool where the SDK would.
 */
let nodeBinary: string;
let project: string;
beforeAll(() => {
  nodeBinary = node22();
  project = ai7Project('toolprep-ai7-search-');
  writeFileSync(path.join(project, 'run.mjs'), SCRIPT);
}, 180_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

const SCRIPT = `
import { readFileSync } from 'node:fs';
import { generateText, jsonSchema, stepCountIs, tool, toolSearch } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { scriptedModel, toolOutputShown } from '${pathToFileURL(path.join(REPO, 'test/support/scripted-model.mjs')).href}';

const answers = [];
for (const { tools, query } of JSON.parse(readFileSync('cases.json', 'utf8'))) {
  const prompts = [];
  const deferred = Object.fromEntries(tools.map(({ name, description }) => [
    name,
    tool({ description, inputSchema: jsonSchema({ type: 'object' }), deferLoading: true, execute: () => '' }),
  ]));
  await generateText({
    model: scriptedModel(MockLanguageModelV3, 'search', { query }, prompts),
    tools: { ...deferred, search: toolSearch() },
    prompt: 'find',
    stopWhen: stepCountIs(2),
  });
  answers.push(toolOutputShown(prompts).value.tools.map((found) => found.name));
}
console.log(JSON.stringify(answers));
`;

const WORDS = [
  'issue',
  'Issues',
  'create',
  'list',
  'get',
  'deploy',
  'status',
  'a',
  'the',
  'user',
  'team',
  'message',
];
const word = fc.constantFrom(...WORDS);
const toolSet = fc.uniqueArray(
  fc.record({
    name: fc
      .tuple(word, word, fc.boolean())
      .map(([a, b, camel]) =>
        camel ? `${a.toLowerCase()}${b[0]?.toUpperCase()}${b.slice(1)}` : `${a}_${b}`.toLowerCase(),
      ),
    description: fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => `${words.join(' ')}.`),
  }),
  { minLength: 1, maxLength: 9, selector: (entry) => entry.name },
);
const cases = fc.sample(
  fc.record({
    tools: toolSet,
    query: fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')),
  }),
  { numRuns: 60, seed: 33 },
);

test('the ranker puts each tool where AI SDK 7 toolSearch() answers it, over 60 generated sets', () => {
  writeFileSync(path.join(project, 'cases.json'), JSON.stringify(cases));
  const run = spawnSync(nodeBinary, ['run.mjs'], { cwd: project, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  const answers = JSON.parse(run.stdout) as string[][];
  const ours = cases.map(({ tools, query }) => {
    const ranker = aiSdkRanker(tools as unknown as PreparedTool[]);
    const scores = ranker.scores(query);
    return tools
      .map((tool, position) => ({ name: tool.name, rank: rankOf(ranker, scores, position) }))
      .filter((entry): entry is { name: string; rank: number } => entry.rank !== undefined && entry.rank <= 5)
      .sort((a, b) => a.rank - b.rank)
      .map((entry) => entry.name);
  });
  expect(answers.filter((answer) => answer.length > 0).length).toBeGreaterThan(30);
  expect(ours).toEqual(answers);
}, 120_000);
