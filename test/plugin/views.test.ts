import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type BundlerName, bundlers } from '../support/bundlers.js';
import { type FixtureProject, REPO, viewsProject } from '../support/fixture-project.js';

/**
 * The views fixture (three MCP Apps views written with ext-apps' `App`): each built into one
 * self-contained HTML document, listed in the manifest with its URI, digest, bytes and CSP, its
 * data typed for its code; the same bytes from the CLI and every bundler plugin; a fetch of an
 * undeclared origin fails the build naming the source line; `check` names a view that changed.
 */
const VIEWS = ['notes_board', 'photo_gallery', 'weather_board'];

/** The generated files, by path: the manifest, the module and each view's two files. */
function outputs(project: FixtureProject): Record<string, string> {
  const files = ['toolprep.manifest.json', 'src/toolprep.gen.ts'];
  for (const folder of ['toolprep.views', 'src/toolprep.views'])
    for (const name of readdirSync(path.join(project.dir, folder))) files.push(`${folder}/${name}`);
  return Object.fromEntries(files.sort().map((file) => [file, project.read(file)]));
}

// biome-ignore lint/suspicious/noExplicitAny: a manifest read back from its JSON.
const manifestOf = (project: FixtureProject): any => JSON.parse(project.read('toolprep.manifest.json'));

let reference: FixtureProject;
beforeAll(() => {
  reference = viewsProject();
  const generate = reference.cli('generate');
  expect(generate.stderr).toBe('');
  expect(generate.status).toBe(0);
}, 60_000);
afterAll(() => reference.remove());

test('each view is one self-contained HTML document, addressed by its digest', () => {
  const manifest = manifestOf(reference);
  expect(manifest.views.map((view: { name: string }) => view.name)).toEqual(VIEWS);
  for (const view of manifest.views) {
    const html = reference.read(view.file);
    expect(view.digest).toMatch(/^[0-9a-f]{16}$/);
    expect(view).toMatchObject({
      uri: `ui://${view.name}/${view.digest}.html`,
      file: `toolprep.views/${view.name}.${view.digest}.html`,
      current: true,
    });
    expect(view.bytes).toBe(Buffer.byteLength(html));
    // Scripts and styles are inlined: nothing local is left to load.
    expect(html).toMatch(/<script type="module">/);
    expect(html).not.toMatch(/<script[^>]*\ssrc=|<link[^>]*stylesheet/);
    const module = reference.read(`src/toolprep.views/${view.name}.${view.digest}.ts`);
    expect(module).toContain(`export default ${JSON.stringify(html)};`);
  }
  expect(manifest.views.find((view: { name: string }) => view.name === 'photo_gallery')).toMatchObject({
    source: 'src/tools/gallery-view.html',
    csp: { resourceDomains: ['https://images.example-cdn.com'] },
    prefersBorder: true,
  });
  expect(reference.read(manifest.views[2].file)).toContain('https://api.open-meteo.com');
});

test('each tool names its view; the helper names its board’s view and only the app may call it', () => {
  const manifest = manifestOf(reference);
  const uriOf = (name: string) =>
    manifest.views.find((view: { name: string; current: boolean }) => view.name === name && view.current).uri;
  const viewOf = (name: string) => manifest.tools.find((tool: { name: string }) => tool.name === name).view;
  expect(viewOf('notes_board')).toEqual({ resourceUri: uriOf('notes_board'), visibility: ['model', 'app'] });
  expect(viewOf('add_note')).toEqual({ resourceUri: uriOf('notes_board'), visibility: ['app'] });
  expect(viewOf('weather_board').resourceUri).toBe(uriOf('weather_board'));
});

