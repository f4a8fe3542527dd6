import { afterEach, expect, test } from 'vitest';
import { copyFixture, type FixtureProject, startCli } from '../support/fixture-project.js';

let fixture: FixtureProject | undefined;
afterEach(() => fixture?.remove());

test('watch regenerates when a contract changes, and never because of its own output', async () => {
  fixture = copyFixture('project');
  const watcher = startCli(fixture, 'watch');
  try {
    await watcher.waitFor(/watching for changes/);
    expect(watcher.output()).toMatch(
      /\[toolprep\] start: 10 files scanned, 8 tools found in \d+ ms; wrote toolprep\.manifest\.json, src\/toolprep\.gen\.ts/,
    );

    fixture.write(
      'src/tools/stats.ts',
      fixture.read('src/tools/stats.ts').replace('Count notes, words and tags.', 'Count notes and words.'),
    );
    await watcher.waitFor(
      /src\/tools\/stats\.ts changed: 10 files scanned, 8 tools found \(4 files from cache\) in \d+ ms; wrote toolprep\.manifest\.json/,
    );
    expect(
      JSON.parse(fixture.read('toolprep.manifest.json')).tools.find(
        (tool: { name: string }) => tool.name === 'note_stats',
      ).description,
    ).toBe('Count notes and words.');

    // Its own writes must not start another run: wait well past the debounce and count the runs.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(watcher.output().match(/^\[toolprep\] .* in \d+ ms;/gm)).toHaveLength(2);

    // Watch remembers what it wrote, but a hand edit to its output changes the file's stamp: the
    // next run compares with the disk again and writes the manifest back.
    const written = fixture.read('toolprep.manifest.json');
    fixture.write('toolprep.manifest.json', '{}\n');
    fixture.write('src/tools/stats.ts', fixture.read('src/tools/stats.ts'));
    await watcher.waitFor(/(src\/tools\/stats\.ts changed: .*; wrote toolprep\.manifest\.json[\s\S]*){2}/);
    expect(fixture.read('toolprep.manifest.json')).toBe(written);

    // A barrel that stops re-exporting defineTool changes what the files importing it hold, although
    // those files did not change: incremental discovery must notice.
    fixture.write('src/lib/toolprep.ts', "export { defineTool as makeTool } from 'toolprep';\n");
    await watcher.waitFor(/src\/lib\/toolprep\.ts changed: 10 files scanned, 7 tools found/);
    expect(
      JSON.parse(fixture.read('toolprep.manifest.json')).tools.map((tool: { name: string }) => tool.name),
    ).not.toContain('note_stats');
    fixture.write('src/lib/toolprep.ts', "export { defineTool } from 'toolprep';\n");
    await watcher.waitFor(/src\/lib\/toolprep\.ts changed: 10 files scanned, 8 tools found/);

    // A new contract file is found on the next run: each run lists the sources afresh.
    fixture.write(
      'src/tools/echo.ts',
      "import { z } from 'zod';\nimport { defineTool } from '../lib/toolprep.js';\n\nexport const echo = defineTool({ description: 'Echo.', input: z.object({ text: z.string() }) });\n",
    );
    await watcher.waitFor(/src\/tools\/echo\.ts added: 11 files scanned, 9 tools found/);
    expect(
      JSON.parse(fixture.read('toolprep.manifest.json')).tools.map((tool: { name: string }) => tool.name),
    ).toContain('echo');

    // A broken edit keeps the last good output and reports the problem; fixing it recovers.
    const good = fixture.read('toolprep.manifest.json');
    fixture.write(
      'src/tools/stats.ts',
      fixture
        .read('src/tools/stats.ts')
        .replace("name: 'note_stats'", '')
        .replace("description: 'Count notes and words.'", "description: ''"),
    );
    await watcher.waitFor(/tool "note_stats", description: has an empty description/);
    expect(fixture.read('toolprep.manifest.json')).toBe(good);
  } finally {
    await watcher.stop();
  }
});
