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

test(`the generator state holds one generation's worth of entries after each of ${EDITS} edits`, async () => {
  project = copyFixture('generate/basic');
  const context = createGeneratorContext({ root: project.dir });
  const file = 'src/tools/files.ts';
  const source = project.read(file);
  const edit = async (round: number) => {
    // Each edit changes a description, so every round prepares, serialises and writes anew.
    (project as FixtureProject).write(file, source.replace('Write a file.', `Write a file (edit ${round}).`));
    const stamp = new Date(Date.now() + round * 1_000);
    utimesSync(path.join((project as FixtureProject).dir, file), stamp, stamp);
    const outcome = await context.run();
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
