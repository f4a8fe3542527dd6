import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRuntime } from '../runtime/runner.js';
import { answersByStream, type FirstAnswers, firstAnswers } from './mcp-first-answers.js';
import {
  corsHeaders,
  DEFAULT_MAX_BODY_BYTES,
  type HttpServing,
  jsonOf,
  type McpHttpOptions,
  type ModernFeatures,
  preflightHeaders,
  routeHttp,
  SSE_HEADERS,
  sessionOptionsOf,
  sseEvent,
  tooLargeAnswer,
} from './mcp-http.js';
import { type AttachToolsOptions, type McpServerInfo, pageTexts, resultText } from './mcp-listing.js';
import { isModernMessage, type ModernOptions, modernServing } from './mcp-modern.js';
import type { SessionTable } from './mcp-sessions.js';

export type { McpToolContext } from './mcp-context.js';
export type { McpHttpOptions } from './mcp-http.js';
export type { AttachToolsOptions, McpServerInfo } from './mcp-listing.js';
export type { ModernOptions } from './mcp-modern.js';
export type { RequestStateOptions } from './mcp-request-state.js';
export type { McpSessionOptions } from './mcp-sessions.js';
export type { HeaderReader, TaskServingOptions } from './mcp-tasks.js';

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
   * The SDK's server, which answers a 2025 session's requests past the first ones: made when a
   * request needs it, or just after the first `tools/list` has been answered. Calling this makes it now.
   */
  server(): Promise<Server>;
}

export interface StdioOptions extends ModernOptions {
  /** The longest message (one line) taken, in bytes: a longer one is refused unread. Default 10 MiB, as the SDK's. */
  readonly maxMessageBytes?: number;
}

/**
 * Serves the tools over stdio (the process's stdin and stdout), in both protocol eras. A 2026-07-28
 * request (its `_meta` names the version) is answered on its own by toolprep, without the SDK. A
 * 2025 session's `initialize`, `ping` and `tools/list` are answered from the prepared bytes before
 * the SDK loads; the SDK's server then takes the session over, having been given the client's
 * `initialize` as if it had answered it.
 */
export async function serveStdio(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: StdioOptions = {},
): Promise<StdioServing> {
  const { stdin, stdout } = process;
  const modern = modernServing(runtime, info, options);
  const first = firstAnswers(runtime, info, options);
  const legacy = legacyStdio(first, (input, output) => connectStdio(runtime, info, options, input, output));
  if (!first) await legacy.server();
  const running = new Map<unknown, AbortController>();
  const write = (text: string) => stdout.write(`${text}\n`);

  const take = (line: Buffer) => {
    const message = parseLine(line);
    // A cancellation names a request; a 2026-07-28 one is stopped here, a session's by the SDK.
    const cancelled = cancelledRequest(message);
    if (cancelled !== undefined && running.has(cancelled)) {
      running.get(cancelled)?.abort();
      running.delete(cancelled);
      return;
    }
    // What is not JSON goes to the SDK too, which answers it as it always has.
    if (!isModernMessage(message)) {
      legacy.take(line, message);
      return;
    }
    const answer = modern.accept(message);
    if (!('run' in answer)) {
      if (answer.body !== null) write(answer.body);
      return;
    }
    const id = (message as { id: unknown }).id;
    const controller = new AbortController();
    running.set(id, controller);
    void answer.run(write, controller.signal).then((done) => {
      running.delete(id);
      // A cancelled request is not answered.
      if (!controller.signal.aborted && done.body !== null) write(done.body);
    });
  };
  stdin.on(
    'data',
    lineReader(options.maxMessageBytes ?? 10 * 1024 * 1024, take, (limit) =>
      write(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: `Invalid Request: a message must not exceed ${limit} bytes` },
        }),
      ),
    ),
  );
  return { server: legacy.server };
}

function cancelledRequest(message: unknown): unknown {
  const { method, params } = (message ?? {}) as { method?: unknown; params?: { requestId?: unknown } };
  return method === 'notifications/cancelled' ? params?.requestId : undefined;
}

