import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { ToolRuntime } from '../runtime/runner.js';
import {
  answersByStream,
  firstAnswers,
  firstHttpAnswer,
  forbiddenBody,
  type McpHttpOptions,
  type McpServerInfo,
  refusedOrigin,
  sessionOptionsOf,
} from './mcp-prepared.js';
import type { SessionTable } from './mcp-sessions.js';

export type { McpHttpOptions, McpServerInfo } from './mcp-prepared.js';
export type { McpSessionOptions } from './mcp-sessions.js';

/**
 * MCP over Streamable HTTP as a web-standard handler, `(request: Request) => Promise<Response>`,
 * for runtimes that speak fetch (Cloudflare Workers, Deno, Bun, Vercel's edge), on the SDK's
 * web-standard transport, with the same `Host` and `Origin` checks as the Node handler. Stateless
 * by default, a fresh server per request, and then `initialize`, `ping` and `tools/list` are
 * answered from the prepared bytes when toolprep makes the server; with `sessions`, a server per
 * client session, in this isolate's memory. The SDK is loaded on the first request that needs it.
 * It imports nothing of Node.
 */
export function createMcpFetchHandler(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: McpHttpOptions = {},
): (request: Request) => Promise<Response> {
  const sessionOptions = sessionOptionsOf(options);
  const first = options.server || sessionOptions ? undefined : firstAnswers(runtime, info, options);
  let sessions: SessionTable<WebStandardStreamableHTTPServerTransport> | undefined;
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
    const body =
      request.method === 'POST'
        ? await request
            .clone()
            .json()
            .catch(() => undefined)
        : undefined;
    const prepared =
      first &&
      firstHttpAnswer(
        first,
        { method: request.method, header: (name) => request.headers.get(name) ?? undefined },
        body,
        options,
      );
    if (prepared)
      return new Response(prepared.body, {
        status: prepared.status,
        ...(prepared.body === null ? {} : { headers: { 'content-type': 'application/json' } }),
      });
    const [{ WebStandardStreamableHTTPServerTransport }, { createMcpServer }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
      import('./mcp-server.js'),
    ]);
    const makeServer = () => options.server?.() ?? createMcpServer(runtime, info, options);
    if (sessionOptions) {
      const { sessionTable } = await import('./mcp-sessions.js');
      sessions ??= sessionTable(
        (transport) => new WebStandardStreamableHTTPServerTransport(transport),
        sessionOptions,
        options.responses,
      );
      const routed = sessions.route(request.headers.get('mcp-session-id') ?? undefined, body);
      if ('status' in routed)
        return new Response(routed.body, {
          status: routed.status,
          headers: { 'content-type': 'application/json' },
        });
      if (routed.isNew) await makeServer().connect(routed.transport);
      return routed.transport.handleRequest(request, { parsedBody: body });
    }
    const server = makeServer();
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
