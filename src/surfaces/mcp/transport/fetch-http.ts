import type { ToolRuntime } from '../../../runtime/runner.js';
import type { McpServerInfo } from '../service/tool-service.js';
import { fetchPort } from './fetch-port.js';
import { httpExchange } from './http-exchange.js';
import type { McpHttpOptions } from './http-options.js';

/**
 * MCP over Streamable HTTP as a web-standard handler, `(request: Request) => Promise<Response>`,
 * for runtimes that speak fetch (Cloudflare Workers, Deno, Bun, Vercel's edge), with the same
 * exchange as the Node handler: the same `Host` and `Origin` checks, CORS, prepared answers and
 * hand-overs. Stateless by default; with `sessions`, a server per client session, in this
 * isolate's memory. The SDK is loaded on the first request that needs it, and a bundler puts it
 * in the bundle: `toolprep/mcp/fetch` is the handler without it (decision 0064). It imports nothing
 * of Node.
 */
export function createMcpFetchHandler(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: McpHttpOptions = {},
): (request: Request) => Promise<Response> {
  const exchange = httpExchange(runtime, info, options, {
    legacy: () => import('./legacy-exchange.js'),
  });
  return (request) => exchange(fetchPort(request));
}
