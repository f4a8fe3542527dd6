import { type Problem, prepareTool, prepareToolSet, ToolprepError } from '@toolprep/build';
import fc from 'fast-check';
import { defineTool } from 'toolprep';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { surfaceOptionsSchema } from '../../src/config/options-schema.js';
import type { Manifest } from '../../src/manifest/manifest.js';
import type { PreparedTool } from '../../src/manifest/prepared-tool.js';
import { arrangeSurface, declaredDisclosureOf } from '../../src/prepare/surface-arrangement.js';
import { GenerationalMemo } from '../../src/shared/build/generational-memo.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';

/**
 * The surface a client meets, decided over the whole set at build: each tool's groups (its
 * folder's or its contract's, then the config's) and whether it loads on the first turn.
 */

const input = z.object({ id: z.string().describe('The id.') });
const tool = (extra: Record<string, unknown> = {}) =>
  defineTool({ description: 'Does one thing well.', input, ...extra });

type Outcome =
  | { readonly tools: Record<string, { groups?: readonly string[]; loading?: string; searchHint?: string }> }
  | { readonly problems: readonly Pick<Problem, 'code' | 'tool' | 'field'>[] };

function arranged(
  contracts: Record<string, ReturnType<typeof tool>>,
  options: Parameters<typeof prepareToolSet>[1] = {},
): Outcome {
  try {
    const set = prepareToolSet(contracts, { warn: () => {}, ...options });
    return {
      tools: Object.fromEntries(
        set.prepared.map(({ name, groups, loading, searchHint }) => [
          name,
          {
            ...(groups ? { groups } : {}),
            ...(loading ? { loading } : {}),
            ...(searchHint ? { searchHint } : {}),
          },
        ]),
      ),
    };
  } catch (error) {
    if (!(error instanceof ToolprepError)) throw error;
    return { problems: error.problems.map(({ code, tool, field }) => ({ code, tool, field })) };
  }
}

describe('groups and loading, case by case', () => {
  test.each<[string, Record<string, ReturnType<typeof tool>>, Parameters<typeof prepareToolSet>[1], Outcome]>(
    [
      ['no groups, a small set: nothing recorded', { a: tool(), b: tool() }, {}, { tools: { a: {}, b: {} } }],
      [
        'contract groups, and the config adds one',
        { a: tool({ group: 'issues' }), b: tool({ group: 'ci' }) },
        { groups: { triage: { description: 'Triage.', tools: ['a', 'b'] } } },
        { tools: { a: { groups: ['issues', 'triage'] }, b: { groups: ['ci', 'triage'] } } },
      ],
      [
        'a pattern puts tools in a group of the config',
        { list_issues: tool(), get_issue: tool(), run_ci: tool() },
        { groups: { issues: { tools: ['*_issue*'] }, ci: { tools: ['run_*'] } } },
        {
          tools: {
            list_issues: { groups: ['issues'] },
            get_issue: { groups: ['issues'] },
            run_ci: { groups: ['ci'] },
          },
        },
      ],
      [
        'a tool in no group of a grouped set is an error naming it',
        { a: tool({ group: 'issues' }), b: tool() },
        {},
        { problems: [{ code: 'tool-without-group', tool: 'b', field: 'group' }] },
      ],
      [
        'a group of the config with no tools is an error naming it',
        { a: tool({ group: 'issues' }) },
        { groups: { billing: { description: 'Money.' } } },
        { problems: [{ code: 'group-without-tools', tool: undefined, field: 'groups.billing' }] },
      ],
      [
        'past deferAbove every tool is deferred but those marked eager',
        { a: tool(), b: tool({ loading: 'eager' }), c: tool() },
        { loading: { deferAbove: 0, eager: ['c'] } },
        { tools: { a: { loading: 'deferred' }, b: {}, c: {} } },
      ],
      [
        'the config wins over the contract, a name before a pattern',
        { a: tool({ loading: 'eager' }), b: tool({ loading: 'deferred' }) },
        { loading: { deferred: ['a'], eager: ['b'] } },
        { tools: { a: { loading: 'deferred' }, b: {} } },
      ],
      [
        'a name in both eager and deferred is an error, never one of them winning',
        { a: tool(), b: tool() },
        { loading: { eager: ['a'], deferred: ['a'] } },
        { problems: [{ code: 'config-invalid-option', tool: undefined, field: 'loading' }] },
      ],
      [
        'under deferAbove a contract may still defer itself',
        { a: tool({ loading: 'deferred', searchHint: 'refund chargeback' }), b: tool() },
        {},
        { tools: { a: { loading: 'deferred', searchHint: 'refund chargeback' }, b: {} } },
      ],
    ],
  )('%s', (_name, contracts, options, outcome) => {
    expect(arranged(contracts, options)).toEqual(outcome);
  });

  test.each<[string, Record<string, unknown>, Pick<Problem, 'code' | 'field'>]>([
    ['a group name with capitals', { group: 'Issues' }, { code: 'invalid-group', field: 'group' }],
    ['a group name with a doubled hyphen', { group: 'ci--jobs' }, { code: 'invalid-group', field: 'group' }],
    ['a group name ending in a hyphen', { group: 'ci-' }, { code: 'invalid-group', field: 'group' }],
    ['a loading that is neither', { loading: 'lazy' }, { code: 'invalid-loading', field: 'loading' }],
    ['an empty search hint', { searchHint: ' ' }, { code: 'invalid-search-hint', field: 'searchHint' }],
    [
      'an intent that is not text',
      { intents: ['find a bug', 3] },
      { code: 'invalid-intents', field: 'intents[1]' },
    ],
    [
      'alwaysLoad written by hand in meta',
      { meta: { 'anthropic/alwaysLoad': true } },
      { code: 'unknown-key', field: 'meta.anthropic/alwaysLoad' },
    ],
    [
      'group membership written by hand in meta',
      { meta: { 'io.modelcontextprotocol/groups': ['a'] } },
      { code: 'unknown-key', field: 'meta.io.modelcontextprotocol/groups' },
    ],
  ])('%s is a build error naming the field', (_name, extra, problem) => {
    expect(arranged({ a: tool(extra) })).toEqual({ problems: [{ ...problem, tool: 'a' }] });
  });

  test('a name in the config that matches no tool is reported, never ignored', () => {
    const warnings: Problem[] = [];
    prepareToolSet(
      { a: tool({ group: 'issues' }) },
      {
        warn: (problem) => warnings.push(problem),
        groups: { issues: { tools: ['b'] } },
        loading: { eager: ['c*'] },
      },
    );
    expect(warnings.map(({ code, field }) => ({ code, field }))).toEqual([
      { code: 'name-matches-nothing', field: 'groups.issues.tools' },
      { code: 'group-without-description', field: 'groups.issues' },
      { code: 'name-matches-nothing', field: 'loading.eager' },
    ]);
  });

  test('property: in a grouped set every tool is in a group, or the build names the one that is not', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.constantFrom('issues', 'ci', 'billing'), { nil: undefined }), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.subarray(['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7']),
        (ownGroups, inConfig) => {
          const contracts = Object.fromEntries(
            ownGroups.map((group, index) => [`t${index}`, tool(group ? { group } : {})]),
          );
          const outcome = arranged(contracts, {
            groups: inConfig.length > 0 ? { extra: { description: 'More.', tools: inConfig } } : {},
          });
          const grouped =
            ownGroups.some(Boolean) || ownGroups.some((_, index) => inConfig.includes(`t${index}`));
          if ('problems' in outcome) {
            for (const problem of outcome.problems)
              expect(['tool-without-group', 'group-without-tools']).toContain(problem.code);
            return;
          }
          for (const arrangedTool of Object.values(outcome.tools))
            expect((arrangedTool.groups?.length ?? 0) > 0).toBe(grouped);
        },
      ),
    );
  });
});

