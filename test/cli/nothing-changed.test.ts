import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { CLI, copyFixture, type FixtureProject } from '../support/fixture-project.js';

// Several CLI processes a test, each several seconds on a busy machine.
vi.setConfig({ testTimeout: 180_000 });

const projects: FixtureProject[] = [];
afterEach(() => {
  for (const copy of projects.splice(0)) copy.remove();
});

/** Says, as the process exits, which CommonJS modules it loaded (ts-morph and TypeScript are such). */
const PRELOAD = `const { writeFileSync } = require('node:fs');
process.on('exit', () => writeFileSync(process.env.LOADED_REPORT, JSON.stringify(Object.keys(require.cache))));
`;

/** Says, as the process exits, which ES modules it loaded (Zod is one), through a loader hook. */
const ESM_PRELOAD = `import { register } from 'node:module';
import { writeFileSync } from 'node:fs';
const loaded = [];
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => loaded.push(url));
port1.unref();
register('./esm-hooks.mjs', { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });
process.on('exit', () => writeFileSync(process.env.ESM_REPORT, JSON.stringify(loaded)));
`;
const ESM_HOOKS = `let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, next) { port.postMessage(url); return next(url, context); }
`;

/** A contract that says when it is evaluated: the one observable way to know a contract was loaded. */
const MARKED_CONTRACT = `import { appendFileSync } from 'node:fs';
import { defineTool } from 'toolprep';
import { z } from 'zod';

appendFileSync(process.env.CONTRACT_MARKER as string, 'evaluated\\n');

/** Mark a note as read. */
export const markRead = defineTool({ input: z.object({ id: z.string() }) });
`;

/** A project whose contract evaluations and loaded modules each CLI run reports. */
function observedProject() {
  const fixture = copyFixture('project');
  projects.push(fixture);
  fixture.write('src/tools/marked.ts', MARKED_CONTRACT);
  fixture.write('preload.cjs', PRELOAD);
  const marker = path.join(fixture.dir, 'evaluated.log');
  const report = path.join(fixture.dir, 'loaded.json');
  const generate = () => {
    const result = spawnSync(process.execPath, ['--require', './preload.cjs', CLI, 'generate'], {
      cwd: fixture.dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', CONTRACT_MARKER: marker, LOADED_REPORT: report },
    });
    const loaded = JSON.parse(readFileSync(report, 'utf8')) as string[];
    return {
      status: result.status,
      stdout: result.stdout,
      evaluations: existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').length - 1 : 0,
      loadedTsMorph: loaded.some((file) => /[\\/]ts-morph[\\/]|[\\/]@ts-morph[\\/]/.test(file)),
    };
  };
  return { fixture, generate };
}

const OUTPUTS = ['toolprep.manifest.json', 'src/toolprep.gen.ts', 'src/toolprep.gen.walks.ts'];

describe('a run where nothing changed', () => {
  test('loads neither ts-morph nor any contract, and reports and writes what the last run did', () => {
    const { fixture, generate } = observedProject();
    const cold = generate();
    expect(cold.status).toBe(0);
    // The observations work: the cold run parsed with ts-morph and evaluated the contract once.
    expect(cold).toMatchObject({ evaluations: 1, loadedTsMorph: true });
    const bytes = OUTPUTS.map((file) => fixture.read(file));

    const again = generate();
    expect(again).toMatchObject({ status: 0, evaluations: 1, loadedTsMorph: false });
    expect(again.stdout).toMatch(
      /11 files scanned, 9 tools found \(6 files from cache\) in \d+ ms; the files were up to date/,
    );
    expect(OUTPUTS.map((file) => fixture.read(file))).toEqual(bytes);
  });

  test('any file the last run read or wrote that changed makes a full run', () => {
    const { fixture, generate } = observedProject();
    generate();
    const bytes = OUTPUTS.map((file) => fixture.read(file));

    // An output edited by hand: discovered again, and written back.
    fixture.write('toolprep.manifest.json', '{}\n');
    expect(generate()).toMatchObject({ status: 0, loadedTsMorph: true });
    expect(OUTPUTS.map((file) => fixture.read(file))).toEqual(bytes);
    expect(generate().loadedTsMorph).toBe(false);

    // A file outside include that a contract imports: its contract file is loaded again.
    const paths = path.join(fixture.dir, 'src/lib/paths.ts');
    writeFileSync(
      paths,
      readFileSync(paths, 'utf8').replace('A path, or a list of paths', 'One path or several'),
    );
    const changed = generate();
    expect(changed).toMatchObject({ status: 0, loadedTsMorph: true });
    expect(fixture.read('toolprep.manifest.json')).toContain('One path or several');
    expect(generate().loadedTsMorph).toBe(false);

    // The contract itself: evaluated again.
    fixture.write(
      'src/tools/marked.ts',
      MARKED_CONTRACT.replace('Mark a note as read.', 'Mark a note read.'),
    );
    expect(generate()).toMatchObject({ status: 0, evaluations: 2, loadedTsMorph: true });
    expect(fixture.read('toolprep.manifest.json')).toContain('Mark a note read.');
  });
});

