import { symlinkSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serveHttp } from 'toolprep/mcp';
import type { ToolRuntime } from 'toolprep/runtime';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { copyFixture, type FixtureProject, REPO } from '../support/fixture-project.js';

/**
 * The views fixture (fixtures/views: a view that fetches a declared origin, one that loads images
 * from a CDN, one whose helper tool is app-only), built by the CLI and served by the stock HTTP
 * server on both eras, read with the official SDK v2 and v1 clients (decision 0058): each view
 * listed and read as the build wrote it, with the manifest's CSP on the entry and the content.
 */

const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';
const UI_CAPABILITIES = { extensions: { [UI]: { mimeTypes: [MIME] } } };
const info = { name: 'views-fixture', version: '1.0.0' };

interface ManifestView {
  readonly uri: string;
  readonly name: string;
  readonly digest: string;
  readonly file: string;
  readonly csp: object;
  readonly prefersBorder?: boolean;
}

let project: FixtureProject;
let views: readonly ManifestView[];
const urls: Record<string, URL> = {};
const closers: (() => unknown)[] = [];

beforeAll(async () => {
  project = copyFixture('views');
  // The views import ext-apps, which the build bundles into each one.
  symlinkSync(
    path.join(REPO, 'node_modules/@modelcontextprotocol'),
    path.join(project.dir, 'node_modules/@modelcontextprotocol'),
    'dir',
  );
  const generated = project.cli('generate');
  expect(generated.status, generated.stderr).toBe(0);
  views = (JSON.parse(project.read('toolprep.manifest.json')) as { views: ManifestView[] }).views;
  const { runtime } = (await import(path.join(project.dir, 'src/server.ts'))) as { runtime: ToolRuntime };
  for (const [name, options] of Object.entries({ stateless: {}, sessions: { sessions: true } })) {
    const server = await serveHttp(runtime, info, 0, options);
    closers.push(
      () => server.closeAllConnections(),
      () => server.close(),
    );
    urls[name] = new URL(`http://localhost:${(server.address() as AddressInfo).port}/mcp`);
  }
}, 120_000);
afterAll(async () => {
  for (const close of closers) await close();
  project?.remove();
});

interface Reader {
  listTools(): Promise<{ tools: { name: string; _meta?: Record<string, unknown> }[] }>;
  listResources(): Promise<{ resources: { uri: string; [key: string]: unknown }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: Record<string, unknown>[] }>;
  close(): Promise<void>;
}

const clients: Record<string, (capabilities: object) => Promise<Reader>> = {
  '2026-07-28, SDK v2': async (capabilities) => {
    const client = new Client(info, { capabilities, versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(urls.stateless as URL));
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    return client;
  },
  '2025 session, SDK v1': async (capabilities) => {
    const client = new ClientV1(info, { capabilities });
    await client.connect(new TransportV1(urls.sessions as URL));
    return client;
  },
};

test.each(Object.entries(clients))(
  '%s: each view listed and read as built, with its CSP',
  async (_era, connect) => {
    const client = await connect(UI_CAPABILITIES);
    try {
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).toEqual(views.map((view) => view.uri));
      for (const view of views) {
        const ui = { csp: view.csp, ...(view.prefersBorder ? { prefersBorder: true } : {}) };
        expect(resources.find((resource) => resource.uri === view.uri)).toMatchObject({
          mimeType: MIME,
          _meta: { ui },
        });
        const { contents } = await client.readResource({ uri: view.uri });
        expect(contents).toEqual([
          { uri: view.uri, mimeType: MIME, text: project.read(view.file), _meta: { ui, etag: view.digest } },
        ]);
      }
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === 'add_note')?._meta?.ui).toEqual({
        resourceUri: views.find((view) => view.name === 'notes_board')?.uri,
        visibility: ['app'],
      });
    } finally {
      await client.close();
    }
  },
);

test.each(Object.entries(clients))(
  '%s, no ui capability: no view links, no app-only tool',
  async (_era, connect) => {
    const client = await connect({});
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'notes_board',
        'photo_gallery',
        'weather_board',
      ]);
      for (const tool of tools) expect(tool._meta ?? {}).not.toHaveProperty('ui');
    } finally {
      await client.close();
    }
  },
);