describe('a large project: groups from folders, described by their index modules', () => {
  let fixture: FixtureProject;
  let manifest: Manifest;
  beforeAll(() => {
    fixture = copyFixture('large-set');
    const generated = fixture.cli('generate', '--quiet');
    expect(generated.stderr).toBe('');
    expect(generated.status).toBe(0);
    manifest = JSON.parse(fixture.read('toolprep.manifest.json')) as Manifest;
  }, 180_000);
  afterAll(() => fixture?.remove());

  test('16 groups, each described, every tool in its folder’s group, and past 10,000 tokens deferred', () => {
    expect(manifest.groups?.map((group) => group.name)).toEqual([
      'billing',
      'calendar',
      'chat',
      'ci',
      'deployments',
      'docs-wiki',
      'feature-flags',
      'incidents',
      'issues',
      'monitoring',
      'pull-requests',
      'repositories',
      'search',
      'security',
      'storage',
      'users-and-teams',
    ]);
    for (const group of manifest.groups ?? []) expect(group.description).toMatch(/\w+: .+\.$/);
    for (const entry of manifest.tools) {
      const folder = /^src\/tools\/([^/]+)\//.exec(entry.source)?.[1];
      expect(entry.groups).toEqual([folder]);
      expect(entry.loading).toBe('deferred');
    }
    expect(manifest.groups?.reduce((sum, group) => sum + group.tools.length, 0)).toBe(manifest.tools.length);
    expect(manifest.totals.tokens).toBeGreaterThan(10_000);
  });

  test('the generated module carries the groups for serving', () => {
    const module = fixture.read('src/toolprep.gen.ts');
    expect(module).toContain('groups: [{"name":"billing","description":"Billing:');
  });
});

describe('arranged tools kept between runs (a long-lived generator)', () => {
  const tools = Object.entries({ a: {}, b: { group: 'issues' }, c: { loading: 'eager' } }).map(
    ([name, extra]) => {
      const contract = tool({ name, ...extra });
      return {
        prepared: prepareTool(contract),
        declared: declaredDisclosureOf(contract),
        bytes: 100,
        tokens: () => 100,
      };
    },
  );
  const settingsOf = (deferAbove: number) => surfaceOptionsSchema.parse({ loading: { deferAbove } });

  test.each([
    ['every tool deferred but the eager one', 0],
    ['every tool eager', 10_000],
  ])(
    '%s: the tools kept are the tools arranged anew, and the same objects run after run',
    (_case, deferAbove) => {
      const memo = new GenerationalMemo<PreparedTool>();
      // A first run with the other loading, then two with this one.
      arrangeSurface(tools, settingsOf(deferAbove === 0 ? 10_000 : 0), undefined, memo);
      memo.endRun();
      const first = arrangeSurface(tools, settingsOf(deferAbove), undefined, memo);
      memo.endRun();
      const second = arrangeSurface(tools, settingsOf(deferAbove), undefined, memo);
      expect(first.tools).toEqual(arrangeSurface(tools, settingsOf(deferAbove)).tools);
      for (const [index, arranged] of second.tools.entries()) expect(arranged).toBe(first.tools[index]);
      expect(first.tools.map(({ loading }) => loading ?? 'eager')).toEqual(
        deferAbove === 0 ? ['deferred', 'deferred', 'eager'] : ['eager', 'eager', 'eager'],
      );
    },
  );
});
