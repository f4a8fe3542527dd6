import { afterAll, beforeAll, expect, test } from 'vitest';
import { createGeneratorContext, type GeneratorContext } from '../../src/generate/context.js';
import { type SourceWatcher, watchSources } from '../../src/generate/watch.js';
import { type FixtureProject, viewsProject } from '../support/fixture-project.js';

/**
 * Watch mode rebuilds a view when a file it is built from changes, a stylesheet or HTML file
 * included: the source watcher starts a run for it, and the run writes the view's new version. A
 * view that fails to build stays watched, so that the edit that fixes it rebuilds it.
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
/** Waits for the watcher to start a run (or gives up, for the assertion on `reasons` to say so). */
async function nextReasons(): Promise<readonly string[]> {
  const deadline = Date.now() + 5_000;
  while (reasons.length === 0 && Date.now() < deadline) await pause(20);
  return reasons.splice(0);
}

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
  expect(await nextReasons()).toEqual(['src/tools/gallery-view.css changed']);
  const run = await generator.run();
  expect(run.ran).toBe(true);
  expect(run.written).toEqual(
    expect.arrayContaining([expect.stringMatching(/^toolprep\.views\/photo_gallery\.[0-9a-f]{16}\.html$/)]),
  );
  expect(project.read('toolprep.manifest.json')).toContain('"current": false');
}, 60_000);

test('a view that fails to build keeps its files watched, and the edit that fixes it rebuilds it', async () => {
  const css = project.read('src/tools/gallery-view.css');
  // Not a source file: only the watch list makes its change start a run.
  project.write('src/tools/gallery-view.css', `@import './missing.css';\n${css}`);
  expect(await nextReasons()).toEqual(['src/tools/gallery-view.css changed']);
  const failed = await generator.run();
  expect(failed.problems).toMatchObject([
    { code: 'view-build-failed', tool: 'photo_gallery', file: 'src/tools/gallery-view.css', line: 1 },
  ]);
  watcher.update();
  expect(generator.watchFiles()).toEqual(
    expect.arrayContaining(
      ['gallery-view.css', 'gallery-view.html', 'gallery-script.ts'].map(
        (file) => `${project.dir}/src/tools/${file}`,
      ),
    ),
  );
  project.write('src/tools/gallery-view.css', css);
  expect(await nextReasons()).toEqual(['src/tools/gallery-view.css changed']);
  const fixed = await generator.run();
  expect(fixed).toMatchObject({ ran: true, problems: [] });
}, 60_000);

test('a failed run keeps watching what the last good one was built from, errors aside', async () => {
  const script = project.read('src/tools/gallery-script.ts');
  project.write('src/tools/gallery-words.json', '{ "title": "Gallery" }');
  project.write(
    'src/tools/gallery-script.ts',
    `import { title } from './gallery-words.json';\ndocument.title = title;\n${script}`,
  );
  expect(await nextReasons()).toEqual(['src/tools/gallery-script.ts changed']);
  expect((await generator.run()).problems).toEqual([]);
  watcher.update();
  // The JSON file's error is placed in the script that imports it: the JSON is not named.
  project.write('src/tools/gallery-words.json', '{ "name": "Gallery" }');
  expect(await nextReasons()).toEqual(['src/tools/gallery-words.json changed']);
  const failed = await generator.run();
  expect(failed.problems).toMatchObject([{ code: 'view-build-failed', file: 'src/tools/gallery-script.ts' }]);
  watcher.update();
  project.write('src/tools/gallery-words.json', '{ "title": "Gallery" }');
  expect(await nextReasons()).toEqual(['src/tools/gallery-words.json changed']);
  expect(await generator.run()).toMatchObject({ ran: true, problems: [] });
}, 60_000);
