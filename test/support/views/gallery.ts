/// <reference lib="dom" />
import './jitless.js';
import { App } from '@modelcontextprotocol/ext-apps';

/**
 * The gallery view of test/surfaces/mcp-views-host.test.ts: the images of the tool's result, which
 * come from the CDN its CSP declares (`resourceDomains`).
 */

const root = document.getElementById('root') as HTMLElement;
const app = new App({ name: 'gallery', version: '1.0.0' });
app.ontoolresult = async ({ structuredContent }) => {
  const { tag, images } = structuredContent as { tag: string; images: string[] };
  const heading = root.appendChild(document.createElement('h1'));
  heading.textContent = `#${tag}`;
  await Promise.all(
    images.map(
      (src) =>
        new Promise((resolve, reject) => {
          const image = root.appendChild(document.createElement('img'));
          image.onload = resolve;
          image.onerror = () => reject(new Error(`${src} did not load`));
          image.src = src;
        }),
    ),
  );
  document.body.dataset.state = 'done';
};
await app.connect();
