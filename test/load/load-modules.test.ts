import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterEach, describe, expect, test } from 'vitest';
import { type LoadedModule, loadModules } from '../../src/load/load-modules.js';
import { packageImports } from '../../src/load/package-imports.js';
import { projectPath } from '../../src/shared/build/project-path.js';
import { REPO, writeFiles } from '../support/fixture-project.js';

// The contract modules are loaded as one module (decision 0077): each must load, or fail, as it did
// bundled on its own (decision 0004), and be said to be built from the same local files.

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A throwaway project: zod, a few packages of its own under node_modules, and these files. */
function projectWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-load-'));
  made.push(dir);
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(path.join(REPO, 'node_modules/zod'), path.join(dir, 'node_modules/zod'));
  writeFiles(dir, {
    'package.json': '{ "type": "module" }\n',
    'node_modules/throws-on-import/package.json':
      '{ "name": "throws-on-import", "type": "module", "main": "index.js" }\n',
    'node_modules/throws-on-import/index.js': "throw new Error('the package threw');\n",
    'node_modules/few-exports/package.json':
      '{ "name": "few-exports", "type": "module", "main": "index.js" }\n',
    'node_modules/few-exports/index.js': 'export const present = 1;\n',
    // A workspace package that ships TypeScript, linked as a package manager links it: bundled.
    'packages/shared-schemas/package.json':
      '{ "name": "shared-schemas", "type": "module", "exports": { ".": "./src/index.ts" } }\n',
    'packages/shared-schemas/src/index.ts': "export { note } from './note.js';\n",
    'packages/shared-schemas/src/note.ts': "import { z } from 'zod';\nexport const note = z.string();\n",
    ...files,
  });
  symlinkSync(path.join(dir, 'packages/shared-schemas'), path.join(dir, 'node_modules/shared-schemas'));
  return dir;
}

/** What each module gave: its exports' values, or its error's message. */
function outcome(module: LoadedModule | undefined): unknown {
  if (!module) return 'not loaded';
  if (!module.exports) return { threw: module.error instanceof Error ? module.error.message : module.error };
  return Object.fromEntries(
    Object.entries(module.exports).map(([name, value]) => [
      name,
      typeof value === 'function' ? 'function' : value,
    ]),
  );
}

/** The local files each module is built from when bundled on its own: decision 0004's way, the reference. */
async function inputsOnTheirOwn(root: string, files: readonly string[]): Promise<Record<string, string[]>> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: files.map((file) => path.resolve(root, file)),
    outdir: path.join(root, 'node_modules/.reference'),
    outbase: root,
    bundle: true,
    format: 'esm',
    platform: 'node',
    conditions: [],
    metafile: true,
    write: false,
    logLevel: 'silent',
    plugins: [packageImports(root)],
  });
  return Object.fromEntries(
    Object.values(result.metafile.outputs)
      .filter((output) => output.entryPoint)
      .map((output) => [
        projectPath(root, output.entryPoint as string),
        Object.keys(output.inputs)
          .map((input) => projectPath(root, input))
          .sort(),
      ]),
  );
}

async function load(root: string, files: readonly string[]) {
  const loaded = await loadModules(root, files, path.join(root, 'node_modules/.cache/toolprep'));
  if (!loaded.ok) throw new Error(`not built: ${JSON.stringify(loaded.failures)}`);
  return loaded.modules;
}

