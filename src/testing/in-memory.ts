import type { ToolRuntime } from '../runtime/runner.js';
import { isRecord } from '../shared/run/is-record.js';
import { failureOf, logError } from '../shared/run/on-error.js';
import type { ModernOptions } from '../surfaces/mcp/modern/method-table.js';
import { modernServing } from '../surfaces/mcp/modern/server.js';
import type { McpServerInfo } from '../surfaces/mcp/service/tool-service.js';
import { META, MODERN_VERSION } from '../surfaces/mcp/wire/envelope.js';
import { ERRORS, type Id, type WireAnswer, type WireError } from '../surfaces/mcp/wire/jsonrpc.js';

/**
 * An MCP client in the test's own process, over the serving code that stdio and HTTP use: the
 * 2026-07-28 method table (`modernServing`), and for a 2025 session the SDK v1 server
 * (`createMcpServer`) over the SDK's in-memory transport. The client side is toolprep's own
 * exchange of JSON-RPC messages, so that a test sees each answer as it was sent (decision 0045).
 */

/** The protocol revisions a client can speak: 2026-07-28 (stateless), or a 2025 session's. */
export type InMemoryProtocol = '2026-07-28' | '2025-11-25' | '2025-06-18' | '2025-03-26';

export interface InMemoryOptions {
  /** Default `2026-07-28`. A 2025 revision needs `@modelcontextprotocol/sdk`, as serving 2025 does. */
  readonly protocol?: InMemoryProtocol;
  /** What the client declares it can do (`elicitation`, `sampling`, `roots`). Default: nothing. */
  readonly capabilities?: Readonly<Record<string, unknown>>;
  /** The server's name and version, as results and `initialize` show them. Default `toolprep-testing` 0.0.0. */
  readonly serverInfo?: McpServerInfo;
  /** The serving options, as `serveStdio` and `serveHttp` take them (`pageSize`, `tasks`, `onerror`…). */
  readonly serving?: ModernOptions;
}

/** A tool as `tools/list` shows it. */
export interface ListedTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: { readonly [key: string]: unknown };
  readonly [key: string]: unknown;
}

/** A `tools/call` result as it was sent (on 2026-07-28 also `resultType` and the server's `_meta`). */
export interface CallResult {
  readonly content?: readonly { readonly type: string; readonly [key: string]: unknown }[];
  readonly structuredContent?: { readonly [key: string]: unknown };
  readonly isError?: boolean;
  readonly [key: string]: unknown;
}

export interface InMemoryClient {
  /** The revision this client speaks. */
  readonly protocol: InMemoryProtocol;
  /** Every tool, following each page's `nextCursor`. */
  listTools(): Promise<ListedTool[]>;
  /** Calls a tool: its result (a tool's failure is `isError: true`), or an `McpRequestError`. */
  callTool(name: string, args?: Readonly<Record<string, unknown>>): Promise<CallResult>;
  /** Any request of the revision (`ping`, `server/discover`, one `tools/list` page): its result, or an `McpRequestError`. */
  request(method: string, params?: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>>;
  /** Ends the client: a call still running is cancelled (its handler's signal aborts) and rejects unanswered. */
  close(): Promise<void>;
}

/** A request the server answered with a JSON-RPC error: its code, message and data as sent. */
export class McpRequestError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(error: WireError) {
    super(error.message);
    this.name = 'McpRequestError';
    this.code = error.code;
    this.data = error.data;
  }
}

const DEFAULT_SERVER = { name: 'toolprep-testing', version: '0.0.0' };

/**
 * Connects a client to the runtime's tools in this process, speaking `protocol` (2026-07-28 unless
 * told). Nothing listens: no port, no child process.
 */
export async function connectInMemory(
  runtime: ToolRuntime,
  options: InMemoryOptions = {},
): Promise<InMemoryClient> {
  const { protocol = MODERN_VERSION, capabilities = {}, serverInfo = DEFAULT_SERVER, serving = {} } = options;
  const declared = wireCopy(capabilities);
  const exchange =
    protocol === MODERN_VERSION
      ? modernExchange(runtime, serverInfo, serving, declared)
      : await sessionExchange(runtime, serverInfo, serving, protocol, declared);
  let closed = false;
  const request: InMemoryClient['request'] = async (method, params = {}) => {
    if (closed) throw new Error(`[toolprep] ${method} on an in-memory client that was closed`);
    const answer = await exchange.send(method, wireCopy(params));
    if (isRecord(answer.error)) throw new McpRequestError(answer.error as unknown as WireError);
    if (!isRecord(answer.result)) throw new Error(`[toolprep] ${method} was answered without a result`);
    return answer.result;
  };
  return {
    protocol,
    async listTools() {
      const tools: ListedTool[] = [];
      let cursor: unknown;
      do {
        const page = await request('tools/list', cursor === undefined ? {} : { cursor });
        tools.push(...(page.tools as ListedTool[]));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return tools;
    },
    callTool: (name, args = {}) => request('tools/call', { name, arguments: args }) as Promise<CallResult>,
    request,
    async close() {
      closed = true;
      await exchange.close();
    },
  };
}

/** A JSON-RPC response as it arrived. */
type Response = { readonly result?: unknown; readonly error?: unknown };

interface Exchange {
  send(method: string, params: Record<string, unknown>): Promise<Response>;
  close(): Promise<void>;
}

const closedBeforeAnswer = () =>
  new Error('[toolprep] the in-memory client was closed before the server answered');

/** What a request's params become on a wire: JSON, so a test sends only what a client can. */
function wireCopy(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(params)) as Record<string, unknown>;
}

