import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRuntime } from '../runtime/runner.js';
import {
  type AttachToolsOptions,
  answersByStream,
  createMcpServer,
  forbiddenBody,
  type McpHttpOptions,
  type McpServerInfo,
  pageTexts,
  refusedOrigin,
} from './mcp-server.js';

export {
  type AttachToolsOptions,
  attachTools,
  createMcpServer,
  type McpHttpOptions,
  type McpServerInfo,
} from './mcp-server.js';

/**
 * stdio that writes a prepared `tools/list` page from its JSON text, made once, instead of
 * serialising the same documents again for every request. Everything else goes as usual.
 */
class PreparedStdioTransport extends StdioServerTransport {
  override send(message: JSONRPCMessage): Promise<void> {
    const result = 'result' in message ? message.result : undefined;
    const text = result === undefined ? undefined : pageTexts.get(result);
    if (text === undefined || !('id' in message)) return super.send(message);
    const line = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${text}}\n`;
    return new Promise((resolve) => {
      if (process.stdout.write(line)) resolve();
      else process.stdout.once('drain', () => resolve());
    });
  }
}

/** Serves the tools over stdio (the process's stdin and stdout). */
export async function serveStdio(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: AttachToolsOptions = {},
): Promise<Server> {
  const server = createMcpServer(runtime, info, options);
  await server.connect(new PreparedStdioTransport());
  return server;
}

/**
 * A Node request handler for MCP over Streamable HTTP, stateless: a fresh server per request,
 * which costs next to nothing because the tool surface is prepared. A request whose `Host` or
 * `Origin` is not allowed is refused with 403 before any server is made.
 */
export function createMcpHttpHandler(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: McpHttpOptions = {},
) {
  return async (request: IncomingMessage, response: ServerResponse, parsedBody?: unknown): Promise<void> => {
    const refused = refusedOrigin(request.headers, options);
    if (refused) {
      response.writeHead(403, { 'content-type': 'application/json' }).end(forbiddenBody(refused));
      return;
    }
    // Imported on the first request: a stdio server should not pay for the HTTP transport at start-up.
    const { StreamableHTTPServerTransport } = await import(
      '@modelcontextprotocol/sdk/server/streamableHttp.js'
    );
    // The body is read here (unless given) to choose how to answer; the transport takes it parsed.
    const body = request.method === 'POST' ? (parsedBody ?? (await readJson(request))) : undefined;
    const server = options.server?.() ?? createMcpServer(runtime, info, options);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !answersByStream(body, options.responses),
    });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  };
}

/** A request's JSON body; what is not JSON is left to the transport to refuse. */
async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Listens for MCP over Streamable HTTP on `port` (0 for any free port), at every path. */
export async function serveHttp(
  runtime: ToolRuntime,
  info: McpServerInfo,
  port: number,
  options: McpHttpOptions = {},
): Promise<HttpServer> {
  const handle = createMcpHttpHandler(runtime, info, options);
  const server = createHttpServer((request, response) => {
    handle(request, response).catch((error: Error) => {
      if (!response.headersSent)
        response
          .writeHead(500)
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: error.message }, id: null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}