describe('contract modules loaded as one module', () => {
  test.each<[string, Record<string, string>, Record<string, unknown>]>([
    [
      'a top-level await, and a module that imports one',
      {
        'src/a.ts': 'export const a = await Promise.resolve(1);\n',
        'src/b.ts': "import { a } from './a.js';\nexport const b = a + 1;\n",
      },
      { 'src/a.ts': { a: 1 }, 'src/b.ts': { b: 2 } },
    ],
    [
      'a module that throws: its own failure',
      {
        'src/bad.ts': "export const bad = 1;\nthrow new Error('bad threw');\n",
        'src/good.ts': 'export const good = 1;\n',
      },
      { 'src/bad.ts': { threw: 'bad threw' }, 'src/good.ts': { good: 1 } },
    ],
    [
      'a shared local module that throws: each importer fails with it, as each did alone',
      {
        'src/shared.ts': "export const shared = 1;\nthrow new Error('shared threw');\n",
        'src/one.ts': "import { shared } from './shared.js';\nexport const one = shared;\n",
        'src/two.ts': "import { shared } from './shared.js';\nexport const two = shared;\n",
        'src/other.ts': 'export const other = 1;\n',
      },
      {
        'src/one.ts': { threw: 'shared threw' },
        'src/two.ts': { threw: 'shared threw' },
        'src/other.ts': { other: 1 },
      },
    ],
    [
      'a missing package fails only the module that imports it',
      {
        'src/needs.ts': "import { x } from 'not-installed';\nexport const needs = x;\n",
        'src/fine.ts': "import { z } from 'zod';\nexport const fine = typeof z.string;\n",
      },
      {
        'src/needs.ts': { threw: expect.stringMatching(/Cannot find package 'not-installed'/) },
        'src/fine.ts': { fine: 'function' },
      },
    ],
    [
      'a package that throws when imported fails only its importers',
      {
        'src/needs.ts': "import 'throws-on-import';\nexport const needs = 1;\n",
        'src/fine.ts': 'export const fine = 1;\n',
      },
      { 'src/needs.ts': { threw: 'the package threw' }, 'src/fine.ts': { fine: 1 } },
    ],
    [
      'a name a package does not export fails only its importer',
      {
        'src/needs.ts': "import { absent } from 'few-exports';\nexport const needs = absent;\n",
        'src/fine.ts': "import { present } from 'few-exports';\nexport const fine = present;\n",
      },
      {
        'src/needs.ts': { threw: expect.stringMatching(/does not provide an export named 'absent'/) },
        'src/fine.ts': { fine: 1 },
      },
    ],
    [
      'a package imported lazily is not imported while loading',
      { 'src/lazy.ts': "export const later = () => import('not-installed');\n" },
      { 'src/lazy.ts': { later: 'function' } },
    ],
    [
      'CommonJS: a .cts module, and a module that imports a CommonJS file',
      {
        'src/typed.cts': 'export const typed = 1;\n',
        'src/helper.cjs': 'module.exports = { value: 2 };\n',
        'src/uses.ts': "import helper from './helper.cjs';\nexport const uses = helper.value;\n",
      },
      { 'src/typed.cts': { typed: 1 }, 'src/uses.ts': { uses: 2 } },
    ],
    [
      'a workspace package that ships TypeScript',
      {
        'src/notes.ts':
          "import { note } from 'shared-schemas';\nexport const notes = note.safeParse('x').success;\n",
      },
      { 'src/notes.ts': { notes: true } },
    ],
  ])('%s', async (_name, files, expected) => {
    const root = projectWith(files);
    const modules = await load(root, Object.keys(expected));
    expect(
      Object.fromEntries(Object.keys(expected).map((file) => [file, outcome(modules.get(file))])),
    ).toEqual(expected);
  });

  test('each module is built from the local files it would be built from alone, whatever the kind of import', async () => {
    const root = projectWith({
      'src/types.ts': 'export type Kind = "a" | "b";\nexport interface Shape { kind: Kind }\n',
      'src/values.ts': 'export const values = [1, 2];\nexport type Values = number[];\n',
      'src/data.json': '{ "limit": 3 }\n',
      'src/lazy.ts': 'export const handler = () => 1;\n',
      'src/side.ts': 'globalThis.toolprepLoadTestSide = true;\n',
      'src/deep/inner.ts': 'export const inner = 1;\n',
      'src/deep/index.ts': "export * from './inner.js';\n",
      'src/helper.cjs': 'module.exports = { value: 2 };\n',
      'src/unused.ts': 'export const unused = 1;\n',
      'src/a.ts': [
        "import type { Shape } from './types.js';",
        "import { type Values, values } from './values.js';",
        "import data from './data.json';",
        "import './side.js';",
        "import { inner } from './deep/index.js';",
        "import helper from './helper.cjs';",
        "import { unused } from './unused.js';",
        "import { note } from 'shared-schemas';",
        'export const shape: Shape = { kind: "a" };',
        'export const all: Values = [...values, data.limit, inner, helper.value];',
        "export const load = () => import('./lazy.js');",
        'export const schema = note;',
        '',
      ].join('\n'),
      'src/b.ts': "import { values } from './values.js';\nexport const b = values.length;\n",
      'src/c.ts': "import { b } from './b.js';\nexport const c = b;\n",
    });
    const files = ['src/a.ts', 'src/b.ts', 'src/c.ts'];
    const modules = await load(root, files);
    const inputs = Object.fromEntries(
      files.map((file) => [file, [...(modules.get(file)?.inputs ?? [])].sort()]),
    );
    expect(inputs).toEqual(await inputsOnTheirOwn(root, files));
    expect(inputs['src/a.ts']).toContain('packages/shared-schemas/src/note.ts');
    expect(inputs['src/a.ts']).toContain('src/lazy.ts');
    expect(outcome(modules.get('src/c.ts'))).toEqual({ c: 2 });
  });

  test.each([
    ['together', {}],
    // A missing package makes the bundle of every module fail to import: each is loaded on its own.
    ['each on its own', { 'src/needs.ts': "import { x } from 'not-installed';\nexport const needs = x;\n" }],
  ])(
    'a module under a symlinked folder, loaded %s: found under its own path, built from its imports',
    async (_way, extra: Record<string, string>) => {
      const root = projectWith({
        'shared/tools/linked.ts': "import { word } from './wording.js';\nexport const linked = word;\n",
        'shared/tools/wording.ts': 'export const word = "linked";\n',
        ...extra,
      });
      mkdirSync(path.join(root, 'src'), { recursive: true });
      symlinkSync(path.join(root, 'shared/tools'), path.join(root, 'src/linked'), 'dir');
      const modules = await load(root, ['src/linked/linked.ts', ...Object.keys(extra)]);
      expect(outcome(modules.get('src/linked/linked.ts'))).toEqual({ linked: 'linked' });
      expect(modules.get('src/linked/linked.ts')?.inputs).toContain('shared/tools/wording.ts');
    },
  );

  test('a local module imported by several is evaluated once: they share its values', async () => {
    const root = projectWith({
      'src/shared.ts': 'export const identity = {};\n',
      'src/one.ts': "export { identity as one } from './shared.js';\n",
      'src/two.ts': "export { identity as two } from './shared.js';\n",
    });
    const modules = await load(root, ['src/one.ts', 'src/two.ts']);
    expect(modules.get('src/one.ts')?.exports?.one).toBe(modules.get('src/two.ts')?.exports?.two);
  });

  test('a long-lived process evaluates a changed module, and a module whose import changed, again', async () => {
    const root = projectWith({
      'src/shared.ts': 'export const word = "first";\n',
      'src/a.ts': "import { word } from './shared.js';\nexport const a = word;\n",
    });
    expect(outcome((await load(root, ['src/a.ts'])).get('src/a.ts'))).toEqual({ a: 'first' });
    writeFileSync(path.join(root, 'src/shared.ts'), 'export const word = "second";\n');
    expect(outcome((await load(root, ['src/a.ts'])).get('src/a.ts'))).toEqual({ a: 'second' });
    writeFileSync(path.join(root, 'src/a.ts'), 'export const a = "third";\n');
    expect(outcome((await load(root, ['src/a.ts'])).get('src/a.ts'))).toEqual({ a: 'third' });
  });

  test('a module that cannot be built fails the load, at its file and line', async () => {
    const root = projectWith({
      'src/a.ts': 'export const a = 1;\n',
      'src/broken.ts': 'export const b = ;\n',
    });
    const loaded = await loadModules(
      root,
      ['src/a.ts', 'src/broken.ts'],
      path.join(root, 'node_modules/.cache'),
    );
    expect(loaded).toEqual({
      ok: false,
      failures: [{ file: 'src/broken.ts', line: 1, message: 'Unexpected ";"' }],
    });
  });
});