/**
 * 2026-07-28: each request carries its envelope and is answered by the method table on its own, as
 * the stdio reader hands it a line (a failure inside the server is `-32603`, reported to `onerror`).
 */
function modernExchange(
  runtime: ToolRuntime,
  info: McpServerInfo,
  serving: ModernOptions,
  capabilities: Readonly<Record<string, unknown>>,
): Exchange {
  const modern = modernServing(runtime, info, serving);
  const onerror = serving.onerror ?? logError;
  const closing = new AbortController();
  let nextId = 1;
  return {
    async send(method, params) {
      const id = nextId++;
      const meta = isRecord(params._meta) ? params._meta : {};
      const message = {
        jsonrpc: '2.0',
        id,
        method,
        params: {
          ...params,
          _meta: { [META.protocolVersion]: MODERN_VERSION, [META.clientCapabilities]: capabilities, ...meta },
        },
      };
      const accepted = modern.accept(message);
      let answer: WireAnswer;
      try {
        answer = 'run' in accepted ? await accepted.run(() => {}, closing.signal) : accepted;
      } catch (error) {
        onerror(failureOf('an MCP request failed inside the server', error));
        return { error: { code: ERRORS.internal.code, message: 'Internal error' } };
      }
      // As over stdio, a request whose client went is not answered.
      if (closing.signal.aborted) throw closedBeforeAnswer();
      return JSON.parse(answer.body ?? '{}') as Response;
    },
    async close() {
      closing.abort();
    },
  };
}

/**
 * A 2025 session: `initialize` with the revision asked for, then each request, on the SDK v1
 * server that every 2025 session past its first answers reaches, through the SDK's linked pair of
 * in-memory transports. Messages cross as JSON, as on a wire.
 */
async function sessionExchange(
  runtime: ToolRuntime,
  info: McpServerInfo,
  serving: ModernOptions,
  protocol: InMemoryProtocol,
  capabilities: Readonly<Record<string, unknown>>,
): Promise<Exchange> {
  const { createMcpServer, InMemoryTransport } = await loadSdk();
  const server = createMcpServer(runtime, info, serving);
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<Id, { resolve(response: Response): void; reject(error: Error): void }>();
  client.onclose = () => {
    for (const { reject } of waiting.values()) reject(closedBeforeAnswer());
    waiting.clear();
  };
  client.onmessage = (sent) => {
    const message = JSON.parse(JSON.stringify(sent)) as Record<string, unknown>;
    const id = message.id as Id | undefined;
    if (id === undefined) return;
    // A request of the server's (it asks only what the client declared): refused, never left waiting.
    if ('method' in message) {
      void client.send({
        jsonrpc: '2.0',
        id,
        error: {
          code: ERRORS.methodNotFound.code,
          message: `the in-memory client does not answer ${message.method}`,
        },
      });
      return;
    }
    waiting.get(id)?.resolve(message);
    waiting.delete(id);
  };
  await server.connect(serverSide);
  await client.start();
  let nextId = 1;
  const send = (method: string, params: Record<string, unknown>) =>
    new Promise<Response>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      client.send({ jsonrpc: '2.0', id, method, params }).catch(reject);
    });
  const initialized = await send('initialize', {
    protocolVersion: protocol,
    capabilities,
    clientInfo: { name: 'toolprep-testing', version: '0.0.0' },
  });
  const agreed = (initialized.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  if (agreed !== protocol) {
    await server.close();
    if (isRecord(initialized.error)) throw new McpRequestError(initialized.error as unknown as WireError);
    throw new Error(
      `[toolprep] the installed @modelcontextprotocol/sdk answers ${JSON.stringify(agreed)} to a ${protocol} client: connect with a revision it serves`,
    );
  }
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    send,
    async close() {
      await server.close();
    },
  };
}

/** The SDK v1 server and its in-memory transport, loaded when a 2025 client is asked for. */
async function loadSdk() {
  try {
    const [{ createMcpServer }, { InMemoryTransport }] = await Promise.all([
      import('../surfaces/mcp/legacy/sdk-v1.js'),
      import('@modelcontextprotocol/sdk/inMemory.js'),
    ]);
    return { createMcpServer, InMemoryTransport };
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code !== 'ERR_MODULE_NOT_FOUND' || !String(message).includes('@modelcontextprotocol/sdk'))
      throw error;
    throw new Error(
      '[toolprep] a 2025 client needs @modelcontextprotocol/sdk, which serves 2025 sessions: install it (npm install -D @modelcontextprotocol/sdk), or connect with protocol 2026-07-28',
      { cause: error },
    );
  }
}
