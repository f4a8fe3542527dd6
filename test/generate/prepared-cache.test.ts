import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { createGeneratorContext } from '../../src/generate/context.js';
import { copyFixture, type FixtureProject, writeFiles } from '../support/fixture-project.js';

// The prepared tools of a run are written as one file, while the run goes on, and are on disk
// when it ends (docs/decisions/0077-contract-modules-loaded-as-one-module.md).

let project: FixtureProject | undefined;
afterEach(() => project?.remove());

const OUTPUTS = ['toolprep.manifest.json', 'src/toolprep.gen.ts'];

describe('the prepared cache', () => {
  test('is one file, whole when the run ends; a line cut short is a miss for its file alone; changes are appended', async () => {
    project = copyFixture('project');
    const { dir } = project;
    const cacheDir = path.join(dir, 'node_modules/.cache/toolprep');
    const entries = path.join(cacheDir, 'prepared.jsonl');
    const fromCache = async () => {
      // Without the record of the last run, a run reads the cache (docs/decisions/0056).
      rmSync(path.join(cacheDir, 'last-run.json'), { force: true });
      return (await createGeneratorContext({ root: dir }).run()).generation?.stats.fromCache;
    };

    expect(await fromCache()).toBe(0);
    const bytes = OUTPUTS.map((file) => project?.read(file));
    const lines = readFileSync(entries, 'utf8').split('\n').filter(Boolean);
    expect(lines.map((line) => JSON.parse(line.slice(0, line.indexOf('\t'))))).toEqual([
      'src/tools/files.ts',
      'src/tools/notes.ts',
      'src/tools/outline.ts',
      'src/tools/search.ts',
      'src/tools/stats.ts',
    ]);

    const third = lines[2] as string;
    writeFileSync(entries, `${lines.slice(0, 2).join('\n')}\n${third.slice(0, third.length / 2)}`);
    expect(await fromCache()).toBe(2);
    expect(OUTPUTS.map((file) => project?.read(file))).toEqual(bytes);
    // The run that missed wrote every entry again, before it ended.
    expect(readFileSync(entries, 'utf8').split('\n').filter(Boolean)).toHaveLength(5);
    expect(await fromCache()).toBe(5);

    // A changed file's line is appended, and overrides its earlier one, until the file would hold
    // more than twice the entries a run needs: then it is written whole again.
    const lineCounts: number[] = [];
    for (let edit = 1; edit <= 6; edit++) {
      project.write('src/tools/stats.ts', `${project.read('src/tools/stats.ts')}// edit ${edit}\n`);
      expect(await fromCache()).toBe(4);
      lineCounts.push(readFileSync(entries, 'utf8').split('\n').filter(Boolean).length);
    }
    expect(lineCounts).toEqual([6, 7, 8, 9, 10, 5]);
    expect(await fromCache()).toBe(5);
  });
});

describe('a cached file is taken again only when every file it was built from is unchanged', () => {
  const fromCache = async (dir: string) => {
    rmSync(path.join(dir, 'node_modules/.cache/toolprep/last-run.json'), { force: true });
    const { generation } = await createGeneratorContext({ root: dir }).run();
    return { fromCache: generation?.stats.fromCache, tools: generation?.tools ?? [] };
  };
  const descriptionOf = (
    tools: readonly { prepared: { name: string; description: string } }[],
    name: string,
  ) => tools.find((tool) => tool.prepared.name === name)?.prepared.description;
  /** A contract whose description is imported from ./wording.js; `before` runs first when it is loaded. */
  const archiveContract = (toolprepModule: string, before: string[] = []) =>
    [
      "import { z } from 'zod';",
      `import { defineTool } from '${toolprepModule}';`,
      "import { ARCHIVE_DESCRIPTION } from './wording.js';",
      ...before,
      'export const archiveNote = defineTool({',
      '  description: ARCHIVE_DESCRIPTION,',
      '  input: z.object({ id: z.string() }),',
      '});',
      '',
    ].join('\n');

  test('a contract under a symlinked folder: an edit of a file it imports is seen', async () => {
    project = copyFixture('project');
    const { dir } = project;
    writeFiles(dir, {
      'shared/linked-tools/archive.ts': archiveContract('../../src/lib/toolprep.js'),
      'shared/linked-tools/wording.ts': "export const ARCHIVE_DESCRIPTION = 'Archive a note.';\n",
    });
    symlinkSync(path.join(dir, 'shared/linked-tools'), path.join(dir, 'src/linked'), 'dir');

    const first = await fromCache(dir);
    expect(first.fromCache).toBe(0);
    expect(descriptionOf(first.tools, 'archive_note')).toBe('Archive a note.');

    project.write(
      'shared/linked-tools/wording.ts',
      "export const ARCHIVE_DESCRIPTION = 'Archive a note by id.';\n",
    );
    const second = await fromCache(dir);
    expect(second.fromCache).toBe(5);
    expect(descriptionOf(second.tools, 'archive_note')).toBe('Archive a note by id.');
  });

  test('a file edited while the modules load is not cached', async () => {
    project = copyFixture('project');
    const { dir } = project;
    // The module rewrites what it imports when it is evaluated: the edit lands after the bundle read it.
    writeFiles(dir, {
      'src/tools/archive.ts': archiveContract('../lib/toolprep.js', [
        "import { writeFileSync } from 'node:fs';",
        `writeFileSync(new URL(${JSON.stringify(pathToFileURL(path.join(dir, 'src/tools/wording.ts')).href)}), "export const ARCHIVE_DESCRIPTION = 'Archive a note by id.';\\n");`,
      ]),
      'src/tools/wording.ts': "export const ARCHIVE_DESCRIPTION = 'Archive a note.';\n",
    });

    const first = await fromCache(dir);
    expect(descriptionOf(first.tools, 'archive_note')).toBe('Archive a note.');
    // The next run loads the file again rather than serve the description read before the edit.
    const second = await fromCache(dir);
    expect(second.fromCache).toBe(5);
    expect(descriptionOf(second.tools, 'archive_note')).toBe('Archive a note by id.');
  });
});
