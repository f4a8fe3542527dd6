import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  type ListToolsResult,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import { isToolContent } from '../runtime/index.js';
import type { ToolRuntime } from '../runtime/runner.js';

export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
}

export interface AttachToolsOptions {
  /** Tools per `tools/list` page; longer lists are paged with a cursor. Default 200. */
  readonly pageSize?: number;
}

/**
 * What serving a runtime needs, derived once per runtime (not per server: the stateless HTTP
 * pattern makes a server per request): the `tools/list` entries, which tools declare an output, and
 * each page built so far.
 */
interface Serving {
  readonly tools: readonly Tool[];
  readonly outputs: ReadonlySet<string>;
  readonly pages: Map<string, ListToolsResult>;
}

const servings = new WeakMap<ToolRuntime, Serving>();

function servingOf(runtime: ToolRuntime): Serving {
  let serving = servings.get(runtime);
  if (!serving) {
    const prepared = runtime.list();
    serving = {
      tools: Object.freeze(prepared.map(toListedTool)),
      outputs: new Set(prepared.filter((tool) => tool.outputSchema).map((tool) => tool.name)),
      pages: new Map(),
    };
    servings.set(runtime, serving);
  }
  return serving;
}

function toListedTool(tool: PreparedTool): Tool {
  return Object.freeze({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema.mcp as Tool['inputSchema'],
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Tool['outputSchema'] } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.meta ? { _meta: tool.meta } : {}),
  });
}

/** The JSON text of each page, made once: the stdio transport writes it as it is. */
const pageTexts = new WeakMap<object, string>();

function pageOf(serving: Serving, pageSize: number, start: number): ListToolsResult {
  const key = `${pageSize}:${start}`;
  let page = serving.pages.get(key);
  if (!page) {
    const end = start + pageSize;
    page = Object.freeze({
      tools: serving.tools.slice(start, end),
      ...(end < serving.tools.length ? { nextCursor: Buffer.from(String(end)).toString('base64url') } : {}),
    });
    pageTexts.set(page, JSON.stringify(page));
    serving.pages.set(key, page);
  }
  return page;
}

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

/**
 * Serves the runtime's tools on a low-level MCP `Server` the caller already has (with its own
 * resources and prompts): `tools/list` answers with the prepared documents as they are, and
 * `tools/call` goes through `runtime.call`, so every call gets the plan and one parse.
 */
export function attachTools(server: Server, runtime: ToolRuntime, options: AttachToolsOptions = {}): Server {
  const pageSize = options.pageSize ?? 200;
  const serving = servingOf(runtime);
  server.registerCapabilities({ tools: {} });

  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const cursor = request.params?.cursor;
    const start = cursor === undefined ? 0 : Number.parseInt(Buffer.from(cursor, 'base64url').toString(), 10);
    if (!Number.isInteger(start) || start < 0 || start > serving.tools.length) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid cursor "${cursor}": pass the nextCursor of the previous page`,
      );
    }
    return pageOf(serving, pageSize, start);
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    const result = await runtime.call(name, args, extra);
    if (!result.ok) {
      // A tool that does not exist is the caller's protocol error; anything else is the tool's answer.
      if (result.error.code === 'UNKNOWN_TOOL')
        throw new McpError(ErrorCode.InvalidParams, result.error.message);
      return { content: [{ type: 'text', text: result.error.message }], isError: true };
    }
    if (isToolContent(result.value)) {
      // Content parts are MCP's own content blocks; structured content goes beside them.
      const { content, structured } = result.value;
      return {
        content: [...content] as CallToolResult['content'],
        ...(structured === undefined ? {} : { structuredContent: structured as Record<string, unknown> }),
      };
    }
    const text = typeof result.value === 'string' ? result.value : (JSON.stringify(result.value) ?? 'null');
    return serving.outputs.has(name)
      ? { content: [{ type: 'text', text }], structuredContent: result.value as Record<string, unknown> }
      : { content: [{ type: 'text', text }] };
  });
  return server;
}

/**
 * One JSON Schema validator for every server we create, made on first use. Left to itself, the SDK
 * builds an Ajv instance per server (most of a stateless request's cost) that a server uses only to
 * check the answers to its own elicitation requests.
 */
let sharedValidator: AjvJsonSchemaValidator | undefined;
const validatorOnFirstUse: jsonSchemaValidator = {
  getValidator(schema) {
    sharedValidator ??= new AjvJsonSchemaValidator();
    return sharedValidator.getValidator(schema);
  },
};

/** A low-level MCP `Server` with the tools capability, serving the runtime's tools. */
export function createMcpServer(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: AttachToolsOptions = {},
): Server {
  return attachTools(
    new Server(
      { name: info.name, version: info.version },
      { capabilities: { tools: {} }, jsonSchemaValidator: validatorOnFirstUse },
    ),
    runtime,
    options,
  );
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

export interface McpHttpOptions extends AttachToolsOptions {
  /**
   * The `Host` names (or `name:port`) requests may carry. Default: loopback only (`localhost`,
   * `127.0.0.1`, `[::1]`, any port), as the MCP specification asks of a local server against DNS
   * rebinding. Name your public host names when the server is reached through them.
   */
  readonly allowedHosts?: readonly string[];
  /** The `Origin`s (`https://app.example.com`) a browser request may come from. Default: loopback. */
  readonly allowedOrigins?: readonly string[];
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** Why a request's `Host` or `Origin` is refused, or nothing when both are allowed. */
function refusedOrigin(request: IncomingMessage, options: McpHttpOptions): string | undefined {
  const host = (request.headers.host ?? '').toLowerCase();
  const hostname = host.replace(/:\d+$/, '');
  const hosts = options.allowedHosts?.map((name) => name.toLowerCase()) ?? LOOPBACK;
  if (!hosts.includes(host) && !hosts.includes(hostname))
    return `host "${host}" is not allowed (allowedHosts: ${hosts.join(', ')})`;
  const origin = request.headers.origin;
  if (origin === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `origin "${origin}" is not a URL`;
  }
  const allowed = options.allowedOrigins
    ? options.allowedOrigins.includes(url.origin)
    : LOOPBACK.includes(url.hostname.toLowerCase());
  return allowed ? undefined : `origin "${origin}" is not allowed (allowedOrigins)`;
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
    const refused = refusedOrigin(request, options);
    if (refused) {
      response.writeHead(403, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32000, message: `Forbidden: ${refused}` },
          id: null,
        }),
      );
      return;
    }
    // Imported on the first request: a stdio server should not pay for the HTTP transport at start-up.
    const { StreamableHTTPServerTransport } = await import(
      '@modelcontextprotocol/sdk/server/streamableHttp.js'
    );
    const server = createMcpServer(runtime, info, options);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, parsedBody);
  };
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