/**
 * Splits a stream into lines, each byte looked at once, however the chunks fall. A line longer
 * than `maxBytes` is refused as soon as it is (`tooLong`), and the rest of it skipped unkept.
 */
export function lineReader(
  maxBytes: number,
  line: (line: Buffer) => void,
  tooLong: (maxBytes: number) => void,
): (chunk: Buffer) => void {
  let parts: Buffer[] = [];
  let length = 0;
  let skipping = false;
  return (chunk) => {
    let start = 0;
    for (let end = chunk.indexOf(10, start); end !== -1; end = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, end);
      start = end + 1;
      const wasSkipping = skipping;
      const whole = length + piece.length;
      const kept = parts;
      parts = [];
      length = 0;
      skipping = false;
      if (wasSkipping) continue;
      if (whole > maxBytes) tooLong(maxBytes);
      else line(kept.length === 0 ? piece : Buffer.concat([...kept, piece]));
    }
    const rest = chunk.subarray(start);
    if (skipping || rest.length === 0) return;
    if (length + rest.length > maxBytes) {
      parts = [];
      length = 0;
      skipping = true;
      tooLong(maxBytes);
      return;
    }
    parts.push(rest);
    length += rest.length;
  };
}

interface LegacyStdio {
  /** Takes a 2025 session's message (the line as read): answered from the prepared bytes, or given to the SDK. */
  take(line: Buffer, message: unknown): void;
  server(): Promise<Server>;
}

/**
 * A 2025 session over stdio: the first messages are answered from the prepared bytes while they
 * can be; the first message that needs the SDK (or the first `tools/list` answered) starts loading
 * it. When it is connected, it is given, in order, every message it must know of (the answered
 * `initialize` among them, whose answer it then writes and is taken back, since the client has it),
 * then each message as it comes.
 */
function legacyStdio(
  first: FirstAnswers | undefined,
  connect: (input: Readable, output: Writable) => Promise<Server>,
): LegacyStdio {
  const { stdout } = process;
  const forTheSdk: Buffer[] = [];
  let input: Writable | undefined;
  let sdkNeeded = !first;
  /** The `initialize` answer already sent, until the SDK's own is taken back. */
  let sentInitialize: { id: unknown; text: string } | undefined;

  let handover: Promise<Server> | undefined;
  const handOver = (): Promise<Server> => {
    handover ??= (async () => {
      // Imported here: loading node:stream costs 4 ms at start-up.
      const { PassThrough, Writable } = await import('node:stream');
      const sdkInput = new PassThrough();
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
      const server = await connect(sdkInput, output);
      for (const line of forTheSdk) sdkInput.write(line);
      forTheSdk.length = 0;
      input = sdkInput;
      return server;
    })();
    return handover;
  };

  return {
    server: handOver,
    take(line, message) {
      const withNewline = Buffer.concat([line, NEWLINE]);
      if (input) {
        input.write(withNewline);
        return;
      }
      const answer = sdkNeeded || !first ? undefined : first.answer(message);
      // Only one initialize is answered here; the SDK answers any other.
      if (answer === undefined || (answer.kind === 'answer' && answer.replay && sentInitialize)) {
        forTheSdk.push(withNewline);
        sdkNeeded = true;
        void handOver();
        return;
      }
      if (answer.kind === 'answer') stdout.write(`${answer.text}\n`);
      if (answer.kind === 'replay' || answer.replay) forTheSdk.push(withNewline);
      if (answer.kind === 'answer' && answer.replay)
        sentInitialize = { id: (message as { id: unknown }).id, text: answer.text };
      // Loaded once the tools are listed, between the first answers and the first call.
      else if ((message as { method?: unknown }).method === 'tools/list' && handover === undefined)
        setImmediate(handOver);
    },
  };
}

const NEWLINE = Buffer.from('\n');

/** A line of stdin as the SDK's reader takes it (a carriage return dropped). */
function parseLine(line: Buffer): unknown {
  try {
    return JSON.parse(line.toString('utf8').replace(/\r?\n?$/, ''));
  } catch {
    return undefined;
  }
}

