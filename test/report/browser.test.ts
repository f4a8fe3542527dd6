import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Manifest } from '../../src/manifest/manifest.js';
import { type Browser, launchChromium } from '../support/chromium.js';
import { copyFixture, type FixtureProject, REPO } from '../support/fixture-project.js';
import { needs } from '../support/services.js';
import { startViteDevServer } from '../support/vite-dev-server.js';

/**
 * The surface report in a real browser: headless Chromium (Debian's package, driven by
 * playwright-core) opens the page `toolprep inspect --html` writes for a fixture project, finds
 * each tool, reads its token figures, follows a change to its tool and keeps a screenshot in
 * test-artifacts/; then Vite's dev server serves the page live, and the browser sees it follow an
 * edited contract. Without Chromium (`apt-get install chromium`; `.ci/run` installs it), skipped
 * (under CI, failed).
 */
const ARTIFACTS = path.join(REPO, 'test-artifacts');
const chromium = needs('chromium');

let browser: Browser;
let fixture: FixtureProject;
beforeAll(async () => {
  if (!chromium.present) return;
  browser = await launchChromium();
  fixture = copyFixture('hidden-constraints');
  fixture.write('toolprep.config.ts', 'export default { budget: { tool: 2000, total: 8000 } };\n');
  expect(fixture.cli('generate').status).toBe(0);
  mkdirSync(ARTIFACTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  fixture?.remove();
});

chromium.describe('the surface report in Chromium', () => {
  test('inspect --html: every tool, its tokens, the hidden constraints, and a change followed to its tool', async () => {
    // A change to a committed tool: a new field on search_notes.
    fixture.write(
      'src/tools/notes.ts',
      fixture
        .read('src/tools/notes.ts')
        .replace(
          'query: z.string().min(1).max(200),',
          'query: z.string().min(1).max(200),\n    exact: z.boolean().optional(),',
        ),
    );
    const written = fixture.cli('inspect', '--html', 'report.html');
    expect(written.stdout).toMatch(/\[toolprep\] inspect: wrote .*report\.html \(5 tools; changes since /);
    const page = await browser.newPage();
    await page.goto(`file://${path.join(fixture.dir, 'report.html')}`);
    // The surface as generated now (the page's), not as committed.
    const manifest = JSON.parse(fixture.cli('inspect', '--json').stdout) as {
      tools: { name: string; size: { tokens: number } }[];
    };
    // Each tool, with the token figure the page shows beside its bar.
    const shown = await page.$$eval('article.tool', (articles) =>
      articles.map((article) => [
        article.getAttribute('data-tool'),
        Number(article.getAttribute('data-tokens')),
      ]),
    );
    expect(shown).toEqual(manifest.tools.map((tool) => [tool.name, tool.size.tokens]));
    const bars = await page.$$eval('#tokens td.tokens', (cells) =>
      cells.map((cell) => Number(cell.getAttribute('data-tokens'))),
    );
    expect(bars).toEqual(shown.map(([, tokens]) => tokens));
    expect(await page.textContent('#totals')).toMatch(/\d+ tokens \(o200k_base\) in 5 tools/);
    expect(await page.textContent('#hidden h2')).toBe('Hidden constraints (6)');

    // The change since the committed manifest, followed to its tool.
    const change = page.locator('#changes a', { hasText: 'tool search_notes' });
    expect(await page.textContent('#changes')).toContain('+ field exact added (optional, boolean)');
    await change.click();
    expect(new URL(page.url()).hash).toBe('#tool-search_notes');
    expect(await page.locator('#tool-search_notes').isVisible()).toBe(true);
    const screenshot = path.join(ARTIFACTS, 'surface-report.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(existsSync(screenshot)).toBe(true);
    await page.close();
  });

  test('inspect --html at 178 tools: grouped with totals, filtered, ordered by size', async () => {
    const large = copyFixture('large-set');
    const page = await browser.newPage();
    try {
      expect(large.cli('inspect', '--html', 'report.html').status).toBe(0);
      const manifest = JSON.parse(large.cli('inspect', '--json').stdout) as Manifest;
      await page.goto(`file://${path.join(large.dir, 'report.html')}`);
      // Each group with its tools, its total the sum of theirs, as the manifest records it.
      const groups = await page.$$eval('#tokens tbody', (bodies) =>
        bodies.map((body) => ({
          name: body.getAttribute('data-group'),
          total: Number(body.querySelector('.group-tokens')?.getAttribute('data-tokens')),
          tools: [...body.querySelectorAll('tr.tool')].map((row) => [
            row.getAttribute('data-tool'),
            Number(row.getAttribute('data-tokens')),
          ]),
        })),
      );
      expect(
        groups.map(({ name, total, tools }) => ({ name, total, tools: tools.map(([tool]) => tool) })),
      ).toEqual(
        (manifest.groups ?? []).map((group) => ({
          name: group.name,
          total: group.size.tokens,
          tools: group.tools,
        })),
      );
      for (const group of groups)
        expect(group.total).toBe(group.tools.reduce((sum, [, tokens]) => sum + Number(tokens), 0));
      // Turn one per strategy, as the manifest has it.
      const strategies = await page.$$eval('#turn-one tr', (rows) =>
        rows.map((row) => [
          row.getAttribute('data-strategy'),
          Number(row.querySelector('.tokens')?.getAttribute('data-tokens')),
        ]),
      );
      expect(Object.fromEntries(strategies)).toEqual(
        Object.fromEntries(
          Object.entries(manifest.totals.turnOne).map(([name, size]) => [name, size.tokens]),
        ),
      );
      expect(await page.locator('#repeated tr').count()).toBeGreaterThan(1);

      // The filter: only the tools whose name, description or group hold every word typed.
      const pageHeight = async () => (await page.locator('body').boundingBox())?.height ?? 0;
      const height = await pageHeight();
      await page.fill('#filter', 'deployment');
      const matching = manifest.tools.filter((tool) =>
        [tool.name, tool.description, ...(tool.groups ?? [])].join(' ').toLowerCase().includes('deployment'),
      );
      expect(matching.length).toBeGreaterThan(0);
      expect(matching.length).toBeLessThan(manifest.tools.length);
      const visible = async (selector: string) =>
        page.$$eval(selector, (elements) =>
          elements
            .filter((element) => !element.closest('[hidden]'))
            .map((element) => element.getAttribute('data-tool')),
        );
      expect(new Set(await visible('#tokens tr.tool'))).toEqual(new Set(matching.map((tool) => tool.name)));
      expect(await visible('article.tool')).toEqual(matching.map((tool) => tool.name));
      expect(await page.textContent('#shown')).toBe(`${matching.length} of 178 tools`);
      expect(await pageHeight()).toBeLessThan(height);
      await page.screenshot({
        path: path.join(ARTIFACTS, 'surface-report-large-filtered.png'),
        fullPage: true,
      });

      // The order: largest first, the groups by their totals and the tools in each.
      await page.fill('#filter', '');
      await page.selectOption('#sort', 'size');
      const ordered = await page.$$eval('#tokens tbody', (bodies) =>
        bodies.map((body) => ({
          total: Number(body.getAttribute('data-tokens')),
          tools: [...body.querySelectorAll('tr.tool')].map((row) => Number(row.getAttribute('data-tokens'))),
        })),
      );
      const nonIncreasing = (values: readonly number[]) =>
        values.every((value, index) => index === 0 || value <= (values[index - 1] ?? value));
      expect(nonIncreasing(ordered.map((group) => group.total))).toBe(true);
      for (const group of ordered) expect(nonIncreasing(group.tools)).toBe(true);
      expect(ordered.flatMap((group) => group.tools)).toHaveLength(
        groups.flatMap((group) => group.tools).length,
      );
      // A link to a tool opens its section.
      await page.locator('#tokens a', { hasText: /^get_deployment$/ }).click();
      expect(await page.locator('#tool-get_deployment details.body').getAttribute('open')).toBe('');
    } finally {
      await page.close();
      large.remove();
    }
  }, 180_000);

  test('Vite dev server: /__toolprep follows an edited contract', async () => {
    execFileSync('git', ['init', '-q'], { cwd: fixture.dir });
    execFileSync('git', ['add', '-A'], { cwd: fixture.dir });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'tools'], {
      cwd: fixture.dir,
    });
    const server = await startViteDevServer(fixture.dir);
    const page = await browser.newPage();
    try {
      const url = `${server.url}/__toolprep`;
      // The first page waits for the first generation.
      for (let tries = 0; tries < 100; tries++) {
        const response = await page.goto(url);
        if (response?.status() === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await page.textContent('#tool-open_note .description')).toBe('Open a note.');
      fixture.write(
        'src/tools/notes.ts',
        fixture.read('src/tools/notes.ts').replace('/** Open a note. */', '/** Open one note. */'),
      );
      await page
        .locator('#tool-open_note .description', { hasText: 'Open one note.' })
        .waitFor({ timeout: 20_000 });
      expect(await page.textContent('#changes')).toContain('~ tool open_note');
      await page.screenshot({ path: path.join(ARTIFACTS, 'surface-report-live.png') });
    } finally {
      await page.close();
      await server.close();
    }
  });
});
