import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createGeneratorContext, type GeneratorContext } from '../../src/generate/context.js';
import { type SourceWatcher, watchSources } from '../../src/generate/watch.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';

/**
 * The source watcher's rules, on the file system itself: which paths start a regeneration, and
 * named how. The project includes `src/**\/*.ts`; its config file is `toolprep.config.ts`.
 */
let project: FixtureProject;
let generator: GeneratorContext;
let watcher: SourceWatcher;
const reasons: string[] = [];

beforeAll(async () => {
  project = copyFixture('project');
  generator = createGeneratorContext({ root: project.dir, write: false });
  await generator.run();
  watcher = watchSources(generator, { onChange: (reason) => reasons.push(reason) });
});
afterAll(() => {
  watcher.close();
  project.remove();
});

const write = (file: string, text = 'export const value = 1;\n') => {
  mkdirSync(path.dirname(path.join(project.dir, file)), { recursive: true });
  writeFileSync(path.join(project.dir, file), text);
};
const remove = (file: string) => rmSync(path.join(project.dir, file));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The regenerations `change` starts: waits for the first, or long enough to be sure of none. */
async function regenerationsAfter(change: () => void, expected: boolean): Promise<string[]> {
  reasons.length = 0;
  change();
  const deadline = Date.now() + 5_000;
  while (expected && reasons.length === 0 && Date.now() < deadline) await pause(20);
  // Well past the debounce: a second regeneration, or a late one, would be here by now.
  await pause(expected ? 200 : 400);
  return [...reasons];
}

// In order: each row acts on the project as the rows before it left it.
test.each<[string, () => void, string | undefined]>([
  [
    'a contract edited',
    () => write('src/tools/stats.ts', project.read('src/tools/stats.ts')),
    'src/tools/stats.ts changed',
  ],
  ['a source file added', () => write('src/tools/extra.ts'), 'src/tools/extra.ts added'],
  ['a source file removed', () => remove('src/tools/extra.ts'), 'src/tools/extra.ts removed'],
  ['a file in a new folder', () => write('src/more/deep/tool.mts'), 'src/more/deep/tool.mts added'],
  ['a JavaScript source', () => write('src/tools/plain.js'), 'src/tools/plain.js added'],
  [
    'a burst of changes: one regeneration, named after its first',
    () => {
      write('src/tools/first.ts');
      write('src/tools/second.ts');
    },
    'src/tools/first.ts added',
  ],
  [
    'the config file edited',
    () => write('toolprep.config.ts', project.read('toolprep.config.ts')),
    'toolprep.config.ts changed',
  ],
  ['the config file removed', () => remove('toolprep.config.ts'), 'toolprep.config.ts removed'],
  [
    'a config file added',
    () => write('toolprep.config.ts', "export default { include: ['src/**/*.ts'] };\n"),
    'toolprep.config.ts added',
  ],
  ['a file that is no source, under include', () => write('src/tools/notes.md', '# notes\n'), undefined],
  ['the generated module', () => write('src/toolprep.gen.ts', '// edited\n'), undefined],
  ["the generated module's temporary file", () => write('src/toolprep.gen.ts.0123abcd.tmp'), undefined],
  ['the manifest', () => write('toolprep.manifest.json', '{}\n'), undefined],
  ['a source in the root that is not the config file', () => write('vite.config.ts'), undefined],
  ['a source outside the folders include searches', () => write('scripts/build.ts'), undefined],
  ['a source under node_modules, inside include', () => write('src/node_modules/pkg/index.js'), undefined],
])('%s', async (_name, change, expected) => {
  expect(await regenerationsAfter(change, expected !== undefined)).toEqual(expected ? [expected] : []);
});

test('after a run that changes include, the folders it names now are watched, and the old ones not', async () => {
  write('lib/tools/echo.ts');
  const config = "export default { include: ['lib/**/*.ts'], allowEmpty: true };\n";
  expect(await regenerationsAfter(() => write('toolprep.config.ts', config), true)).toEqual([
    'toolprep.config.ts changed',
  ]);
  await generator.run();
  watcher.update();
  expect(await regenerationsAfter(() => write('lib/tools/more.ts'), true)).toEqual([
    'lib/tools/more.ts added',
  ]);
  expect(
    await regenerationsAfter(() => write('src/tools/stats.ts', project.read('src/tools/stats.ts')), false),
  ).toEqual([]);
});

test('a host with its own watcher passes its events: the same rules, and no file system watch', async () => {
  const noticed: string[] = [];
  const hosted = watchSources(generator, { fileSystem: false, onChange: (reason) => noticed.push(reason) });
  try {
    write('lib/tools/unseen.ts');
    hosted.notice(path.join(project.dir, 'toolprep.manifest.json'), 'changed');
    hosted.notice(path.join(project.dir, 'lib/tools/echo.ts'), 'changed');
    await pause(400);
    expect(noticed).toEqual(['lib/tools/echo.ts changed']);
  } finally {
    hosted.close();
  }
});