describe('a run where a view changed', () => {
  test("a view's file the last run built from makes a full run, and a new version of the view", () => {
    const { fixture, generate } = observedProject();
    fixture.write(
      'src/tools/card.ts',
      `import { defineTool } from 'toolprep';
import { z } from 'zod';

/** Show a note as a card. */
export const showCard = defineTool({
  input: z.object({ id: z.string() }),
  output: z.object({ title: z.string() }),
  view: './card.html',
});
`,
    );
    fixture.write('src/tools/card.css', 'body { color: black; }\n');
    fixture.write(
      'src/tools/card.html',
      '<!doctype html><html><head><link rel="stylesheet" href="./card.css"></head><body>card</body></html>\n',
    );
    expect(generate()).toMatchObject({ status: 0, loadedTsMorph: true });
    const digestOf = () =>
      (JSON.parse(fixture.read('toolprep.manifest.json')) as { views: { digest: string }[] }).views[0]
        ?.digest;
    const before = digestOf();
    expect(before).toMatch(/^[0-9a-f]{16}$/);
    expect(generate().loadedTsMorph).toBe(false);

    fixture.write('src/tools/card.css', 'body { color: navy; }\n');
    expect(generate()).toMatchObject({ status: 0, loadedTsMorph: true });
    expect(digestOf()).not.toBe(before);
  });
});

describe('options checked once', () => {
  // Checking the options loads Zod (a tenth of a second): plain options this build checked last
  // time are taken as resolved then, and any change to them is checked again.
  test('with plain options from defineConfig, a run where nothing changed loads no Zod; changed ones are checked', () => {
    const fixture = copyFixture('project');
    projects.push(fixture);
    const config = (names: string) =>
      `import { defineConfig } from '@toolprep/build/config';\n\nexport default defineConfig({ include: ['src/**/*.ts'], names: '${names}' as 'strict' });\n`;
    fixture.write('toolprep.config.ts', config('strict'));
    fixture.write('esm-preload.mjs', ESM_PRELOAD);
    fixture.write('esm-hooks.mjs', ESM_HOOKS);
    const report = path.join(fixture.dir, 'esm-loaded.json');
    const generate = () => {
      const result = spawnSync(process.execPath, ['--import', './esm-preload.mjs', CLI, 'generate'], {
        cwd: fixture.dir,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', ESM_REPORT: report },
      });
      const loaded = JSON.parse(readFileSync(report, 'utf8')) as string[];
      return {
        status: result.status,
        output: `${result.stdout}${result.stderr}`,
        loadedZod: loaded.some((url) => /\/node_modules\/zod\//.test(url)),
      };
    };
    // The observation works: the cold run loads Zod (the contracts, and the options' check).
    expect(generate()).toMatchObject({ status: 0, loadedZod: true });
    expect(generate()).toMatchObject({ status: 0, loadedZod: false });

    fixture.write('toolprep.config.ts', config('loose'));
    const refused = generate();
    expect(refused.status).not.toBe(0);
    expect(refused.output).toContain('option "names"');
  });

  // Found by review: the keep, the prepared cache and the record were keyed on canonical JSON,
  // which sorts keys, though the order of groups (and of a profile's tool patterns) is meaningful.
  test('options that differ only in their order are options that changed', () => {
    const fixture = copyFixture('project');
    projects.push(fixture);
    const config = (order: readonly string[]) =>
      `import { defineConfig } from '@toolprep/build/config';\n\nexport default defineConfig({ include: ['src/**/*.ts'], groups: { ${order
        .map((group) => `${group}: { description: 'The ${group} group.', tools: ['*'] }`)
        .join(', ')} } });\n`;
    const groupsOfFirstTool = () =>
      (JSON.parse(fixture.read('toolprep.manifest.json')) as { tools: { groups?: string[] }[] }).tools[0]
        ?.groups;
    const generate = () =>
      spawnSync(process.execPath, [CLI, 'generate'], {
        cwd: fixture.dir,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      }).status;
    fixture.write('toolprep.config.ts', config(['alpha', 'beta']));
    expect(generate()).toBe(0);
    expect(groupsOfFirstTool()).toEqual(['alpha', 'beta']);
    fixture.write('toolprep.config.ts', config(['beta', 'alpha']));
    expect(generate()).toBe(0);
    expect(groupsOfFirstTool()).toEqual(['beta', 'alpha']);
    fixture.write('toolprep.config.ts', config(['alpha', 'beta']));
    expect(generate()).toBe(0);
    expect(groupsOfFirstTool()).toEqual(['alpha', 'beta']);
  });
});
