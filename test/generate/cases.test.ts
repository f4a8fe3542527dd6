import { readdirSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { generate } from '@toolprep/build';
import { afterEach, describe, expect, test } from 'vitest';
import { createGeneratorContext } from '../../src/generate/context.js';
import { copyFixture, type FixtureProject, REPO } from '../support/fixture-project.js';

const CASES = path.join(REPO, 'fixtures/generate');
const projects: FixtureProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});

/**
 * Each folder under fixtures/generate is a project with its sources and, under `expected/`, the
 * files toolprep must generate for it, byte for byte (`vitest -u` rewrites them after a deliberate
 * change: review the diff).
 */
describe('generation, case by case', () => {
  test.each(readdirSync(CASES).sort())('%s', async (name) => {
    const project = copyFixture(`generate/${name}`);
    projects.push(project);
    const generated = await generate({ root: project.dir, cache: false });
    expect(generated.problems).toEqual([]);
    expect(generated.warnings).toEqual([]);
    for (const file of generated.files)
      await expect(file.text).toMatchFileSnapshot(path.join(CASES, name, 'expected', file.path));

    // Written once, a second run changes nothing: even when every source is touched, no file is
    // rewritten, and a run from scratch with the cache gives the same bytes.
    const context = createGeneratorContext({ root: project.dir });
    expect((await context.run()).written).toEqual(generated.files.map((file) => file.path));
    const later = new Date(Date.now() + 5_000);
    for (const file of readdirSync(path.join(project.dir, 'src'), { recursive: true }))
      utimesSync(path.join(project.dir, 'src', String(file)), later, later);
    const second = await context.run();
    expect({ ran: second.ran, written: second.written, problems: second.problems }).toEqual({
      ran: true,
      written: [],
      problems: [],
    });
    const again = await generate({ root: project.dir });
    expect(again.files).toEqual(generated.files);
  });
});
