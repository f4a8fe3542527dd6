import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, test } from 'vitest';
import type { Manifest, ManifestTool } from '../../src/manifest/manifest.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';

const projects: FixtureProject[] = [];
function project(name: string): FixtureProject {
  const copy = copyFixture(name);
  projects.push(copy);
  return copy;
}
afterEach(() => {
  for (const copy of projects.splice(0)) copy.remove();
});

/** The unified diffs of `check`'s output, by their `--- a/…` label. */
function patches(stdout: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of stdout.split(/^(?=--- a\/)/m).slice(1)) {
    const label = (part.match(/^--- a\/(.*)\tcommitted$/m) as RegExpMatchArray)[1] as string;
    found.set(label, part);
  }
  return found;
}

const changedLines = (patch: string) => patch.split('\n').filter((line) => /^[-+](?![-+]{2} )/.test(line));

describe('toolprep check shows the difference per tool, and summarises the generated module', () => {
  test('a renamed tool is one changed line in its own diff, not a move of the sorted manifest', () => {
    const fixture = project('project');
    fixture.cli('generate');
    fixture.write(
      'src/tools/notes.ts',
      fixture
        .read('src/tools/notes.ts')
        .replace("description: 'Set the tags", "name: 'a_tag_notes',\n  description: 'Set the tags"),
    );
    const check = fixture.cli('check');
    expect(check.status).toBe(1);
    const found = patches(check.stdout);
    const renamed = found.get('toolprep.manifest.json (tool a_tag_notes)') as string;
    const changed = changedLines(renamed);
    expect(changed).toContain('-      "name": "tag_notes",');
    expect(changed).toContain('+      "name": "a_tag_notes",');
    // The name, and what follows from it (the digest, the sizes): not the tool's 100-odd lines.
    expect(changed.length).toBeLessThan(12);
    // Only the renamed tool, the totals beside the tools and the modules (which carry them) differ.
    expect([...found.keys()].sort()).toEqual([
      'src/toolprep.gen.ts',
      'src/toolprep.gen.walks.ts',
      'toolprep.manifest.json (beside the tools)',
      'toolprep.manifest.json (tool a_tag_notes)',
    ]);
  });

  test('an edited field is a diff of that tool alone, at the depth the manifest writes it', () => {
    const fixture = project('project');
    fixture.cli('generate');
    fixture.write(
      'src/tools/stats.ts',
      fixture
        .read('src/tools/stats.ts')
        .replace("description: 'Count notes, words and tags.'", "description: 'Count notes and words.'"),
    );
    const found = patches(fixture.cli('check').stdout);
    const stats = found.get('toolprep.manifest.json (tool note_stats)') as string;
    expect(changedLines(stats)).toContain('-      "description": "Count notes, words and tags.",');
    expect(changedLines(stats)).toContain('+      "description": "Count notes and words.",');
    expect([...found.keys()].filter((label) => label.startsWith('toolprep.manifest.json (tool'))).toEqual([
      'toolprep.manifest.json (tool note_stats)',
    ]);
  });

  test("the module's embedded JSON is summarised by its length and digest, never printed", () => {
    const fixture = project('project');
    fixture.cli('generate');
    fixture.write(
      'src/tools/stats.ts',
      fixture
        .read('src/tools/stats.ts')
        .replace("description: 'Count notes, words and tags.'", "description: 'Count notes and words.'"),
    );
    const stdout = fixture.cli('check').stdout;
    const module = patches(stdout).get('src/toolprep.gen.ts') as string;
    const summaries = changedLines(module);
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    for (const line of summaries)
      expect(line).toMatch(/ … \(a line of [\d,]+ characters, digest [0-9a-f]{16}\)$/);
    // The old and the new line differ, and so do their summaries.
    expect(new Set(summaries.map((line) => line.slice(1))).size).toBe(summaries.length);
    expect(Math.max(...stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(400);
  });
});

describe('inspect --html shows the changes since the manifest committed at HEAD, and says so', () => {
  const editStats = (fixture: FixtureProject) =>
    fixture.write(
      'src/tools/stats.ts',
      fixture
        .read('src/tools/stats.ts')
        .replace("description: 'Count notes, words and tags.'", "description: 'Count notes and words.'"),
    );

  test('in git: after generate, the page still shows the edit since the last commit', () => {
    const fixture = project('project');
    fixture.cli('generate');
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: fixture.dir,
        stdio: 'ignore',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
      });
    git('init', '-q');
    git('add', 'toolprep.manifest.json');
    git('commit', '-qm', 'tools');
    editStats(fixture);
    expect(fixture.cli('generate').status).toBe(0);
    const inspect = fixture.cli('inspect', '--html', 'report.html');
    expect(inspect.stdout).toContain('changes since the manifest committed at HEAD (toolprep.manifest.json)');
    const page = fixture.read('report.html');
    expect(page).toContain('Compared with the manifest committed at HEAD (toolprep.manifest.json).');
    expect(page).toContain('~ tool note_stats');
  });

  test('outside git: the file on disk, named as such', () => {
    const fixture = project('project');
    fixture.cli('generate');
    editStats(fixture);
    const inspect = fixture.cli('inspect', '--html', 'report.html');
    expect(inspect.stdout).toContain(
      'changes since toolprep.manifest.json on disk (none is committed at HEAD)',
    );
    const page = fixture.read('report.html');
    expect(page).toContain('Compared with toolprep.manifest.json on disk (none is committed at HEAD).');
    expect(page).toContain('~ tool note_stats');
  });
});