function isAnswerTo(id: unknown, chunk: Buffer): boolean {
  const message = parseLine(chunk) as { id?: unknown; result?: unknown; error?: unknown } | undefined;
  return message?.id === id && (message?.result !== undefined || message?.error !== undefined);
}

/**
 * A Node request handler for MCP over Streamable HTTP, in both protocol eras. A 2026-07-28 request
 * is answered by toolprep on its own (nothing is kept between requests, so any number of processes
 * serve behind a load balancer). A 2025 request is the SDK's: stateless by default, a fresh server
 * per request (`initialize`, `ping` and `tools/list` answered from the prepared bytes when toolprep
 * makes the server), or with `sessions`, a server per client session. A request whose `Host` or
 * `Origin` is not allowed is refused with 403, and a body over `maxBodyBytes` with 413, unread. A
 * browser on an allowed origin gets its preflight answered and CORS headers on every answer.
 */
export function createMcpHttpHandler(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: McpHttpOptions = {},
) {
  const sessionOptions = sessionOptionsOf(options);
  const serving: HttpServing = {
    modern: modernServing(runtime, info, options),
    first: options.server || sessionOptions ? undefined : firstAnswers(runtime, info, options),
    options,
    preflight: preflightHeaders(runtime),
  };
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  let sessions: SessionTable<StreamableHTTPServerTransport> | undefined;
  return async (request: IncomingMessage, response: ServerResponse, parsedBody?: unknown): Promise<void> => {
    const view = {
      method: request.method ?? '',
      host: headerOf(request, 'host') ?? '',
      header: (name: string) => headerOf(request, name),
    };
    // Set before anything is written: every answer gets them, the SDK's own included.
    const cors = corsHeaders(view, options);
    if (cors) for (const [name, value] of Object.entries(cors)) response.setHeader(name, value);
    let body = parsedBody;
    let text = parsedBody === undefined ? undefined : JSON.stringify(parsedBody);
    if (request.method === 'POST' && parsedBody === undefined) {
      text = await readBody(request, maxBodyBytes);
      if (text === undefined) {
        const { status, body: tooLarge } = tooLargeAnswer(maxBodyBytes);
        // The rest is not read: the connection closes once the answer is out.
        response.writeHead(status, { 'content-type': 'application/json', connection: 'close' }).end(tooLarge);
        return;
      }
      body = jsonOf(text);
    }
    const route = routeHttp(serving, view, body);
    if (route.kind === 'answer') {
      response.writeHead(route.status, route.headers).end(route.body ?? undefined);
      return;
    }
    if (route.kind === 'modern-sdk') {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers))
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      const answer = await (options.modernFeatures as ModernFeatures)(
        new Request(`http://${view.host}${request.url ?? '/'}`, {
          method: 'POST',
          headers,
          body: text ?? '',
        }),
        body,
      );
      response.writeHead(answer.status, Object.fromEntries(answer.headers));
      if (answer.body) for await (const chunk of answer.body) response.write(chunk);
      response.end();
      return;
    }
    if (route.kind === 'work') {
      const controller = new AbortController();
      response.on('close', () => {
        if (!response.writableFinished) controller.abort();
      });
      if (!route.stream) {
        const done = await route.work.run(() => {}, controller.signal);
        response.writeHead(done.status, { 'content-type': 'application/json' }).end(done.body);
        return;
      }
      response.writeHead(200, SSE_HEADERS);
      const done = await route.work.run((message) => response.write(sseEvent(message)), controller.signal);
      response.end(done.body === null ? undefined : sseEvent(done.body));
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

/**
 * A request's body as text, or undefined when it is over `maxBytes`: a declared length over it is
 * refused before anything is read, and a stream that outgrows it is left unread from there on.
 */
async function readBody(request: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  if (Number(request.headers['content-length']) > maxBytes) return undefined;
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request) {
    length += (chunk as Buffer).length;
    if (length > maxBytes) {
      request.pause();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
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
