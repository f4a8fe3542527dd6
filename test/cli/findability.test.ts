import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';

/**
 * `toolprep check` ranks each contract's intents under each client's search, as a user runs it: a
 * planted intent no ranker finds fails the check, naming tool, intent, ranker and rank.
 */
const tracker = (intents: readonly string[]) => `import { defineTool } from 'toolprep';
import { z } from 'zod';

export const createIssue = defineTool({
  name: 'create_issue',
  description: 'Create an issue in a project tracker.',
  input: z.object({ project: z.string(), title: z.string() }),
  intents: ${JSON.stringify(intents)},
});

export const sendMessage = defineTool({
  name: 'send_message',
  description: 'Post a chat message to a channel.',
  input: z.object({ channel: z.string(), text: z.string() }),
  intents: ['post a chat message to the deploys channel'],
});
`;

let fixture: FixtureProject;
beforeAll(() => {
  fixture = copyFixture('project');
});
afterAll(() => fixture.remove());

describe('toolprep check: findability of the intents', () => {
  test('intents every ranker finds in its top k pass, and the summary says how many were ranked', () => {
    fixture.write('src/tools/tracker.ts', tracker(['create an issue in the WEB project']));
    expect(fixture.cli('generate', '--quiet').status).toBe(0);
    const checked = fixture.cli('check');
    expect(checked.stderr).not.toMatch(/intent/);
    expect(checked.stdout).toContain(
      '[toolprep] findability: 2 intents ranked under toolprep, ai-sdk, codex, claude-code; every tool is in its top k',
    );
    expect(checked.status).toBe(0);
  });

  test('a planted intent no ranker finds fails the check, naming tool, intent, ranker and rank', () => {
    fixture.write(
      'src/tools/tracker.ts',
      tracker(['create an issue in the WEB project', 'give WEB-1423 to maria']),
    );
    expect(fixture.cli('generate', '--quiet').status).toBe(0);
    const checked = fixture.cli('check');
    expect(checked.status).toBe(1);
    for (const ranker of ['toolprep', 'ai-sdk', 'codex', 'claude-code'])
      expect(checked.stderr).toMatch(
        new RegExp(
          `\\[toolprep\\] src/tools/tracker\\.ts tool "create_issue", intents: intent "give WEB-1423 to maria" is not found under ${ranker}, outside its top \\d`,
        ),
      );
    expect(checked.stderr).not.toMatch(/create an issue in the WEB project/);
  });

  test('findability.rankers chooses the rankers; top sets every ranker’s k', () => {
    fixture.write(
      'toolprep.config.ts',
      fixture
        .read('toolprep.config.ts')
        .replace("names: 'strict',", "names: 'strict',\n  findability: { rankers: ['ai-sdk'], top: 1 },"),
    );
    const checked = fixture.cli('check');
    expect(checked.status).toBe(1);
    expect(checked.stderr).toContain(
      'intent "give WEB-1423 to maria" is not found under ai-sdk, outside its top 1 (AI SDK 7 toolSearch() (exact))',
    );
    expect(checked.stderr).not.toMatch(/under (toolprep|codex|claude-code)/);
  });

  test('search: {} builds the index into the generated module, one document per tool in module order', () => {
    fixture.write(
      'toolprep.config.ts',
      fixture.read('toolprep.config.ts').replace("names: 'strict',", "names: 'strict',\n  search: {},"),
    );
    expect(fixture.cli('generate', '--quiet').status).toBe(0);
    const module = fixture.read('src/toolprep.gen.ts');
    const literal = /\n {4}index: ("(?:[^"\\]|\\.)*"),/.exec(module)?.[1] as string;
    const index = JSON.parse(JSON.parse(literal)) as {
      lengths: number[];
      postings: Record<string, number[]>;
    };
    const names = (
      JSON.parse(fixture.read('toolprep.manifest.json')) as { tools: { name: string }[] }
    ).tools.map((tool) => tool.name);
    expect(index.lengths).toHaveLength(names.length);
    // "chat" is in send_message's description only: its one posting is that tool's position.
    expect(index.postings.chat).toEqual([names.indexOf('send_message'), 1]);
    expect(module).not.toContain('search_tools');
  });
});
