import type { ToolRuntime } from '../../../runtime/runner.js';
import type { McpServerInfo } from '../service/tool-service.js';
import { fetchPort } from './fetch-port.js';
import { httpExchange } from './http-exchange.js';
import type { McpHttpOptions } from './http-options.js';

/**
 * The options of `toolprep/mcp/fetch`'s handler: those of `toolprep/mcp/web` but the 2025 ones,
 * `server` (an SDK v1 server) and `sessions` (2025 sessions).
 */
export type McpFetchOptions = Omit<McpHttpOptions, 'server' | 'sessions'>;

/**
 * MCP 2026-07-28 over Streamable HTTP as a web-standard handler, for a Worker that carries what
 * it serves: its import graph holds no MCP SDK, so a bundle of it holds none (decision 0064).
 * `tools/list` and `tools/call` are toolprep's own, the contracts load with a tool's first call,
 * and `modernFeatures` hands the other methods to an SDK v2 server of yours (which is then in the
 * bundle because you imported it). A 2025 client is refused with `-32022`, and the log names
 * `toolprep/mcp/web`, whose handler serves both eras with the SDK v1.
 */
export function createMcpFetchHandler(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: McpFetchOptions = {},
): (request: Request) => Promise<Response> {
  // Given from JavaScript, or spread from a Node handler's options: refused, never ignored.
  const given = options as McpHttpOptions;
  const legacyOnly = (['server', 'sessions'] as const).filter(
    (key) => given[key] !== undefined && given[key] !== false,
  );
  if (legacyOnly.length > 0)
    throw new Error(
      `[toolprep] ${legacyOnly.join(' and ')} serve${legacyOnly.length === 1 ? 's' : ''} 2025 sessions, which toolprep/mcp/fetch leaves out: use createMcpFetchHandler from toolprep/mcp/web for them`,
    );
  const exchange = httpExchange(runtime, info, options);
  return (request) => exchange(fetchPort(request));
}