describe('toolprep check at scale: a shared change once, the tokens before and after, a rename alone', () => {
  test('one field description edited in 35 tools and an export renamed: a few lines, every diff on --verbose', () => {
    const fixture = project('large-set');
    expect(fixture.cli('generate', '--quiet').status).toBe(0);
    const committed = JSON.parse(fixture.read('toolprep.manifest.json')) as Manifest;
    const before = 'Repository as "owner/name", for example "acme/checkout-service".';
    const after = 'Repository as "owner/name", e.g. "acme/checkout-service"; case-sensitive.';
    // The renamed tool also takes the edited `limit`: it is paired by its input's shape.
    fixture.write(
      'src/lib/fields.ts',
      fixture
        .read('src/lib/fields.ts')
        .replace(before, after)
        .replace("'Maximum number of items to return, 1 to 100.'", "'How many items to return (1 to 100).'"),
    );
    fixture.write(
      'src/tools/issues/queries.ts',
      fixture
        .read('src/tools/issues/queries.ts')
        .replace('export const listIssues =', 'export const browseIssues ='),
    );
    const described = (tool: ManifestTool, field: string, text: string) =>
      (tool.inputSchema.mcp.properties as Record<string, { description?: string }> | undefined)?.[field]
        ?.description === text;
    const repoTools = committed.tools
      .filter((tool) => described(tool, 'repo', before))
      .map((tool) => tool.name);
    const limitTools = committed.tools
      .filter((tool) => described(tool, 'limit', 'Maximum number of items to return, 1 to 100.'))
      .map((tool) => (tool.name === 'list_issues' ? 'browse_issues' : tool.name))
      .sort();
    expect(repoTools.length).toBe(35);

    const check = fixture.cli('check');
    const verbose = fixture.cli('check', '--verbose');
    expect(check.status).toBe(1);
    expect(verbose.status).toBe(1);
    const summary = check.stdout.slice(0, check.stdout.indexOf('Run `toolprep generate`'));
    // Each shared edit is one line with the count and the first names, then the text before and after.
    expect(summary).toContain(
      `  ~ field repo: description changed, in 35 tools: ${repoTools.slice(0, 6).join(', ')} and 29 more\n` +
        `      was ${JSON.stringify(before)}\n      now ${JSON.stringify(after)}\n`,
    );
    expect(summary).toContain(
      `  ~ field limit: description changed, in ${limitTools.length} tools: ${limitTools.slice(0, 6).join(', ')} and ${limitTools.length - 6} more\n`,
    );
    expect(summary.match(/description changed/g)).toHaveLength(2);
    // A pure rename is its own line and nothing under it.
    expect(summary).toMatch(
      /^ {2}~ tool list_issues renamed to browse_issues \(a breaking change: clients and prompts call tools by name\)\n(?! {4})/m,
    );
    // The tokens of the whole surface, as the committed and the regenerated manifests count them.
    expect(fixture.cli('generate', '--quiet').status).toBe(0);
    const regenerated = JSON.parse(fixture.read('toolprep.manifest.json')) as Manifest;
    const [was, now] = [committed.totals.tokens, regenerated.totals.tokens];
    expect(now).not.toBe(was);
    expect(summary).toContain(
      `Tokens of the whole surface, as tools/list sends it: ${was.toLocaleString('en-US')} → ${now.toLocaleString('en-US')} tokens (${now > was ? '+' : '−'}${Math.abs(now - was).toLocaleString('en-US')})`,
    );
    // The large set is deferred and grouped: what a client is sent on turn one, before and after.
    const turnOne = (strategy: 'deferred' | 'groups') => {
      const [from, to] = [committed, regenerated].map(
        (manifest) => manifest.totals.turnOne[strategy]?.tokens ?? 0,
      );
      return `${(from ?? 0).toLocaleString('en-US')} → ${(to ?? 0).toLocaleString('en-US')} tokens`;
    };
    expect(summary).toContain(`  on turn one, deferred tools by name: ${turnOne('deferred')}`);
    expect(summary).toContain(`  on turn one, groups only: ${turnOne('groups')}`);

    // One diff stands for the tools that changed alike; --verbose names every tool and prints every diff.
    const toolDiffs = (stdout: string) =>
      [...patches(stdout).keys()].filter((label) => label.startsWith('toolprep.manifest.json (tool'));
    const changedTools = new Set([...repoTools, ...limitTools]);
    expect(toolDiffs(verbose.stdout)).toHaveLength(changedTools.size);
    expect(toolDiffs(check.stdout).length).toBeLessThan(8);
    expect(check.stdout).toMatch(
      /^The diff of \w+; the \d+ other tools that changed alike \(.*\) differ as it does; `toolprep check --verbose` prints each\.$/m,
    );
    expect(verbose.stdout).toContain(
      `  ~ field repo: description changed, in 35 tools: ${repoTools.join(', ')}\n`,
    );
    // The generated modules' diffs (the changed plans' walks among them) are printed whole by both.
    expect(check.stdout.split('\n').length * 3).toBeLessThan(verbose.stdout.split('\n').length);
  });

  test('a renamed tool whose description spells its own name is only a rename', () => {
    const fixture = project('project');
    const notes = fixture.read('src/tools/notes.ts');
    fixture.write(
      'src/tools/notes.ts',
      notes.replace("description: 'Set the tags", "description: 'tag_notes: set the tags"),
    );
    expect(fixture.cli('generate', '--quiet').status).toBe(0);
    fixture.write(
      'src/tools/notes.ts',
      notes.replace(
        "description: 'Set the tags",
        "name: 'set_tags',\n  description: 'set_tags: set the tags",
      ),
    );
    const summary = fixture.cli('check').stdout.split('\n\n')[1] as string;
    expect(summary).toBe(
      'What changed in the tool surface:\n  ~ tool tag_notes renamed to set_tags (a breaking change: clients and prompts call tools by name)',
    );
  });
});