test("the views' code type-checks against ViewData from the generated module", () => {
  symlinkSync(
    path.join(REPO, 'node_modules/typescript'),
    path.join(reference.dir, 'node_modules/typescript'),
  );
  const tsc = spawnSync(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', '.'], {
    cwd: reference.dir,
    encoding: 'utf8',
  });
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(reference.read('src/toolprep.gen.ts')).toMatch(
    /"add_note": \{ input: ToolInput<typeof contract\d\.addNote>; result: ToolOutput<typeof contract\d\.addNote> \};/,
  );
}, 60_000);

test('a fetch of an origin the view does not declare fails the build, naming the source line', () => {
  const project = viewsProject();
  try {
    const view = project.read('src/tools/weather-view.ts');
    project.write(
      'src/tools/weather-view.ts',
      view.replace(
        'await app.connect();',
        "await fetch('https://tracker.example.org/hit');\nawait app.connect();",
      ),
    );
    const line = view.split('\n').findIndex((text) => text.startsWith('await app.connect();')) + 1;
    const generate = project.cli('generate');
    expect(generate.status).toBe(1);
    expect(generate.stderr).toContain(
      `[toolprep] src/tools/weather-view.ts:${line} tool "weather_board", view.csp.connectDomains: the view connects to https://tracker.example.org/hit, and https://tracker.example.org is not in view.csp.connectDomains`,
    );
    expect(existsSync(path.join(project.dir, 'toolprep.manifest.json'))).toBe(false);
  } finally {
    project.remove();
  }
}, 60_000);

test('check names a view that changed and its tools; generate keeps the last version readable, not current', () => {
  const project = viewsProject();
  try {
    expect(project.cli('generate').status).toBe(0);
    const before = manifestOf(project).views.find((view: { name: string }) => view.name === 'photo_gallery');
    project.write(
      'src/tools/gallery-view.css',
      project.read('src/tools/gallery-view.css').replace('8rem', '9rem'),
    );
    const check = project.cli('check');
    expect(check.status).toBe(1);
    expect(check.stdout + check.stderr).toMatch(
      new RegExp(
        `~ view photo_gallery \\(tool photo_gallery\\): ${before.digest} → [0-9a-f]{16} \\(\\d+ → \\d+ bytes, from src/tools/gallery-view.html\\)`,
      ),
    );
    expect(project.cli('generate').status).toBe(0);
    const versions = manifestOf(project).views.filter(
      (view: { name: string }) => view.name === 'photo_gallery',
    );
    expect(versions.map((view: { current: boolean }) => view.current)).toEqual([true, false]);
    expect(versions[1]).toMatchObject({ uri: before.uri, digest: before.digest });
    expect(project.read(before.file)).toBe(reference.read(before.file));
    expect(project.read('src/toolprep.gen.ts')).toContain(`"uri":"${before.uri}","current":false`);
    expect(project.cli('check').status).toBe(0);
  } finally {
    project.remove();
  }
}, 60_000);

test('a change to what the host applies alone (CSP, permissions) is a new version, and check says what changed', () => {
  const project = viewsProject();
  try {
    expect(project.cli('generate').status).toBe(0);
    type Version = { name: string; current: boolean; digest: string; bytes: number; file: string };
    const was = (manifest: { views: Version[] }, name: string) =>
      manifest.views.find((view) => view.name === name && view.current) as Version;
    const first = manifestOf(project);
    project.write(
      'src/tools/weather.ts',
      project
        .read('src/tools/weather.ts')
        .replace(
          "connectDomains: ['https://api.open-meteo.com']",
          "connectDomains: ['https://api.open-meteo.com', 'https://backup.open-meteo.com']",
        ),
    );
    project.write(
      'src/tools/notes.ts',
      project
        .read('src/tools/notes.ts')
        .replace(
          "view: './notes-view.ts',",
          "view: { entry: './notes-view.ts', permissions: ['clipboardWrite'] },",
        ),
    );
    const check = project.cli('check');
    expect(check.status).toBe(1);
    const weather = was(first, 'weather_board');
    const notes = was(first, 'notes_board');
    // The HTML is the same bytes; the version is new, since a host would apply another CSP.
    expect(check.stdout).toMatch(
      new RegExp(
        `~ view weather_board \\(tool weather_board\\): ${weather.digest} → [0-9a-f]{16} \\(${weather.bytes} → ${weather.bytes} bytes, from src/tools/weather-view.ts\\)\n      csp.connectDomains: \\+ https://backup.open-meteo.com\n`,
      ),
    );
    expect(check.stdout).toMatch(
      new RegExp(
        `~ view notes_board \\(tools add_note, notes_board\\): ${notes.digest} → [0-9a-f]{16} \\(${notes.bytes} → ${notes.bytes} bytes, from src/tools/notes-view.ts\\)\n      permissions: \\+ clipboardWrite\n`,
      ),
    );
    expect(project.cli('generate').status).toBe(0);
    const second = manifestOf(project);
    expect(was(second, 'weather_board').digest).not.toBe(weather.digest);
    expect(project.read(was(second, 'weather_board').file)).toBe(project.read(weather.file));
  } finally {
    project.remove();
  }
}, 60_000);

