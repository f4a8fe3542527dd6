import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGeneratorContext, type GeneratorContext } from '../../src/generate/context.js';
import { type FixtureProject, viewsProject } from '../support/fixture-project.js';

/**
 * A view is served as one `ui://` resource, where a relative URL resolves to nothing: each one its
 * HTML names besides the scripts and stylesheets the build bundles is inlined as a `data:` URL when
 * it is an image or font of the project, and refused otherwise, naming the file, line and
 * attribute (decision 0074). Never left in place.
 */
let project: FixtureProject;
let generator: GeneratorContext;
let markup: string;
const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>';
const LOGO_URL = `data:image/svg+xml;base64,${Buffer.from(LOGO).toString('base64')}`;
const HTML = 'src/tools/gallery-view.html';

beforeAll(() => {
  project = viewsProject();
  project.write('src/tools/logo.svg', LOGO);
  project.write('src/tools/notes.json', '{}');
  markup = project.read(HTML);
  generator = createGeneratorContext({ root: project.dir, write: false });
});
afterAll(() => project.remove());

/** Runs the generation with the gallery's `<body>` opening with these lines. */
async function runWith(lines: string): Promise<Awaited<ReturnType<GeneratorContext['run']>>> {
  project.write(HTML, markup.replace('<body>\n', `<body>\n${lines}\n`));
  return generator.run();
}

test('images and fonts the markup names are inlined; scripts, styles, links elsewhere and fragments stay', async () => {
  const run = await runWith(
    [
      '<img src="./logo.svg" alt=""><link rel="icon" href=logo.svg>',
      '<img srcset="./logo.svg 1x, ./logo.svg 2x"><div style="background: url(\'./logo.svg\')"></div>',
      '<style>.a { background: url(./logo.svg) }</style><a href="#photos">top</a>',
      '<!-- <img src="./gone.png"> --><img alt="not src=./gone.png" src=\'./logo.svg\'>',
    ].join('\n'),
  );
  expect(run.problems).toEqual([]);
  const view = run.generation?.files.find((file) =>
    /^toolprep\.views\/photo_gallery\.\w+\.html$/.test(file.path),
  );
  const html = view?.text as string;
  expect(html.split(LOGO_URL).length - 1).toBe(7);
  expect(html).not.toContain('./logo.svg');
  expect(html).toContain('<link rel="icon" href=data:image/svg+xml;base64,');
  expect(html).toContain('<a href="#photos">top</a>');
  expect(html).toContain(`<!-- <img src="./gone.png"> --><img alt="not src=./gone.png" src='${LOGO_URL}'>`);
  expect(html).toContain('src="https://images.example-cdn.com/logo.svg"');
  // The stylesheet and script the page links are bundled and inlined as before.
  expect(html).not.toMatch(/gallery-view\.css|gallery-script\.ts/);
  // The image is an input of the view: changing it rebuilds the view.
  expect(run.generation?.viewInputs).toContain('src/tools/logo.svg');
});

describe('a relative URL that cannot be inlined is an error naming the file, line and attribute', () => {
  test.each<[string, string, string]>([
    ['<img src="./missing.png">', '<img src> "./missing.png"', 'it cannot be read (ENOENT)'],
    ['<a href="./other.html">more</a>', '<a href> "./other.html"', 'images and fonts only'],
    ['<object data=notes.json></object>', '<object data> "notes.json"', 'not ".json"'],
    ['<img src="/logo.svg">', '<img src> "/logo.svg"', 'a path on the host'],
    ['<svg><use href="./logo.svg#icon"/></svg>', '<use href> "./logo.svg#icon"', 'a part of a file'],
    ['<p style="background: url(./missing.png)"></p>', '<p style> url() "./missing.png"', 'cannot be read'],
    ['<style>@import "./more.css";</style>', '<style> @import "./more.css"', 'not ".css"'],
    ['<img srcset="./logo.svg 1x,./missing.png 2x">', '<img srcset> "./missing.png"', 'cannot be read'],
    ['<img src="../../../outside.png">', '<img src> "../../../outside.png"', 'outside the project'],
    [
      '<img src="..%2F..%2F..%2Foutside.png">',
      '<img src> "..%2F..%2F..%2Foutside.png"',
      'outside the project',
    ],
    [
      '<svg><image xlink:href="./missing.png"/></svg>',
      '<image xlink:href> "./missing.png"',
      'cannot be read',
    ],
  ])('%s', async (line, named, reason) => {
    const run = await runWith(`<p>\n${line}`);
    expect(run.problems).toHaveLength(1);
    expect(run.problems[0]).toMatchObject({
      severity: 'error',
      code: 'view-build-failed',
      tool: 'photo_gallery',
      file: HTML,
      line: markup.slice(0, markup.indexOf('<body>')).split('\n').length + 2,
    });
    expect(run.problems[0]?.message).toContain(`${named} is relative, which resolves to nothing`);
    expect(run.problems[0]?.message).toContain(reason);
  });
});
