import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRuntime } from '../runtime/runner.js';
import {
  type AttachToolsOptions,
  answersByStream,
  type FirstAnswers,
  firstAnswers,
  firstHttpAnswer,
  forbiddenBody,
  type McpHttpOptions,
  type McpServerInfo,
  pageTexts,
  refusedOrigin,
  resultText,
  sessionOptionsOf,
} from './mcp-prepared.js';
import type { SessionTable } from './mcp-sessions.js';

export type { AttachToolsOptions, McpHttpOptions, McpServerInfo } from './mcp-prepared.js';
export type { McpSessionOptions } from './mcp-sessions.js';

/**
 * `toolprep/mcp`: MCP over stdio and Node's HTTP. Nothing here imports the SDK up front: the first
 * answers of a connection come from the prepared bytes, and the SDK is loaded when a request needs
 * it (decision 0022).
 */

/** The SDK's transport for stdio, writing each prepared `tools/list` page from its JSON text. */
async function preparedStdioTransport(input: Readable, output: Writable) {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  return new (class extends StdioServerTransport {
    override send(message: JSONRPCMessage): Promise<void> {
      const result = 'result' in message ? message.result : undefined;
      const text = result === undefined ? undefined : pageTexts.get(result);
      const id = 'id' in message ? message.id : undefined;
      if (text === undefined || id === undefined) return super.send(message);
      return new Promise((resolve) => {
        if (output.write(`${resultText(id, text)}\n`)) resolve();
        else output.once('drain', () => resolve());
      });
    }
  })(input, output);
}

/** The SDK's server for the runtime, connected to stdio through these streams. */
async function connectStdio(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: AttachToolsOptions,
  input: Readable,
  output: Writable,
): Promise<Server> {
  const { createMcpServer } = await import('./mcp-server.js');
  const server = createMcpServer(runtime, info, options);
  await server.connect(await preparedStdioTransport(input, output));
  return server;
}

export interface StdioServing {
  /**
   * The SDK's server, which answers everything but the first requests: made when a request needs
   * it, or just after the first `tools/list` has been answered. Calling this makes it now.
   */
  server(): Promise<Server>;
}

/**
 * Serves the tools over stdio (the process's stdin and stdout). `initialize`, `ping` and
 * `tools/list` are answered from the prepared bytes before the SDK loads; the SDK's server then
 * takes the connection over, having been given the client's `initialize` as if it had answered it.
 */
export async function serveStdio(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: AttachToolsOptions = {},
): Promise<StdioServing> {
  const first = firstAnswers(runtime, info, options);
  if (!first) {
    const server = await connectStdio(runtime, info, options, process.stdin, process.stdout);
    return { server: async () => server };
  }
  return answerFirst(first, (input, output) => connectStdio(runtime, info, options, input, output));
}

/**
 * Reads stdin line by line and answers what the prepared bytes can; the first message that needs
 * the SDK (or the first `tools/list` answered) starts loading it. When it is connected, it is
 * given, in order, every message it must know of (the answered `initialize` among them, whose
 * answer it then writes and is taken back, since the client has it) and the rest of stdin.
 */
function answerFirst(
  first: FirstAnswers,
  connect: (input: Readable, output: Writable) => Promise<Server>,
): StdioServing {
  const { stdin, stdout } = process;
  let unread: Buffer = Buffer.alloc(0);
  const forTheSdk: Buffer[] = [];
  let sdkNeeded = false;
  /** The `initialize` answer already sent, until the SDK's own is taken back. */
  let sentInitialize: { id: unknown; text: string } | undefined;

  let handover: Promise<Server> | undefined;
  const handOver = (): Promise<Server> => {
    handover ??= (async () => {
      // Imported here: loading node:stream costs 4 ms at start-up.
      const { PassThrough, Writable } = await import('node:stream');
      const input = new PassThrough();
      const output = new Writable({
        write(chunk: Buffer, _encoding, done) {
          if (sentInitialize && isAnswerTo(sentInitialize.id, chunk)) {
            if (chunk.toString('utf8') !== `${sentInitialize.text}\n`)
              process.stderr.write(
                `[toolprep] the MCP SDK answers initialize otherwise than the prepared answer sent (run toolprep generate again): ${chunk}`,
              );
            sentInitialize = undefined;
            return done();
          }
          if (stdout.write(chunk)) done();
          else stdout.once('drain', () => done());
        },
      });
      const server = await connect(input, output);
      stdin.off('data', read);
      for (const line of forTheSdk) input.write(line);
      if (unread.length > 0) input.write(unread);
      stdin.pipe(input);
      return server;
    })();
    return handover;
  };

  const read = (chunk: Buffer) => {
    unread = unread.length === 0 ? chunk : Buffer.concat([unread, chunk]);
    for (let end = unread.indexOf(10); end !== -1; end = unread.indexOf(10)) {
      const line = unread.subarray(0, end + 1);
      unread = unread.subarray(end + 1);
      const message = parseLine(line);
      const answer = sdkNeeded ? undefined : first.answer(message);
      // Only one initialize is answered here; the SDK answers any other.
      if (answer === undefined || (answer.kind === 'answer' && answer.replay && sentInitialize)) {
        forTheSdk.push(line);
        sdkNeeded = true;
        void handOver();
        continue;
      }
      if (answer.kind === 'answer') stdout.write(`${answer.text}\n`);
      if (answer.kind === 'replay' || answer.replay) forTheSdk.push(line);
      if (answer.kind === 'answer' && answer.replay)
        sentInitialize = { id: (message as { id: unknown }).id, text: answer.text };
      // Loaded once the tools are listed, between the first answers and the first call.
      else if ((message as { method?: unknown }).method === 'tools/list' && handover === undefined)
        setImmediate(handOver);
    }
  };
  stdin.on('data', read);
  return { server: handOver };
}

