import { createRequire } from 'node:module';
import path from 'node:path';
import type { BuildResult } from 'esbuild';
import { esbuildFailures } from './esbuild-failures.js';

/** The module a host of MCP Apps views is built on, from the project's own ext-apps. */
const APP_BRIDGE = '@modelcontextprotocol/ext-apps/app-bridge';

/** ext-apps' host side bundled for a browser, or why there is none. */
export type HostBridge =
  | { readonly ok: true; readonly script: string }
  | { readonly ok: false; readonly reason: string };

/** One bundle per copy of ext-apps: a dev server makes the page again on every regeneration. */
const bundles = new Map<string, Promise<HostBridge>>();

/**
 * ext-apps' `AppBridge` and `PostMessageTransport`, resolved from the project at `root` (its own
 * ext-apps, the one its views are written against) and bundled with esbuild into one browser
 * module, so that the surface page hosts views through the real bridge with no network. A project
 * without ext-apps gets the reason, for the page and the command to say.
 */
export function bundleHostBridge(root: string): Promise<HostBridge> {
  let entry: string;
  try {
    entry = createRequire(path.join(root, 'package.json')).resolve(APP_BRIDGE);
  } catch {
    return Promise.resolve({
      ok: false,
      reason: `${APP_BRIDGE} cannot be found from ${root}: install @modelcontextprotocol/ext-apps (npm install -D @modelcontextprotocol/ext-apps) to preview the views`,
    });
  }
  let bundle = bundles.get(entry);
  if (!bundle) {
    bundle = bundleModule(entry);
    bundles.set(entry, bundle);
  }
  return bundle;
}

async function bundleModule(entry: string): Promise<HostBridge> {
  const { build } = await import('esbuild');
  let result: BuildResult<{ write: false }>;
  try {
    result = await build({
      stdin: {
        contents: `export { AppBridge, PostMessageTransport, buildAllowAttribute } from ${JSON.stringify(entry)};`,
        resolveDir: path.dirname(entry),
        loader: 'js',
      },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      legalComments: 'none',
      charset: 'utf8',
      define: { 'process.env.NODE_ENV': '"production"' },
      write: false,
      logLevel: 'silent',
    });
  } catch (error) {
    const [first] = esbuildFailures(error);
    if (!first) throw error;
    return { ok: false, reason: `${APP_BRIDGE} could not be bundled for the page: ${first.message}` };
  }
  return { ok: true, script: result.outputFiles[0]?.text ?? '' };
}
