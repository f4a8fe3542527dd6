import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';
import { turnOneSizes } from '../../src/emit/turn-one.js';
import { turnOneOverruns } from '../../src/generate/turn-one-budget.js';
import type { PreparedTool } from '../../src/manifest/prepared-tool.js';
import type { ToolGroup } from '../../src/manifest/tool-set.js';
import { prepareTool } from '../../src/prepare/prepare-tool.js';
import { toolSize } from '../../src/prepare/tool-size.js';
import { tokensOf } from '../../src/shared/build/tokens.js';

/**
 * What a client is sent before the first message, per strategy, on a set of three tools: each
 * figure checked against the tokens of the texts a client is sent, written out here.
 */
const prepared = {
  create_issue: prepareTool(
    defineTool({
      name: 'create_issue',
      description: 'Open an issue in a repository.',
      input: z.object({
        repository: z.string().describe('Repository as "owner/name".'),
        title: z.string().min(1),
        body: z.string().optional(),
      }),
    }),
  ),
  list_issues: prepareTool(
    defineTool({
      name: 'list_issues',
      description: 'List the open issues of a repository.',
      input: z.object({ repository: z.string().describe('Repository as "owner/name".') }),
    }),
  ),
  get_deployment: prepareTool(
    defineTool({
      name: 'get_deployment',
      description: 'Show one deployment and its status.',
      input: z.object({ id: z.string() }),
    }),
  ),
};
type Name = keyof typeof prepared;

/** Each tool's group, in a project with groups. */
const MEMBERSHIP: Partial<Record<Name, string>> = {
  create_issue: 'issues',
  list_issues: 'issues',
  get_deployment: 'deployments',
};

/** The set with `deferred` deferred and each tool in the group `groups` gives it. */
function setOf(deferred: readonly Name[], groups: Partial<Record<Name, string>> = {}) {
  return (Object.keys(prepared) as Name[]).map((name) => {
    const tool: PreparedTool = {
      ...prepared[name],
      ...(deferred.includes(name) ? { loading: 'deferred' as const } : {}),
      ...(groups[name] ? { groups: [groups[name]] } : {}),
    };
    return { prepared: tool, size: toolSize(tool) };
  });
}

const whole = (name: Name): number => toolSize(prepared[name]).tokens;
const byName = (name: Name): number =>
  tokensOf(JSON.stringify({ name, description: prepared[name].description }));
const ISSUES: ToolGroup = { name: 'issues', description: 'Track and triage issues.' };
const DEPLOYMENTS: ToolGroup = { name: 'deployments' };
const listed = (group: ToolGroup): number => tokensOf(JSON.stringify(group));
const ALL = whole('create_issue') + whole('list_issues') + whole('get_deployment');

describe('turn one per client strategy', () => {
  test.each([
    {
      case: 'nothing deferred, no groups: every strategy sends every tool whole',
      deferred: [],
      groups: undefined,
      expected: { everything: ALL, deferred: ALL },
    },
    {
      case: 'one deferred: its name and description instead of the whole tool',
      deferred: ['list_issues'],
      groups: undefined,
      expected: {
        everything: ALL,
        deferred: whole('create_issue') + byName('list_issues') + whole('get_deployment'),
      },
    },
    {
      case: 'groups: the eager tools whole and each group by name and description',
      deferred: ['list_issues', 'get_deployment'],
      groups: [ISSUES, DEPLOYMENTS],
      expected: {
        everything: ALL,
        deferred: whole('create_issue') + byName('list_issues') + byName('get_deployment'),
        groups: whole('create_issue') + listed(ISSUES) + listed(DEPLOYMENTS),
      },
    },
    {
      case: 'every tool deferred: the groups strategy is the groups/list answer alone',
      deferred: ['create_issue', 'list_issues', 'get_deployment'],
      groups: [ISSUES, DEPLOYMENTS],
      expected: {
        everything: ALL,
        deferred: byName('create_issue') + byName('list_issues') + byName('get_deployment'),
        groups: listed(ISSUES) + listed(DEPLOYMENTS),
      },
    },
    {
      case: 'groups/list offers only the groups that hold a deferred tool; the others are top-level',
      deferred: ['list_issues'],
      groups: [ISSUES, DEPLOYMENTS],
      expected: {
        everything: ALL,
        deferred: whole('create_issue') + byName('list_issues') + whole('get_deployment'),
        groups: whole('create_issue') + whole('get_deployment') + listed(ISSUES),
      },
    },
    {
      case: 'an empty list of groups is no groups',
      deferred: [],
      groups: [],
      expected: { everything: ALL, deferred: ALL },
    },
  ] satisfies {
    case: string;
    deferred: Name[];
    groups: ToolGroup[] | undefined;
    expected: { everything: number; deferred: number; groups?: number };
  }[])('$case', ({ deferred, groups, expected }) => {
    const sizes = turnOneSizes(setOf(deferred, groups ? MEMBERSHIP : {}), groups);
    expect({
      everything: sizes.everything.tokens,
      deferred: sizes.deferred.tokens,
      ...(sizes.groups ? { groups: sizes.groups.tokens } : {}),
    }).toEqual(expected);
    // Bytes are counted alike: deferring never adds to a turn.
    expect(sizes.deferred.bytes).toBeLessThanOrEqual(sizes.everything.bytes);
  });
});

