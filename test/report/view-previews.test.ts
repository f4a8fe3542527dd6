import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Browser, launchChromium } from '../support/chromium.js';
import { copyFixture, type FixtureProject, REPO, viewsProject } from '../support/fixture-project.js';
import { needs } from '../support/services.js';
import { startViteDevServer } from '../support/vite-dev-server.js';

/**
 * The surface page previews each view (decision 0061): headless Chromium opens the page
 * `toolprep inspect --html` writes for the views fixture, opens each tool's preview, and sees the
 * view, hosted through ext-apps' own `AppBridge`, render the sample result the page sent it; the
 * notes board's call to its app-only tool is answered with that tool's sample output; the view's
 * CSP refuses an undeclared origin, and the log under the view says so. The same through Vite's
 * dev server at /__toolprep. Screenshots
 * go to test-artifacts/view-previews/. Without ext-apps in the project, the page and the command
 * say the views are not previewed. Skipped without Chromium (under CI, failed).
 */

const chromium = needs('chromium');
const ARTIFACTS = path.join(REPO, 'test-artifacts/view-previews');

interface Sample {
  readonly input?: Record<string, unknown>;
  readonly result?: { readonly structuredContent: Record<string, unknown> };
}
type Samples = Record<string, Sample>;

let browser: Browser;
let project: FixtureProject;
let page: string;
let written: ReturnType<FixtureProject['cli']>;

beforeAll(async () => {
  project = viewsProject();
  written = project.cli('inspect', '--html', 'report.html');
  page = path.join(project.dir, 'report.html');
  if (!chromium.present) return;
  browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  project?.remove();
});

test('inspect --html says the page previews the views', () => {
  expect(written.stderr).toBe('');
  expect(written.status).toBe(0);
  expect(written.stdout).toContain(
    "[toolprep] inspect: the page previews 3 views (notes_board, photo_gallery, weather_board) through ext-apps' AppBridge, with sample data",
  );
  // The bridge and the views are packed once, not repeated per tool.
  const text = readFileSync(page, 'utf8');
  expect(text.match(/id="toolprep-previews"/g)).toHaveLength(1);
  expect(statSync(page).size).toBeLessThan(1_000_000);
});

/** The structured content of a tool's sample result. */
function resultOf<Result>(samples: Samples, tool: string): Result {
  const result = samples[tool]?.result;
  if (!result) throw new Error(`the page has no sample result for ${tool}`);
  return result.structuredContent as Result;
}

/** What each view renders from its result, read from the samples the page sends. */
const cases: { tool: string; shows: (samples: Samples) => string[] }[] = [
  {
    tool: 'weather_board',
    shows: (samples) => [`Weather in ${resultOf<{ city: string }>(samples, 'weather_board').city}`],
  },
  {
    tool: 'photo_gallery',
    shows: (samples) =>
      resultOf<{ photos: { caption: string }[] }>(samples, 'photo_gallery').photos.map(
        (photo) => photo.caption,
      ),
  },
  {
    tool: 'notes_board',
    shows: (samples) => [
      ...resultOf<{ notes: { text: string }[] }>(samples, 'notes_board').notes.map((note) => note.text),
      resultOf<{ note: { text: string } }>(samples, 'add_note').note.text,
    ],
  },
];

/** Opens a tool's preview on the page in `tab` and checks that its view rendered the samples. */
async function expectPreviewRenders(tab: Page, { tool, shows }: (typeof cases)[number]): Promise<void> {
  const samples = JSON.parse((await tab.locator('#toolprep-previews').textContent()) ?? '{}')
    .samples as Samples;
  const preview = tab.locator(`#tool-${tool} details.preview`);
  // Closed until opened: no view runs before.
  expect(await tab.locator('iframe').count()).toBe(0);
  await preview.locator('summary').click();
  await tab.locator(`#tool-${tool} details.preview[data-state="shown"]`).waitFor();
  const view = tab.frameLocator(`#tool-${tool} iframe`);
  const expected = shows(samples);
  const rendered = view.locator(tool === 'photo_gallery' ? '#photos' : '#root');
  await expect.poll(() => rendered.textContent()).toContain(expected.at(-1));
  const text = (await rendered.textContent()) ?? '';
  for (const shown of expected) expect(text).toContain(shown);
  const log = preview.locator('.preview-log');
  expect(await log.textContent()).toContain(`sent a sample input: ${JSON.stringify(samples[tool]?.input)}`);
  if (tool === 'notes_board') {
    // The app-only helper answered from its sample output, and the view showed the answer.
    expect(await view.locator('#root p').count()).toBe(expected.length);
    await expect
      .poll(() => log.locator('li.call').allTextContents())
      .toEqual([
        expect.stringMatching(
          /^the view called add_note with \{.*\}: answered with a sample of its output, /,
        ),
      ]);
  }
}

chromium.describe('each view previewed in Chromium through ext-apps’ AppBridge', () => {
  test.each(cases)('$tool: its view renders the sample result', async (previewed) => {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    try {
      await tab.goto(`file://${page}`);
      await expectPreviewRenders(tab, previewed);
      // The view's CSP is in force, and what it refuses is shown under the view.
      const frame = tab.frameLocator(`#tool-${previewed.tool} iframe`);
      const fetched = await frame.locator('body').evaluate(() =>
        fetch('https://undeclared.example/').then(
          () => 'fetched',
          () => 'refused',
        ),
      );
      expect(fetched).toBe('refused');
      await expect
        .poll(() => tab.locator(`#tool-${previewed.tool} .preview-log li.csp`).allTextContents())
        .toContainEqual("the view's CSP refused connect-src https://undeclared.example/");
      await tab.screenshot({ path: path.join(ARTIFACTS, `${previewed.tool}.png`) });
      await tab.locator(`#tool-${previewed.tool} details.preview`).screenshot({
        path: path.join(ARTIFACTS, `${previewed.tool}-preview.png`),
      });
      expect(errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  test('Vite dev server: /__toolprep previews the views too', async () => {
    const server = await startViteDevServer(project.dir);
    const tab = await browser.newPage();
    try {
      // The first page waits for the first generation.
      await expect
        .poll(async () => (await tab.goto(`${server.url}/__toolprep`))?.status(), {
          timeout: 30_000,
        })
        .toBe(200);
      await expectPreviewRenders(tab, cases[2] as (typeof cases)[number]);
    } finally {
      await tab.close();
      await server.close();
    }
  });
});

test('a project without ext-apps: the page and the command say the views are not previewed', () => {
  // The views fixture with views that need no ext-apps, and none installed.
  const bare = copyFixture('views');
  try {
    for (const file of ['weather-view.ts', 'notes-view.ts', 'gallery-script.ts'])
      bare.write(`src/tools/${file}`, "document.body.append('a view');\n");
    rmSync(path.join(bare.dir, 'node_modules/@modelcontextprotocol'), { recursive: true, force: true });
    const result = bare.cli('inspect', '--html', 'report.html');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /\[toolprep\] inspect: the views \(notes_board, photo_gallery, weather_board\) are not previewed on the page: @modelcontextprotocol\/ext-apps\/app-bridge cannot be found from .*: install @modelcontextprotocol\/ext-apps/,
    );
    const text = bare.read('report.html');
    expect(text).toContain('No preview of the view <code>ui://weather_board/');
    expect(text).not.toContain('id="toolprep-previews"');
  } finally {
    bare.remove();
  }
});
