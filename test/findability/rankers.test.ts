import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { aiSdkRanker } from '../../src/generate/findability/ai-sdk.js';
import { claudeCodeRanker } from '../../src/generate/findability/claude-code.js';
import { codexRanker, tokenizeLikeCodex } from '../../src/generate/findability/codex.js';
import { porter2 } from '../../src/generate/findability/porter2.js';
import { rankOf, toolprepRanker } from '../../src/generate/findability/ranking.js';

const contract = (name: string, description: string, input: z.ZodObject = z.object({})) =>
  defineTool({ name, description, input });
const { prepared } = prepareToolSet({
  createIssue: contract('create_issue', 'Create an issue in a project.', z.object({ title: z.string() })),
  listIssues: contract('list_issues', 'List the issues of a project, filtered by state.'),
  sendMessage: contract(
    'send_message',
    'Post a chat message to a channel.',
    z.object({ channel: z.string() }),
  ),
  getDeploymentStatus: contract('getDeploymentStatus', 'Whether a deployment is live.'),
});
const names = prepared.map((tool) => tool.name);
const ranked = (ranker: ReturnType<typeof aiSdkRanker>, query: string) => {
  const scores = ranker.scores(query);
  return names
    .map((name, position) => ({ name, rank: rankOf(ranker, scores, position) }))
    .filter((entry) => entry.rank !== undefined)
    .sort((a, b) => (a.rank as number) - (b.rank as number))
    .map((entry) => entry.name);
};

describe('the AI SDK 7 rule: 2 per distinct name word, 1 per description word, ties in order', () => {
  test.each([
    ['issue', ['create_issue']],
    ['issues', ['list_issues']],
    ['deployment status', ['getDeploymentStatus']],
    // Every word counts, "a" too: ties keep the tools' order.
    ['a project', ['create_issue', 'list_issues', 'send_message', 'getDeploymentStatus']],
    ['post to the channel', ['send_message', 'list_issues']],
    ['nothing here', []],
  ])('%s → %j', (query, expected) => {
    expect(ranked(aiSdkRanker(prepared), query)).toEqual(expected);
  });
});

describe('Codex: BM25 over its fields, UAX #29 words, NLTK stop words, Snowball stems', () => {
  test.each([
    ['create_issue for WEB-1423', ['create_issu', 'web', '1423']],
    ['Deployments are running', ['deploy', 'run']],
    ['the café’s menus', ['cafe', 'menus']],
  ])('tokenizes %s', (text, expected) => {
    expect(tokenizeLikeCodex(text)).toEqual(expected);
  });

  test('a whole snake_case name is one word; its parts reach the tool only through other fields', () => {
    const codex = codexRanker(prepared);
    expect(ranked(codex, 'create_issue')[0]).toBe('create_issue');
    expect(ranked(codex, 'channel')).toEqual(['send_message']);
  });

  test('a tie counts against every tool in it when the client orders ties at random (Codex)', () => {
    const codex = codexRanker(prepared);
    const aiSdk = aiSdkRanker(prepared);
    expect([0, 1, 2].map((position) => rankOf(codex, [1, 1, 0.5], position))).toEqual([2, 2, 3]);
    expect([0, 1, 2].map((position) => rankOf(aiSdk, [1, 1, 0.5], position))).toEqual([1, 2, 3]);
    expect(rankOf(aiSdk, [1, 0, 0.5], 1)).toBeUndefined();
  });

  test.each([
    ['issues', 'issu'],
    ['running', 'run'],
    ['deployments', 'deploy'],
    ['generously', 'generous'],
    ['caresses', 'caress'],
    ['ponies', 'poni'],
    ['ties', 'tie'],
    ['dying', 'die'],
    ['news', 'news'],
    ['agreed', 'agre'],
    ['hopping', 'hop'],
    ['hoping', 'hope'],
    ['relational', 'relat'],
    ['conditional', 'condit'],
    ['formalize', 'formal'],
    ['electrical', 'electr'],
    ['adjustment', 'adjust'],
    ['controlling', 'control'],
    ['communication', 'communic'],
    ['generalization', 'general'],
    ['happily', 'happili'],
    ['skies', 'sky'],
    ['inning', 'inning'],
    ['cancelled', 'cancel'],
    ['retries', 'retri'],
    ['organization', 'organ'],
    ['webhooks', 'webhook'],
  ])('Porter2 stems %s to %s, as Snowball does', (word, stem) => {
    expect(porter2(word)).toBe(stem);
  });
});

describe('Claude Code (approximate): name parts 12, substrings 6 and 4, hint 4, description 2', () => {
  test.each([
    ['issue', ['create_issue', 'list_issues']],
    ['send', ['send_message']],
    ['chat', ['send_message']],
    ['deployment', ['getDeploymentStatus']],
  ])('%s → %j', (query, expected) => {
    expect(ranked(claudeCodeRanker(prepared), query)).toEqual(expected);
  });

  test('one query word scores every dimension it meets', () => {
    const claude = claudeCodeRanker(prepared);
    // list_issues: part "issues" 12 + coarse "list_issues" contains it 4; description word 2.
    expect(claude.scores('issues')[names.indexOf('list_issues')]).toBe(18);
    // create_issue: part "issue" 12 + coarse substring 4; "Create an issue" description 2.
    expect(claude.scores('issue')[names.indexOf('create_issue')]).toBe(18);
  });
});

describe("toolprep's index: BM25, name words weigh two, argument names and descriptions count", () => {
  test.each([
    ['list issues filtered by state', 'list_issues'],
    ['post a message to a channel', 'send_message'],
    ['is the deployment live', 'getDeploymentStatus'],
  ])('%s → %s first', (query, expected) => {
    expect(ranked(toolprepRanker(prepared), query)[0]).toBe(expected);
  });
});
