import type { ToolRuntime } from '../runtime/runner.js';
import {
  createMcpServer,
  forbiddenBody,
  type McpHttpOptions,
  type McpServerInfo,
  refusedOrigin,
} from './mcp-server.js';

export type { McpHttpOptions, McpServerInfo } from './mcp-server.js';

/**
 * MCP over Streamable HTTP as a web-standard handler, `(request: Request) => Promise<Response>`,
 * for runtimes that speak fetch (Cloudflare Workers, Deno, Bun, Vercel's edge): stateless, a fresh
 * server per request on the SDK's web-standard transport, with the same `Host` and `Origin` checks
 * as the Node handler. It imports nothing of Node.
 */
export function createMcpFetchHandler(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: McpHttpOptions = {},
): (request: Request) => Promise<Response> {
  return async (request) => {
    // A fetch runtime's request URL carries the host the client asked for (from its Host header).
    const refused = refusedOrigin(
      { host: new URL(request.url).host, origin: request.headers.get('origin') ?? undefined },
      options,
    );
    if (refused)
      return new Response(forbiddenBody(refused), {
        status: 403,
        headers: { 'content-type': 'application/json' },
      });
    // Imported on the first request: listing the module costs nothing until a request comes.
    const { WebStandardStreamableHTTPServerTransport } = await import(
      '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
    );
    const server = createMcpServer(runtime, info, options);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await transport.close();
      await server.close();
    }
  };
}
