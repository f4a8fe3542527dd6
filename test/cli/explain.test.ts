import { afterAll, beforeAll, expect, test } from 'vitest';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';

/**
 * `toolprep check --explain` reports each rule a tool's parser enforces that its documents do not
 * show, with the field and a counterexample; a contract whose rules all reach its document reports
 * nothing.
 */

/**
 * A budget per tool that the clock never reaches: each pass tries all its values (at most 400), so
 * the counts do not depend on how busy the machine is (under the default 250 ms, a loaded machine
 * cuts passes short and finds fewer constraints).
 */
const UNHURRIED = ['--explain-ms', '600000'];

let fixture: FixtureProject;
let output: string;
let generated: string;
// Two runs of the built CLI, one after the other: some 3 s each here, several times that on a busy
// machine (vitest's hookTimeout is the tests' 60 s for this).
beforeAll(() => {
  fixture = copyFixture('hidden-constraints');
  generated = fixture.cli('generate').stdout;
  const result = fixture.cli('check', '--explain', ...UNHURRIED);
  expect(result.status).toBe(0);
  output = result.stdout;
});
afterAll(() => fixture.remove());

test.each([
  ['a refinement', 'open_note', 'input.path', 'Must be an absolute path'],
  ['a regular expression in a superRefine', 'tag_note', 'input.tag', 'A tag is # and lower-case letters'],
  [
    'a transform that throws on some inputs',
    'move_notes',
    'input.folder',
    'the parser threw: the folder is empty',
  ],
  ['a rule across fields', 'move_notes', 'input', 'from must not be after to'],
  ['a refinement of the params', 'pin_note', 'params.notebook', 'A notebook has a name'],
  ['a rule only some strings break', 'pin_note', 'input.label', 'A label has no slash'],
])('%s is reported with its field, a counterexample and the message', (_kind, tool, field, message) => {
  const line = output.split('\n').find((text) => text.includes(`tool "${tool}", ${field}: `));
  expect(line).toMatch(
    new RegExp(
      `^\\[toolprep\\] src/tools/notes\\.ts:\\d+ tool "${tool}", ${field.replace('.', '\\.')}: the document allows .+, which the parser refuses: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(describe the rule`,
    ),
  );
});

test('a contract whose rules all reach its document reports nothing', () => {
  expect(output).not.toContain('search_notes');
  // The params' keys go to the params' parser, as in a call: the strict input never sees them.
  expect(output).not.toContain('Unrecognized key');
  expect(output).toMatch(
    /\[toolprep\] explain: 6 hidden constraints in 5 tools \(\d+ documented values parsed\); every document takes the \d+ values the contracts accept; in \d+ ms/,
  );
});

test('generate says how many there are, and where to see them; a run from the cache says the same', () => {
  const summary = '; 6 hidden constraints in 4 tools: toolprep check --explain shows them';
  expect(generated).toMatch(new RegExp(`wrote .*${summary}\n$`));
  expect(fixture.cli('generate').stdout).toMatch(new RegExp(`\\(1 file from cache\\).*${summary}\n$`));
});

test("extension keys are parsed by the config's schema: a strict input is not blamed for them", () => {
  const project = copyFixture('hidden-constraints');
  try {
    project.write(
      'toolprep.config.ts',
      "import { defineConfig } from '@toolprep/build';\nimport { z } from 'zod';\n\nexport default defineConfig({ extend: { schema: z.object({ tenant: z.string() }) } });\n",
    );
    expect(project.cli('generate').status).toBe(0);
    const result = project.cli('check', '--explain', ...UNHURRIED);
    expect(result.status).toBe(0);
    expect(result.stdout).not.toContain('Unrecognized key');
    expect(result.stdout).toMatch(
      /explain: 6 hidden constraints in 5 tools .*every document takes the \d+ values/,
    );
  } finally {
    project.remove();
  }
});