/** A line of stdin as the SDK's reader takes it (the newline and a carriage return dropped). */
function parseLine(line: Buffer): unknown {
  try {
    return JSON.parse(line.toString('utf8').replace(/\r?\n$/, ''));
  } catch {
    return undefined;
  }
}

function isAnswerTo(id: unknown, chunk: Buffer): boolean {
  const message = parseLine(chunk) as { id?: unknown; result?: unknown; error?: unknown } | undefined;
  return message?.id === id && (message?.result !== undefined || message?.error !== undefined);
}

/**
 * A Node request handler for MCP over Streamable HTTP. Stateless by default: a fresh server per
 * request, which costs next to nothing because the tool surface is prepared; with `sessions`, a
 * server per client session. A request whose `Host` or `Origin` is not allowed is refused with
 * 403 before any server is made; statelessly, `initialize`, `ping` and `tools/list` are answered
 * from the prepared bytes when toolprep makes the server.
 */
export function createMcpHttpHandler(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: McpHttpOptions = {},
) {
  const sessionOptions = sessionOptionsOf(options);
  const first = options.server || sessionOptions ? undefined : firstAnswers(runtime, info, options);
  let sessions: SessionTable<StreamableHTTPServerTransport> | undefined;
  return async (request: IncomingMessage, response: ServerResponse, parsedBody?: unknown): Promise<void> => {
    const refused = refusedOrigin(request.headers, options);
    if (refused) {
      response.writeHead(403, { 'content-type': 'application/json' }).end(forbiddenBody(refused));
      return;
    }
    // The body is read here (unless given) to choose how to answer; the transport takes it parsed.
    const body = request.method === 'POST' ? (parsedBody ?? (await readJson(request))) : undefined;
    const prepared =
      first &&
      firstHttpAnswer(
        first,
        { method: request.method ?? '', header: (name) => headerOf(request, name) },
        body,
        options,
      );
    if (prepared) {
      if (prepared.body === null) response.writeHead(prepared.status).end();
      else response.writeHead(prepared.status, { 'content-type': 'application/json' }).end(prepared.body);
      return;
    }
    // Loaded on the first request that needs them: a stdio server never pays for them.
    const [{ StreamableHTTPServerTransport }, { createMcpServer }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      import('./mcp-server.js'),
    ]);
    const makeServer = () => options.server?.() ?? createMcpServer(runtime, info, options);
    if (sessionOptions) {
      const { sessionTable } = await import('./mcp-sessions.js');
      sessions ??= sessionTable(
        (transport) => new StreamableHTTPServerTransport(transport),
        sessionOptions,
        options.responses,
      );
      const routed = sessions.route(headerOf(request, 'mcp-session-id'), body);
      if ('status' in routed) {
        response.writeHead(routed.status, { 'content-type': 'application/json' }).end(routed.body);
        return;
      }
      if (routed.isNew) await makeServer().connect(routed.transport);
      await routed.transport.handleRequest(request, response, body);
      return;
    }
    const server = makeServer();
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

function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
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
  // Imported here: loading node:http costs a stdio server 5 ms at start-up.
  const { createServer } = await import('node:http');
  const server = createServer((request, response) => {
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