describe('budget.turnOne', () => {
  const found = (deferred: readonly Name[]) => setOf(deferred, MEMBERSHIP);
  const groups = [ISSUES, DEPLOYMENTS];

  test('within budget: no problem', () => {
    const deferredTurn = whole('create_issue') + byName('list_issues') + byName('get_deployment');
    expect(turnOneOverruns(found(['list_issues', 'get_deployment']), groups, deferredTurn)).toEqual([]);
  });

  test('an overrun names the tools with the largest shares, as many as must go for the rest to fit', () => {
    const tools = found(['get_deployment']);
    const spent = whole('create_issue') + whole('list_issues') + byName('get_deployment');
    // One token short: the largest share alone is enough to go.
    const [largest, second] = (['create_issue', 'list_issues'] as const)
      .map((name) => [name, whole(name)] as const)
      .sort((a, b) => b[1] - a[1]);
    const problems = turnOneOverruns(tools, undefined, { deferred: spent - 1 });
    expect(problems).toEqual([
      expect.objectContaining({
        code: 'over-budget',
        severity: 'error',
        message: `turn one under the deferred strategy (eager tools whole, deferred tools' names and descriptions) is ${spent} tokens, over budget.turnOne ${spent - 1}; the tools that break it, largest first: ${largest?.[0]} ${largest?.[1]} (eager)`,
      }),
    ]);
    // A budget that only the deferred tool's name and description fit: both eager tools break it.
    const [tight] = turnOneOverruns(tools, undefined, byName('get_deployment'));
    expect(tight?.message).toContain(
      `largest first: ${largest?.[0]} ${largest?.[1]} (eager), ${second?.[0]} ${second?.[1]} (eager)`,
    );
  });

  test('a number bounds the deferred and the groups strategies; the groups overrun counts the groups/list answer', () => {
    const tools = found(['create_issue', 'list_issues', 'get_deployment']);
    const problems = turnOneOverruns(tools, groups, 1);
    expect(problems.map((problem) => problem.message.split(' (')[0])).toEqual([
      'turn one under the deferred strategy',
      'turn one under the groups strategy',
    ]);
    expect(problems[1]?.message).toContain(
      `is ${listed(ISSUES) + listed(DEPLOYMENTS)} tokens, over budget.turnOne 1; the groups/list answer alone is ${listed(ISSUES) + listed(DEPLOYMENTS)}`,
    );
  });

  test('a groups budget for a project without groups is an error, not ignored', () => {
    expect(turnOneOverruns(found([]), undefined, { groups: 5000 })).toEqual([
      expect.objectContaining({
        code: 'over-budget',
        message: 'budget.turnOne.groups is 5000, but the project has no groups to take',
      }),
    ]);
  });
});
