import { afterAll, beforeAll, expect, test } from 'vitest';
import { createGeneratorContext, type GeneratorContext } from '../../src/generate/context.js';
import { type SourceWatcher, watchSources } from '../../src/generate/watch.js';
import { type FixtureProject, viewsProject } from '../support/fixture-project.js';

/**
 * Watch mode rebuilds a view when a file it is built from changes, a stylesheet or HTML file
 * included: the source watcher starts a run for it, and the run writes the view's new version.
 */
let project: FixtureProject;
let generator: GeneratorContext;
let watcher: SourceWatcher;
const reasons: string[] = [];

beforeAll(async () => {
  project = viewsProject();
  generator = createGeneratorContext({ root: project.dir });
  expect((await generator.run()).problems).toEqual([]);
  watcher = watchSources(generator, { onChange: (reason) => reasons.push(reason) });
}, 60_000);
afterAll(() => {
  watcher.close();
  project.remove();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a view's stylesheet is watched, and the run that follows writes the view's new version", async () => {
  expect(generator.watchFiles()).toEqual(
    expect.arrayContaining([
      `${project.dir}/src/tools/gallery-view.css`,
      `${project.dir}/src/tools/gallery-view.html`,
    ]),
  );
  // Nothing changed since the last run: the views' files are in its fingerprint, and it holds.
  expect((await generator.run()).ran).toBe(false);
  project.write(
    'src/tools/gallery-view.css',
    project.read('src/tools/gallery-view.css').replace('8rem', '10rem'),
  );
  const deadline = Date.now() + 5_000;
  while (reasons.length === 0 && Date.now() < deadline) await pause(20);
  expect(reasons).toEqual(['src/tools/gallery-view.css changed']);
  const run = await generator.run();
  expect(run.ran).toBe(true);
  expect(run.written).toEqual(
    expect.arrayContaining([expect.stringMatching(/^toolprep\.views\/photo_gallery\.[0-9a-f]{16}\.html$/)]),
  );
  expect(project.read('toolprep.manifest.json')).toContain('"current": false');
}, 60_000);