test('the files of a version past views.keepVersions: check names them, generate removes them and says so', () => {
  const project = viewsProject();
  try {
    project.write(
      'toolprep.config.ts',
      project
        .read('toolprep.config.ts')
        .replace("include: ['src/tools/*.ts']", "include: ['src/tools/*.ts'], views: { keepVersions: 1 }"),
    );
    expect(project.cli('generate').status).toBe(0);
    const old = manifestOf(project).views.find((view: { name: string }) => view.name === 'photo_gallery');
    const oldFiles = [old.file, `src/toolprep.views/photo_gallery.${old.digest}.ts`];
    project.write(
      'src/tools/gallery-view.css',
      project.read('src/tools/gallery-view.css').replace('8rem', '9rem'),
    );
    const rebuilt = project.cli('generate');
    expect(rebuilt.status).toBe(0);
    expect(rebuilt.stdout).toContain(`; removed ${oldFiles.join(', ')} (views no longer kept)`);
    for (const file of oldFiles) expect(existsSync(path.join(project.dir, file))).toBe(false);
    // A file of the old version left behind (a checkout that still has it): never silently kept.
    project.write(oldFiles[0] as string, reference.read(old.file));
    const check = project.cli('check');
    expect(check.status).toBe(1);
    expect(check.stdout).toContain(
      `Built views no longer kept (past views.keepVersions, or of a view that went), which \`toolprep generate\` removes:\n  - ${oldFiles[0]}\n`,
    );
    const generate = project.cli('generate');
    expect(generate.status).toBe(0);
    expect(generate.stdout).toContain(
      `the files were up to date; removed ${oldFiles[0]} (views no longer kept)`,
    );
    for (const file of oldFiles) expect(existsSync(path.join(project.dir, file))).toBe(false);
    expect(project.cli('check').status).toBe(0);
  } finally {
    project.remove();
  }
}, 60_000);

describe.each(Object.keys(bundlers) as BundlerName[])('%s', (name) => {
  let project: FixtureProject;
  beforeAll(async () => {
    project = viewsProject();
    await bundlers[name](project.dir, path.join(project.dir, 'out', name), {});
  }, 120_000);
  afterAll(() => project.remove());

  test('the plugin writes the same bytes as toolprep generate, views included', () => {
    expect(outputs(project)).toEqual(outputs(reference));
  });

  test('the bundle reads each view’s HTML through the tool set, byte for byte', () => {
    const run = spawnSync(process.execPath, [path.join(project.dir, 'out', name, 'main.js')], {
      cwd: project.dir,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    // The HTML each view's module holds is the file the build wrote beside the manifest.
    expect(JSON.parse(run.stdout)).toEqual(
      manifestOf(reference).views.map(({ uri, file }: { uri: string; file: string }) => ({
        uri,
        sha256: createHash('sha256').update(reference.read(file)).digest('hex'),
      })),
    );
  });
});
