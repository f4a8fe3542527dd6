import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
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

/**
 * The MCP server over the prepared tools, with no transport: Node's (stdio, HTTP) are in mcp.ts,
 * the web-standard one in mcp-web.ts. It imports nothing of Node, so that it runs on edge runtimes.
 */

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
export const pageTexts = new WeakMap<object, string>();

function pageOf(serving: Serving, pageSize: number, start: number): ListToolsResult {
  const key = `${pageSize}:${start}`;
  let page = serving.pages.get(key);
  if (!page) {
    const end = start + pageSize;
    page = Object.freeze({
      tools: serving.tools.slice(start, end),
      ...(end < serving.tools.length ? { nextCursor: cursorOf(end) } : {}),
    });
    pageTexts.set(page, JSON.stringify(page));
    serving.pages.set(key, page);
  }
  return page;
}

/** A page's cursor: its start, as base64url (btoa, which every runtime has). */
function cursorOf(start: number): string {
  return btoa(String(start)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

function startOf(cursor: string): number {
  try {
    return Number.parseInt(atob(cursor.replace(/-/g, '+').replace(/_/g, '/')), 10);
  } catch {
    return Number.NaN;
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
    const start = cursor === undefined ? 0 : startOf(cursor);
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

export interface McpHttpOptions extends AttachToolsOptions {
  /**
   * The `Host` names (or `name:port`) requests may carry. Default: loopback only (`localhost`,
   * `127.0.0.1`, `[::1]`, any port), as the MCP specification asks of a local server against DNS
   * rebinding. Name your public host names when the server is reached through them.
   */
  readonly allowedHosts?: readonly string[];
  /** The `Origin`s (`https://app.example.com`) a browser request may come from. Default: loopback. */
  readonly allowedOrigins?: readonly string[];
  /**
   * How answers are sent: `json`, `sse` (a stream, which carries the notifications a handler sends
   * while it runs: progress, logging), or `auto` (the default): a stream when the request asks for
   * progress (`_meta.progressToken`), JSON otherwise.
   */
  readonly responses?: 'auto' | 'json' | 'sse';
  /**
   * The server each request is answered by, for a server with more than tools (resources,
   * prompts, logging, completions): made per request, with the tools attached (`attachTools`).
   * Default: `createMcpServer(runtime, info, options)`.
   */
  readonly server?: () => Server;
}

/** Whether a request's answer goes as a stream (see `McpHttpOptions.responses`). */
export function answersByStream(body: unknown, responses: McpHttpOptions['responses'] = 'auto'): boolean {
  if (responses !== 'auto') return responses === 'sse';
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => {
    const meta = (message as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta;
    return meta?.progressToken !== undefined;
  });
}

const LOOPBACK: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Why a request's `Host` or `Origin` is refused, or nothing when both are allowed. */
export function refusedOrigin(
  headers: { readonly host?: string; readonly origin?: string },
  options: McpHttpOptions,
): string | undefined {
  const host = (headers.host ?? '').toLowerCase();
  const hostname = host.replace(/:\d+$/, '');
  const hosts = options.allowedHosts?.map((name) => name.toLowerCase()) ?? LOOPBACK;
  if (!hosts.includes(host) && !hosts.includes(hostname))
    return `host "${host}" is not allowed (allowedHosts: ${hosts.join(', ')})`;
  const { origin } = headers;
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

/** The JSON-RPC error body of a refused request. */
export function forbiddenBody(refused: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    error: { code: -32000, message: `Forbidden: ${refused}` },
    id: null,
  });
}
