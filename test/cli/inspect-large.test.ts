import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Manifest } from '../../src/manifest/manifest.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';

/**
 * `toolprep inspect` on fixtures/large-set (178 tools in 16 groups), as a user runs it: the tools
 * under their groups with each group's total, in either order, what each client strategy is sent
 * on the first turn, the text the tools repeat; and `budget.turnOne` failing the build by name.
 */
let fixture: FixtureProject;
let manifest: Manifest;
let summary: string;
beforeAll(() => {
  fixture = copyFixture('large-set');
  const generated = fixture.cli('generate');
  expect(generated.status, generated.stderr).toBe(0);
  summary = generated.stdout;
  manifest = JSON.parse(fixture.read('toolprep.manifest.json')) as Manifest;
}, 120_000);
afterAll(() => fixture?.remove());

const GROUP_LINE = /^(\S+) \((\d+) tools?\)\s+(\d+) tokens/;
const TOOL_LINE = /^ {2}(\S+)\s+(\d+) tokens/;

/** The listing's groups, each with its tools and their tokens, in the order printed. */
function groupsOf(lines: readonly string[]) {
  const groups: { name: string; count: number; tokens: number; tools: [string, number][] }[] = [];
  for (const line of lines) {
    const group = GROUP_LINE.exec(line);
    if (group)
      groups.push({ name: group[1] ?? '', count: Number(group[2]), tokens: Number(group[3]), tools: [] });
    const tool = TOOL_LINE.exec(line);
    if (tool && groups.length > 0 && !line.startsWith('  as '))
      groups.at(-1)?.tools.push([tool[1] ?? '', Number(tool[2])]);
    if (line.startsWith('total')) break;
  }
  return groups;
}

const nonIncreasing = (values: readonly number[]): boolean =>
  values.every((value, index) => index === 0 || value <= (values[index - 1] ?? value));

describe('inspect at 178 tools', () => {
  test('each group with its tools and its total, then the totals, turn one and the repeated text', () => {
    const result = fixture.cli('inspect');
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    const groups = groupsOf(lines);
    const sizes = new Map(manifest.tools.map((tool) => [tool.name, tool.size.tokens]));
    expect(groups.map((group) => group.name)).toEqual(manifest.groups?.map((group) => group.name));
    expect(groups).toHaveLength(16);
    for (const group of groups) {
      const recorded = manifest.groups?.find((each) => each.name === group.name);
      expect(group.tools.map(([name]) => name)).toEqual(recorded?.tools);
      expect(group.count).toBe(group.tools.length);
      // The group's total is its tools' sizes, as the manifest records them.
      expect(group.tokens).toBe(group.tools.reduce((sum, [, tokens]) => sum + tokens, 0));
      expect(group.tokens).toBe(recorded?.size.tokens);
      for (const [name, tokens] of group.tools) expect(tokens).toBe(sizes.get(name));
    }
    expect(new Set(groups.flatMap((group) => group.tools.map(([name]) => name))).size).toBe(178);
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`^total\\s+${manifest.totals.tokens} tokens  178 tools in 16 groups$`),
      ),
    );
    const { turnOne } = manifest.totals;
    const deferred = manifest.tools.filter((tool) => tool.loading === 'deferred').length;
    expect(lines).toEqual(
      expect.arrayContaining([
        'turn one, what a client is sent before the first message:',
        expect.stringMatching(
          new RegExp(`^  everything\\s+${turnOne.everything.tokens} tokens  every tools/list entry whole$`),
        ),
        expect.stringMatching(
          new RegExp(
            `^  deferred\\s+${turnOne.deferred.tokens} tokens  ${178 - deferred} eager tools? whole, ${deferred} deferred by name and description$`,
          ),
        ),
        expect.stringMatching(
          new RegExp(`^  groups\\s+${turnOne.groups?.tokens} tokens  .*16 groups listed$`),
        ),
      ]),
    );
    // Deferral is what it is for: the first turn of a client that searches is a fraction of the list.
    expect(turnOne.deferred.tokens).toBeLessThan(turnOne.everything.tokens / 2);
    expect(turnOne.groups?.tokens).toBeLessThan(turnOne.deferred.tokens);
    // The repeated text, costliest first: the shared repository field's description among it.
    const repeated = lines.slice(
      lines.indexOf('repeated text, costliest first (tokens in all, occurrences, tools, tokens each):') + 1,
    );
    expect(repeated.length).toBeGreaterThan(0);
    expect(repeated.length).toBeLessThanOrEqual(10);
    expect(nonIncreasing(repeated.map((line) => Number(/^\s*(\d+) tokens/.exec(line)?.[1])))).toBe(true);
    expect(result.stdout).toMatch(/\d+ tokens +35× in 35 tools, \d+ each {2}description "Repository as/);
    // The generate summary says it too.
    expect(summary).toContain(
      `; turn one: ${turnOne.everything.tokens} tokens in all, ${turnOne.deferred.tokens} deferred, ${turnOne.groups?.tokens} groups only`,
    );
  });

  test('--sort size: the largest groups first, and the largest tools first in each', () => {
    const result = fixture.cli('inspect', '--sort', 'size');
    expect(result.status, result.stderr).toBe(0);
    const groups = groupsOf(result.stdout.split('\n'));
    expect(groups).toHaveLength(16);
    expect(nonIncreasing(groups.map((group) => group.tokens))).toBe(true);
    for (const group of groups) expect(nonIncreasing(group.tools.map(([, tokens]) => tokens))).toBe(true);
    const wrong = fixture.cli('inspect', '--sort', 'weight');
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain('[toolprep] inspect: --sort takes name or size, not "weight"');
  });

  test('budget.turnOne: an overrun fails the build, naming the tools with the largest shares', () => {
    const { turnOne } = manifest.totals;
    fixture.write(
      'toolprep.config.ts',
      `export default { include: ['src/tools/**/*.ts'], budget: { turnOne: { deferred: ${turnOne.deferred.tokens - 1} } } };\n`,
    );
    const result = fixture.cli('generate');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `turn one under the deferred strategy \\(eager tools whole, deferred tools' names and descriptions\\) is ${turnOne.deferred.tokens} tokens, over budget\\.turnOne ${turnOne.deferred.tokens - 1}; the tools that break it, largest first: \\w+ \\d+ \\((eager|deferred)\\) \\(defer the largest`,
      ),
    );
  });
});
