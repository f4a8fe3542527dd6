import { invalidCursor } from '../service/tool-service.js';
import {
  type ReadView,
  unknownResource,
  VIEW_MIME_TYPE,
  VIEW_READ_TTL_MS,
  type ViewService,
} from '../service/views.js';
import type { WireError } from '../wire/jsonrpc.js';

/**
 * The views (MCP Apps) on a server of the SDK (v1 and v2 alike), beside the resources the user
 * registers on it. On an `McpServer`, through its public `registerResource`: each current version
 * as a resource (listed, with `_meta.ui`), and the older versions the build kept through a
 * template that lists none (readable, not listed). On a low-level `Server`, which has no registry,
 * as its `resources/list` and `resources/read` handlers. It imports nothing of the SDK at run time,
 * so each binding passes what differs.
 */

/** What differs between the SDKs: their template class, and how a low-level server takes a handler. */
export interface SdkViewBinding {
  /** The SDK's `ResourceTemplate` for this URI template, listing nothing. */
  template(uriTemplate: string): unknown;
  /**
   * Installs a handler of a low-level server (v1 by request schema, v2 by method), telling it the
   * request's era: SDK v2 serves 2026-07-28 too (v1 serves 2025 only, and tells none).
   */
  handle(
    method: 'resources/list' | 'resources/read',
    answer: (params: Record<string, unknown>, era?: '2025' | '2026-07-28') => Promise<unknown>,
  ): void;
  /** The SDK's error for a JSON-RPC error, as its handlers throw one. */
  raise(error: WireError): Error;
  /** What `registerResource` takes beside the resource's own fields: SDK v2's caching hint of a read. */
  readonly readConfig?: object;
}

interface McpServerShape {
  registerResource(name: string, uri: unknown, config: object, read: (uri: URL) => Promise<unknown>): unknown;
}

interface LowLevelShape {
  registerCapabilities(capabilities: { resources: object }): void;
  /** Throws for a method the server has a handler of (both SDKs have it). */
  assertCanSetRequestHandler?(method: string): void;
}

const RESOURCE_METHODS = ['resources/list', 'resources/read'] as const;

/** Serves a runtime's views on an SDK server: an `McpServer` (`target`) or its low-level `server`. */
export function attachViews(
  target: object,
  server: LowLevelShape,
  views: ViewService | undefined,
  binding: SdkViewBinding,
): void {
  if (!views) return;
  const read = async (uri: string): Promise<ReadView['result']> => {
    const answer = views.read(uri);
    // SDK v2 answers a thrown -32002 as 2026-07-28's -32602 itself.
    if (!answer) throw binding.raise(unknownResource(uri, '2025'));
    return (await answer).result;
  };
  if (target !== server && 'registerResource' in target) {
    const mcpServer = target as McpServerShape;
    for (const { uri, name, ...config } of views.listed)
      mcpServer.registerResource(name, uri, { ...config, ...binding.readConfig }, () => read(uri));
    for (const [name, uriTemplate] of views.earlier)
      mcpServer.registerResource(
        name,
        binding.template(uriTemplate),
        { mimeType: VIEW_MIME_TYPE, ...binding.readConfig },
        (uri) => read(uri.href),
      );
    return;
  }
  for (const method of RESOURCE_METHODS)
    try {
      server.assertCanSetRequestHandler?.(method);
    } catch {
      // Replacing it would drop the user's resources without a word.
      throw new Error(
        `[toolprep] attachTools: this server answers ${method} already, and the views (MCP Apps) of the tools need it: attach the tools to its McpServer instead, whose registerResource serves your resources beside the views`,
      );
    }
  server.registerCapabilities({ resources: {} });
  binding.handle('resources/list', async ({ cursor }) => {
    // One page holds every view: a cursor is one this server never gave.
    if (cursor !== undefined) throw binding.raise(invalidCursor(cursor));
    return { resources: views.listed };
  });
  binding.handle('resources/read', async ({ uri }, era) => {
    const result = await read(String(uri));
    // 2026-07-28's caching hint (decision 0062), as toolprep's server and an McpServer's cacheHint give it.
    return era === '2026-07-28' ? { ...result, ttlMs: VIEW_READ_TTL_MS } : result;
  });
}
