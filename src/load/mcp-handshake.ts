import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PreparedHandshake } from '../manifest/tool-set.js';
import { fileStamp } from '../shared/build/file-stamp.js';

/** The last capture, by what it was made from: kept by a long-lived generator between runs. */
export type HandshakeMemo = { key: string; handshake: PreparedHandshake } | undefined;

export type HandshakeCapture =
  | { readonly handshake?: PreparedHandshake; readonly memo: HandshakeMemo }
  | { readonly failure: string; readonly memo: HandshakeMemo };

const CACHE_FILE = 'mcp-handshake.json';

/**
 * What the project's own MCP server answers first: `toolprep/mcp/server` as the project resolves
 * it, on the SDK that module loads, run once in the build process (`captureHandshake`). Nothing
 * when the project has no MCP SDK. The SDK takes about 170 ms to import, so the capture is kept
 * under the cache directory by the files and versions it came from, and made again only when
 * one of them changed.
 */
export async function captureProjectHandshake(
  root: string,
  cacheDir: string | undefined,
  memo: HandshakeMemo,
): Promise<HandshakeCapture> {
  const located = locate(root);
  if (!located) return { memo };
  const { serverModule, key } = located;
  if (memo?.key === key) return { handshake: memo.handshake, memo };
  const cached = cacheDir ? readCache(path.join(cacheDir, CACHE_FILE), key) : undefined;
  if (cached) return { handshake: cached, memo: { key, handshake: cached } };
  let handshake: PreparedHandshake;
  try {
    const { captureHandshake } = (await import(pathToFileURL(serverModule).href)) as {
      captureHandshake?: () => Promise<PreparedHandshake>;
    };
    if (!captureHandshake) return { memo };
    handshake = await captureHandshake();
  } catch (error) {
    return { failure: (error as Error).message, memo };
  }
  if (cacheDir) {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(path.join(cacheDir, CACHE_FILE), `${JSON.stringify({ key, handshake })}\n`);
  }
  return { handshake, memo: { key, handshake } };
}

/** What identifies the capture the project's MCP SDK makes, or none without the SDK. */
export function handshakeKey(root: string): string | undefined {
  return locate(root)?.key;
}

/** The project's `toolprep/mcp/server` and what identifies the capture it makes, if it has the SDK. */
function locate(root: string): { serverModule: string; key: string } | undefined {
  try {
    const serverModule = realpathSync(
      createRequire(path.join(root, 'package.json')).resolve('toolprep/mcp/server'),
    );
    const sdkEntry = createRequire(serverModule).resolve('@modelcontextprotocol/sdk/server/index.js');
    const sdk = packageOf(sdkEntry, '@modelcontextprotocol/sdk');
    if (!sdk) return undefined;
    return {
      serverModule,
      key: JSON.stringify([serverModule, fileStamp(serverModule), sdk.directory, sdk.version]),
    };
  } catch {
    return undefined;
  }
}

/** The named package that holds `file`: its folder and version. */
function packageOf(file: string, name: string): { directory: string; version: string } | undefined {
  for (
    let directory = path.dirname(file);
    path.dirname(directory) !== directory;
    directory = path.dirname(directory)
  ) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === name && manifest.version) return { directory, version: manifest.version };
    } catch {
      // No package.json here: look further up.
    }
  }
  return undefined;
}

function readCache(file: string, key: string): PreparedHandshake | undefined {
  try {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as { key?: string; handshake?: PreparedHandshake };
    return cached.key === key ? cached.handshake : undefined;
  } catch {
    return undefined;
  }
}
