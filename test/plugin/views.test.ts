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
    expect(view.digest).toBe(createHash('sha256').update(html).digest('hex').slice(0, 16));
    expect(view).toMatchObject({ uri: `ui://${view.name}/${view.digest}.html`, current: true });
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

test('check names a view that changed; generate keeps the last version readable, not current', () => {
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
        `~ view photo_gallery: ${before.digest} → [0-9a-f]{16} \\(\\d+ → \\d+ bytes, from src/tools/gallery-view.html\\)`,
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
    expect(JSON.parse(run.stdout)).toEqual(
      manifestOf(reference).views.map(({ uri, digest }: { uri: string; digest: string }) => ({
        uri,
        digest,
      })),
    );
  });
});
