import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { build } from 'esbuild';
import { createMcpHttpHandler } from 'toolprep/mcp';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Browser, launchChromium } from '../support/chromium.js';
import { REPO } from '../support/fixture-project.js';
import { closeAll, listenOnLoopback } from '../support/loopback.js';
import { needs } from '../support/services.js';
import type { ViewHtml } from '../support/view-tool-set.js';
import { viewRuntime } from '../support/view-tool-set.js';
import type { ViewsHost } from '../support/views-host-page.js';

/**
 * A real host renders toolprep's views (decision 0058): headless Chromium opens a host page built
 * on ext-apps' own `AppBridge` (test/support/views-host-page.ts), which reads each view from
 * toolprep's server over HTTP with the official SDK v2 client, renders it in a sandboxed iframe
 * under the CSP its `_meta.ui` declares, and delivers the tool's input and result. Each view, built
 * here with ext-apps' `App`, renders them: the forecast fetches its declared API origin, the
 * gallery loads an image from its declared CDN, the to-do list calls its app-only tool through the
 * host. The browser reports no CSP violation, and refuses (and reports) a fetch of an origin the
 * view did not declare, so the CSP is in force. Screenshots go to test-artifacts/views-host/.
 * Skipped without Chromium (under CI, failed).
 */

const chromium = needs('chromium');
const ARTIFACTS = path.join(REPO, 'test-artifacts/views-host');
// A 1×1 PNG, the CDN's one picture.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let browser: Browser;
let hostPage: string;
let mcpUrl: string;
let cdnOrigin: string;
const servers: Server[] = [];
/** What the browser said in any frame: CSP violations are reported there. */
const consoleErrors: string[] = [];

const listen = async (server: Server): Promise<string> =>
  `http://127.0.0.1:${await listenOnLoopback(server, servers)}`;

/** A script bundled for the browser, as one module. */
async function bundle(entry: string, define: Record<string, string> = {}): Promise<string> {
  const built = await build({
    entryPoints: [path.join(REPO, entry)],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    define,
    logLevel: 'warning',
  });
  return built.outputFiles[0]?.text ?? '';
}

/** A view as the build writes one: a single HTML document, its script inline. */
async function viewHtml(name: string, define: Record<string, string> = {}): Promise<string> {
  const script = (await bundle(`test/support/views/${name}.ts`, define)).replace(/<\/script/gi, '<\\/script');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${name}</title></head><body><main id="root"></main><script type="module">${script}</script></body></html>`;
}

beforeAll(async () => {
  if (!chromium.present) return;
  // The origins the views use, each declared in its view's CSP.
  const api = await listen(
    createServer((_request, response) =>
      response
        .writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' })
        .end('none'),
    ),
  );
  const cdn = await listen(
    createServer((_request, response) => response.writeHead(200, { 'content-type': 'image/png' }).end(PNG)),
  );
  cdnOrigin = cdn;
  const html: ViewHtml = {
    forecast: await viewHtml('forecast', { API_ORIGIN: JSON.stringify(api) }),
    gallery: await viewHtml('gallery'),
    todo: await viewHtml('todo'),
  };
  const hostScript = await bundle('test/support/views-host-page.ts');
  hostPage = await listen(
    createServer((request, response) => {
      if (request.url === '/host.js')
        response.writeHead(200, { 'content-type': 'text/javascript' }).end(hostScript);
      else
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><title>host</title><script type="module" src="/host.js"></script>');
    }),
  );
  const handle = createMcpHttpHandler(
    viewRuntime(html, { api, cdn }),
    { name: 'views', version: '1.0.0' },
    { allowedOrigins: [hostPage] },
  );
  const mcpServer = createServer((request, response) => void handle(request, response));
  mcpUrl = `${(await listen(mcpServer)).replace('127.0.0.1', 'localhost')}/mcp`;
  browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  closeAll(servers);
});

const cases = [
  { tool: 'weather', args: { city: 'Lyon' }, shows: ['City: Lyon', 'Lyon: 21 °C', 'Alerts: none'] },
  { tool: 'gallery', args: { tag: 'cats' }, shows: ['#cats'] },
  { tool: 'todo_list', args: {}, shows: ['water the plants', 'added by the view'] },
];

chromium.describe('a host built on ext-apps’ AppBridge renders each view', () => {
  test.each(cases)('$tool: its view renders the input and result', async ({ tool, args, shows }) => {
    const tab = await browser.newPage();
    tab.on('console', (message) => {
      if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text()))
        consoleErrors.push(message.text());
    });
    try {
      await tab.goto(hostPage);
      await tab.waitForFunction(() => 'host' in globalThis);
      const shown = await tab.evaluate(
        ([name, url, input]) => (globalThis as unknown as { host: ViewsHost }).host.show(url, name, input),
        [tool, mcpUrl, args] as const,
      );
      expect(shown.uri).toMatch(/^ui:\/\/\w+\/[0-9a-f]{16}\.html$/);
      const view = tab.frameLocator('iframe');
      await view.locator('body[data-state="done"]').waitFor();
      const text = (await view.locator('#root').textContent()) ?? '';
      for (const shownText of shows) expect(text).toContain(shownText);
      if (tool === 'gallery')
        expect(await view.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1);
      if (tool === 'todo_list')
        expect(await tab.evaluate(() => (globalThis as unknown as { host: ViewsHost }).host.calls())).toEqual(
          { called: ['todo_add'], refused: [] },
        );
      await tab.screenshot({ path: path.join(ARTIFACTS, `${tool}.png`) });
      expect(consoleErrors).toEqual([]);
      // The CSP is in force: an origin the view did not declare for connect-src is refused, and reported.
      const undeclared = await view.locator('body').evaluate(
        (_body, url) =>
          fetch(url).then(
            () => 'fetched',
            () => 'refused',
          ),
        `${cdnOrigin}/undeclared`,
      );
      expect(undeclared).toBe('refused');
      await expect
        .poll(() => consoleErrors)
        .toContainEqual(expect.stringContaining('CSP violation: connect-src'));
      consoleErrors.length = 0;
    } finally {
      await tab.close();
    }
  });
});
