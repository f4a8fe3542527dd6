import { utimesSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { createGeneratorContext } from '../../src/generate/context.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';

let project: FixtureProject | undefined;
afterEach(() => project?.remove());

/**
 * Every part of the state is keyed by what a run uses and has no cap (docs/decisions/0008): what it
 * kept beyond one generation would add at least one entry per edit, since each edit makes new
 * digests. So the state is read after every edit, not once at the end: the first edit that leaks
 * fails, and a hundred edits bound it as well as thousands did, in a fraction of the time.
 */
const EDITS = 100;

/** Writes `text` to `file` with a stamp of its own, and runs the context again. */
async function runAfterEdit(
  context: ReturnType<typeof createGeneratorContext>,
  file: string,
  text: string,
  round: number,
) {
  (project as FixtureProject).write(file, text);
  const stamp = new Date(Date.now() + round * 1_000);
  utimesSync(path.join((project as FixtureProject).dir, file), stamp, stamp);
  return context.run();
}

test(`the generator state holds one generation's worth of entries after each of ${EDITS} edits`, async () => {
  project = copyFixture('generate/basic');
  const context = createGeneratorContext({ root: project.dir });
  const file = 'src/tools/files.ts';
  const source = project.read(file);
  const edit = async (round: number) => {
    // Each edit changes a description, so every round prepares, serialises and writes anew.
    const outcome = await runAfterEdit(
      context,
      file,
      source.replace('Write a file.', `Write a file (edit ${round}).`),
      round,
    );
    if (!outcome.ran || outcome.problems.length > 0 || outcome.written.length === 0)
      throw new Error(`edit ${round} did not regenerate: ${JSON.stringify(outcome.problems)}`);
  };
  await edit(0);
  await edit(1);
  const settled = context.stateEntries();
  for (let round = 2; round < EDITS; round++) {
    await edit(round);
    expect(context.stateEntries(), `the state after edit ${round}`).toEqual(settled);
  }
  const after = context.stateEntries();
  // Every part is bounded by the project (2 source files, 3 tools' three texts and walks, 3 outputs), not by the edits.
  expect(after).toEqual(settled);
  expect(after).toMatchObject({ discovery: 2, written: 3, manifestEntries: 3, moduleTexts: 9, toolWalks: 3 });
}, 300_000);

test('runs that fail after arranging the surface keep no more than one of them', async () => {
  project = copyFixture('generate/basic');
  // Every tool deferred: the arrangement makes a new tool of each, kept for the next run.
  project.write('toolprep.config.ts', 'export default { loading: { deferAbove: 0 } };\n');
  const context = createGeneratorContext({ root: project.dir });
  const file = 'src/tools/files.ts';
  // Each edit names write_file as read_files is named: a duplicate, found with the surface arranged.
  const source = project.read(file).replace("name: 'write_file'", "name: 'read_files'");
  const failingEdit = async (round: number) => {
    const outcome = await runAfterEdit(
      context,
      file,
      source.replace('Write a file.', `Write a file (edit ${round}).`),
      round,
    );
    expect(outcome.problems.map((problem) => problem.code)).toContain('duplicate-name');
  };
  // The cache settles a run later: the first run's entries file is read and let go by the second.
  for (let round = 0; round < 3; round++) await failingEdit(round);
  const settled = context.stateEntries();
  expect(settled.arrangedTools).toBeGreaterThan(0);
  for (let round = 3; round < 13; round++) {
    await failingEdit(round);
    expect(context.stateEntries(), `the state after failed edit ${round}`).toEqual(settled);
  }
}, 120_000);
