import type { ToolRuntime } from '../runtime/runner.js';
import {
  answersByStream,
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
    const body =
      request.method === 'POST'
        ? await request
            .clone()
            .json()
            .catch(() => undefined)
        : undefined;
    const server = options.server?.() ?? createMcpServer(runtime, info, options);
    const stream = answersByStream(body, options.responses);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !stream,
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: body });
    // A JSON answer is complete; a stream closes the server once the client has read it.
    if (!stream) {
      await transport.close();
      await server.close();
    }
    return response;
  };
}
