import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { generateInProcess } from '../support/cli-in-process.js';
import { CLI, copyFixture, type FixtureProject, REPO } from '../support/fixture-project.js';

// Each test runs the CLI as a process several times, and one run takes 5-22 s on a busy machine
// (two CPU-bound processes beside the suite): three minutes a test, not the suite's one.
vi.setConfig({ testTimeout: 180_000 });

const projects: FixtureProject[] = [];
function project(name: string): FixtureProject {
  const copy = copyFixture(name);
  projects.push(copy);
  return copy;
}
afterEach(() => {
  for (const copy of projects.splice(0)) copy.remove();
});

/** Broken projects also run by a spawned CLI: a problem found in a contract, and one in the config. */
const SPAWNED_BROKEN = ['duplicate-names', 'bad-config'];

const TOOLS = [
  'delete_files',
  'edit_note',
  'note_stats',
  'read_files',
  'search',
  'set_outline',
  'tag_notes',
  'write_file',
];

describe('toolprep generate and check on the fixture project', () => {
  test('generate writes the manifest and the module; check then exits 0; generating again changes nothing', () => {
    const fixture = project('project');
    const generated = fixture.cli('generate');
    expect(generated.status).toBe(0);
    expect(generated.stdout).toMatch(
      /^\[toolprep\] generate: 10 files scanned, 8 tools found in \d+ ms; wrote toolprep\.manifest\.json, src\/toolprep\.gen\.ts, src\/toolprep\.gen\.walks\.ts\n$/,
    );
    expect(generated.stderr).toBe(
      '[toolprep] warning: src/tools/notes.ts:19: defineTool() result is not exported, so it is not a tool: export it, or remove it\n',
    );

    const manifest = JSON.parse(fixture.read('toolprep.manifest.json'));
    expect(manifest.tools.map((tool: { name: string }) => tool.name)).toEqual(TOOLS);
    expect(manifest.tools.find((tool: { name: string }) => tool.name === 'read_files')).toMatchObject({
      description: 'Read one file or several files from the workspace.',
      source: 'src/tools/files.ts#readFiles',
    });
    expect(manifest.tools.find((tool: { name: string }) => tool.name === 'search')).toMatchObject({
      description: 'Search the workspace for text.',
      source: 'src/tools/search.ts#default',
    });
    expect(manifest.totals.tools).toBe(8);
    expect(fixture.read('toolprep.manifest.json')).not.toContain(fixture.dir);

    const modified = statSync(path.join(fixture.dir, 'toolprep.manifest.json')).mtimeMs;
    expect(fixture.cli('check')).toMatchObject({
      status: 0,
      stdout: expect.stringMatching(/the committed tool surface is current/),
    });
    expect(fixture.cli('generate').stdout).toMatch(/the files were up to date/);
    expect(statSync(path.join(fixture.dir, 'toolprep.manifest.json')).mtimeMs).toBe(modified);
    expect(readdirSync(fixture.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  test('editing a contract makes check exit 1, naming what changed, with the diff, and writing nothing', () => {
    const fixture = project('project');
    fixture.cli('generate');
    const before = fixture.read('toolprep.manifest.json');
    fixture.write(
      'src/tools/stats.ts',
      fixture
        .read('src/tools/stats.ts')
        .replace("description: 'Count notes, words and tags.'", "description: 'Count notes and words.'")
        .replace(
          "by: z.enum(['tag', 'month']).optional()",
          "by: z.enum(['tag', 'month']), since: z.string().optional()",
        ),
    );
    fixture.write(
      'src/tools/search.ts',
      fixture.read('src/tools/search.ts').replace('export default', 'export const find ='),
    );
    const check = fixture.cli('check');
    expect(check.status).toBe(1);
    expect(check.stdout).toContain(
      '[toolprep] check: the committed tool surface is stale: toolprep.manifest.json, src/toolprep.gen.ts',
    );
    expect(check.stdout).toContain(
      '~ tool note_stats\n      description changed\n      ~ field by: now required\n      + field since added (optional, string)',
    );
    // The default export became a named one: the same tool under another name, a breaking change.
    expect(check.stdout).toContain('~ tool search renamed to find (a breaking change');
    expect(check.stdout).toContain('Run `toolprep generate` and commit the result.');
    // The manifest's diff is per tool: this tool's entry, against the one it was.
    expect(check.stdout).toMatch(/^--- a\/toolprep\.manifest\.json \(tool note_stats\)\tcommitted$/m);
    expect(check.stdout).toMatch(/^- {6}"description": "Count notes, words and tags\.",$/m);
    expect(fixture.read('toolprep.manifest.json')).toBe(before);
  });

  test('a renamed tool is reported as renamed', () => {
    const fixture = project('project');
    fixture.cli('generate');
    fixture.write(
      'src/tools/notes.ts',
      fixture
        .read('src/tools/notes.ts')
        .replace("description: 'Set the tags", "name: 'set_tags',\n  description: 'Set the tags"),
    );
    expect(fixture.cli('check').stdout).toContain(
      '~ tool tag_notes renamed to set_tags (a breaking change: clients and prompts call tools by name)',
    );
  });

  test('a tool whose contract goes is reported as removed, and a new one as added', () => {
    const fixture = project('project');
    fixture.cli('generate');
    fixture.write(
      'src/tools/search.ts',
      fixture
        .read('src/tools/search.ts')
        .replace('query: z.string().min(1)', 'text: z.string()')
        .replace('export default', 'export const find ='),
    );
    const check = fixture.cli('check');
    expect(check.stdout).toContain('- tool search removed (was src/tools/search.ts#default)');
    expect(check.stdout).toContain('+ tool find added (src/tools/search.ts#find)');
  });

  test('renaming an export renames the tool: reported as a rename, not as a tool removed and another added', () => {
    const fixture = project('project');
    fixture.cli('generate');
    fixture.write(
      'src/tools/notes.ts',
      fixture.read('src/tools/notes.ts').replace(/\btagNotes\b/g, 'labelNotes'),
    );
    const check = fixture.cli('check');
    expect(check.status).toBe(1);
    expect(check.stdout).toContain('~ tool tag_notes renamed to label_notes (a breaking change');
    expect(check.stdout).not.toContain('- tool tag_notes removed');
  });

  test('output bytes do not depend on the order in which files are found', () => {
    const first = project('project');
    const second = project('project');
    second.write(
      'toolprep.config.ts',
      "export default { include: ['src/tools/*.ts', 'src/*.ts', 'src/lib/**/*.ts'] };\n",
    );
    expect(first.cli('generate').status).toBe(0);
    expect(second.cli('generate').status).toBe(0);
    for (const file of ['toolprep.manifest.json', 'src/toolprep.gen.ts'])
      expect(second.read(file)).toBe(first.read(file));
  });

  test('inspect lists the tools with their sizes, shows one as a tree, or prints JSON', () => {
    const fixture = project('project');
    const list = fixture.cli('inspect');
    expect(list.status).toBe(0);
    const lines = list.stdout.split('\n');
    expect(
      lines
        .slice(
          0,
          lines.findIndex((line) => line.startsWith('total')),
        )
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual(TOOLS);
    expect(list.stdout).toMatch(/^total\s+\d+ tokens {2}8 tools$/m);
    // Nothing deferred, no groups: every strategy's first turn is the whole list.
    expect(list.stdout).toMatch(
      /^ {2}deferred\s+(\d+) tokens {2}8 eager tools whole, 0 deferred by name and description$/m,
    );
    const one = fixture.cli('inspect', 'edit_note');
    expect(one.stdout).toContain('    action: "create" | "delete" | "rename"\n');
    expect(one.stdout).toContain('    body?: string  Required if action = create');
    // Unions by their members, enums by their values, defaults and bounds, and the plan in words.
    expect(fixture.cli('inspect', 'read_files').stdout).toContain(
      [
        '  input',
        '    paths: string | string[]  A path, or a list of paths',
        '    encoding?: "utf8" | "base64"  (default "utf8")',
        '',
        '  plan',
        '    the arguments: an object sent as JSON text is parsed',
        '    encoding: null is taken as left out',
        '    paths: a list written as text is refused',
        '    paths as a list: an array sent as JSON text is parsed',
        '    encoding: a value in another case takes its member’s case',
      ].join('\n'),
    );
    const json = JSON.parse(fixture.cli('inspect', 'edit_note', '--json').stdout);
    expect(json).toMatchObject({
      name: 'edit_note',
      source: 'src/tools/notes.ts#editNote',
      plan: { root: { tag: 'action' } },
    });
    expect(fixture.cli('inspect', 'nope')).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('[toolprep] no tool named "nope"; the tools are: delete_files, '),
    });
  });

  test('--root, --config and --quiet work from another directory', () => {
    const fixture = project('project');
    fixture.write(
      'custom.config.ts',
      "export default { manifest: 'tools.json', module: 'src/tools.gen.ts' };\n",
    );
    const result = spawnSync(
      process.execPath,
      [CLI, 'generate', '--root', fixture.dir, '--config', 'custom.config.ts', '--quiet'],
      {
        cwd: tmpdir(),
        encoding: 'utf8',
      },
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(JSON.parse(fixture.read('tools.json')).totals.tools).toBe(8);
    expect(fixture.read('src/tools.gen.ts')).toContain('export const tools: PreparedToolSet');
  });

  test('every command has --help, and an unknown command is an error', () => {
    const fixture = project('project');
    for (const command of ['generate', 'check', 'inspect', 'watch']) {
      expect(fixture.cli(command, '--help')).toMatchObject({
        status: 0,
        stdout: expect.stringContaining(`Usage: toolprep ${command}`),
      });
    }
    expect(fixture.cli('--help').stdout).toContain('Commands:');
    expect(fixture.cli('build')).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('[toolprep] unknown command "build"'),
    });
    expect(fixture.cli('generate', '--frobnicate')).toMatchObject({
      status: 1,
      stderr: expect.stringContaining("Unknown option '--frobnicate'"),
    });
  });
});

test('--version prints the installed version', () => {
  const { version } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
  for (const flag of ['--version', '-v'])
    expect(project('project').cli(flag)).toMatchObject({ status: 0, stdout: `${version}\n` });
});

test('a project with no tools is an error, and never replaces a manifest, unless --allow-empty', () => {
  const fixture = project('project');
  expect(fixture.cli('generate').status).toBe(0);
  const manifest = fixture.read('toolprep.manifest.json');
  for (const file of readdirSync(path.join(fixture.dir, 'src/tools')))
    fixture.write(`src/tools/${file}`, 'export const nothing = 1;\n');
  const empty = fixture.cli('generate');
  expect(empty.status).toBe(1);
  expect(empty.stderr).toContain('[toolprep] no tool found:');
  expect(fixture.read('toolprep.manifest.json')).toBe(manifest);
  const allowed = fixture.cli('generate', '--allow-empty');
  expect(allowed.status).toBe(0);
  expect(JSON.parse(fixture.read('toolprep.manifest.json')).tools).toEqual([]);
});

test('a zod toolprep cannot read is one problem naming its version and the supported ones; nothing is loaded', () => {
  const fixture = project('project');
  rmSync(path.join(fixture.dir, 'node_modules/zod'));
  mkdirSync(path.join(fixture.dir, 'node_modules/zod'));
  fixture.write(
    'node_modules/zod/package.json',
    '{ "name": "zod", "version": "2.1.0", "main": "index.js" }\n',
  );
  fixture.write('node_modules/zod/index.js', "throw new Error('a contract module was loaded');\n");
  const result = fixture.cli('generate');
  expect(result.status).toBe(1);
  expect(result.stderr.replace(/^.*warning.*\n/gm, '')).toBe(
    '[toolprep] node_modules/zod: zod 2.1.0 is installed, which toolprep cannot read; it reads zod 3.23 and later 3.x, and zod 4 (install zod 4 (npm install zod@4), or zod 3.23 or later)\n[toolprep] 1 problem; nothing was written\n',
  );
  expect(readdirSync(fixture.dir)).not.toContain('toolprep.manifest.json');
});

test('a token budget turns an overrun into a failure naming the tools, in generate and check', () => {
  const fixture = project('project');
  expect(fixture.cli('generate').status).toBe(0);
  const manifest = JSON.parse(fixture.read('toolprep.manifest.json'));
  const sizes = new Map<string, number>(
    manifest.tools.map((tool: { name: string; size: { tokens: number } }) => [tool.name, tool.size.tokens]),
  );
  const largest = Math.max(...sizes.values());
  const over = [...sizes].filter(([, tokens]) => tokens > largest - 1).map(([name]) => name);
  fixture.write(
    'toolprep.config.ts',
    `export default { include: ['src/**/*.ts'], budget: { tool: ${largest - 1}, total: ${manifest.totals.tokens - 1} } };\n`,
  );
  for (const command of ['generate', 'check']) {
    const result = fixture.cli(command);
    expect(result.status).toBe(1);
    for (const name of over)
      expect(result.stderr).toContain(
        `tool "${name}": ${largest} tokens as a model sees it, over the budget of ${largest - 1} per tool`,
      );
    expect(result.stderr).toContain(
      `${manifest.totals.tokens} tokens in all 8 tools, over the budget of ${manifest.totals.tokens - 1}`,
    );
  }
});

describe('every broken project exits 1 with its message, and writes nothing', () => {
  const cases = readdirSync(path.join(REPO, 'fixtures/broken')).sort();
  // In this process: what a run reports does not depend on the process (the next test shows it).
  test.each(cases)('%s', async (name) => {
    const fixture = project(`broken/${name}`);
    const expected = readFileSync(path.join(REPO, 'fixtures/broken', name, 'expected.txt'), 'utf8').trim();
    const result = await generateInProcess(fixture.dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(expected);
    expect(readdirSync(fixture.dir)).not.toContain('toolprep.manifest.json');
  });

  test.each(SPAWNED_BROKEN)(
    '%s: the CLI itself, in a process of its own, exits and says the same',
    async (name) => {
      const spawned = project(`broken/${name}`).cli('generate');
      expect(spawned.status).toBe(1);
      expect(spawned).toEqual(await generateInProcess(project(`broken/${name}`).dir));
    },
  );
});

test('an error that is not a mistake in the project is reported as a bug in toolprep, with its stack', () => {
  const result = project('crash').cli('generate');
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(
    /^\[toolprep\] this is a bug in toolprep; please report it with what follows:\n\w*Error: .*\n\s+at /,
  );
});

describe('the persistent cache', () => {
  test('gives the same bytes cold, warm and off; skips unchanged files; follows a changed dependency', () => {
    const fixture = project('project');
    const files = ['toolprep.manifest.json', 'src/toolprep.gen.ts'];
    const cold = fixture.cli('generate');
    expect(cold.stdout).not.toContain('from cache');
    const coldBytes = files.map((file) => fixture.read(file));

    const warm = fixture.cli('generate');
    expect(warm.stdout).toMatch(/8 tools found \(5 files from cache\)/);
    expect(warm.stderr).toContain('src/tools/notes.ts:19: defineTool() result is not exported');
    expect(files.map((file) => fixture.read(file))).toEqual(coldBytes);

    for (const file of files) fixture.write(file, '');
    expect(fixture.cli('generate', '--no-cache').stdout).not.toContain('from cache');
    expect(files.map((file) => fixture.read(file))).toEqual(coldBytes);
    for (const file of files) fixture.write(file, '');
    fixture.cli('generate');
    expect(files.map((file) => fixture.read(file))).toEqual(coldBytes);

    // files.ts imports lib/paths.ts: changing the dependency must re-evaluate files.ts.
    fixture.write(
      'src/lib/paths.ts',
      fixture.read('src/lib/paths.ts').replace('A path, or a list of paths', 'One path or several'),
    );
    const changed = fixture.cli('generate');
    expect(changed.stdout).toMatch(/8 tools found \(4 files from cache\)/);
    const readFiles = JSON.parse(fixture.read('toolprep.manifest.json')).tools.find(
      (tool: { name: string }) => tool.name === 'read_files',
    );
    expect(readFiles.inputSchema.mcp.properties.paths.description).toBe('One path or several');
  });
});
