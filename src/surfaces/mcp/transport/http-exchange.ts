import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { ToolRuntime } from '../../../runtime/runner.js';
import { failureOf, logError } from '../../../shared/run/on-error.js';
import {
  answersByStream,
  type FirstAnswers,
  firstAnswers,
  firstHttpAnswer,
} from '../legacy/first-answers.js';
import type { McpSessionOptions, SessionTable } from '../legacy/sessions.js';
import { type ModernServing, modernServing } from '../modern/server.js';
import { type McpServerInfo, toolServiceOf } from '../service/tool-service.js';
import { isModernMessage } from '../wire/envelope.js';
import {
  ERRORS,
  errorText,
  type Id,
  idOf,
  JSON_HEADERS,
  jsonOf,
  SSE_HEADERS,
  sdkErrorText,
  sseEvent,
  TRANSPORT_ERROR,
} from '../wire/jsonrpc.js';
import {
  corsHeaders,
  DEFAULT_MAX_BODY_BYTES,
  type HttpRequestView,
  MCP_METHODS,
  type McpHttpOptions,
  preflightHeaders,
  refusedOrigin,
  sessionOptionsOf,
} from './http-options.js';

/**
 * One HTTP exchange for every runtime: what a request is (refused, a preflight, a 2026-07-28
 * request toolprep answers, one for the user's feature server, a 2025 one answered from the
 * prepared bytes or by the SDK) and how its answer is sent, decided once. The Node handler and the
 * fetch handler are ports: each says how to read a body, reply, stream and relay a `Response` on
 * its runtime, and nothing else. The teardown rule is one: the port's `signal` aborts when the
 * client goes, and everything the exchange started for the request (a call, a listen stream, the
 * feature server's answer, a 2025 server) ends with it.
 */

type HeaderRecord = Readonly<Record<string, string>>;

/** What the exchange asks of a runtime's request and response. */
export interface HttpPort<Reply> {
  readonly request: HttpRequestView;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /** The body as text, or undefined when it is over `maxBytes` (then left unread). */
  readBody(maxBytes: number): Promise<string | undefined>;
  /** The request as a fetch `Request` with this body, its signal the port's. */
  asRequest(body: string | undefined): Request;
  reply(status: number, headers: HeaderRecord, body: string | null): Reply;
  /** An SSE answer: `send` writes an event, `end` closes the stream. */
  stream(headers: HeaderRecord): { send(event: string): void; end(): void; readonly reply: Reply };
  /** A `Response` made by the SDK or a feature server, with these headers added. */
  relay(response: Response, headers: HeaderRecord | undefined): Reply | Promise<Reply>;
}

type HttpExchange = <Reply>(port: HttpPort<Reply>, parsedBody?: unknown) => Promise<Reply>;

/** The exchange of a runtime's tools over HTTP, its serving made once per handler. */
export function httpExchange(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: McpHttpOptions,
): HttpExchange {
  const sessionOptions = sessionOptionsOf(options);
  const modern = modernServing(runtime, info, options);
  // The prepared 2025 answers, when toolprep makes the server and serves statelessly.
  const first = options.server || sessionOptions ? undefined : firstAnswers(runtime, info, options);
  const preflight = preflightHeaders(toolServiceOf(runtime));
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const onerror = options.onerror ?? logError;
  const legacy = legacyExchange(runtime, info, options, sessionOptions);

  return async (port, parsedBody) => {
    const cors = corsHeaders(port.request, options);
    const withCors = (headers: HeaderRecord): HeaderRecord => (cors ? { ...headers, ...cors } : headers);
    try {
      return await answer(port, parsedBody, cors, withCors);
    } catch (error) {
      // The client learns that the server failed, not how: the error may name paths and hosts.
      onerror(failureOf('an MCP request failed inside the server', error));
      return port.reply(
        ERRORS.internal.status,
        withCors(JSON_HEADERS),
        sdkErrorText(ERRORS.internal.code, 'Internal error'),
      );
    }
  };

  async function answer<Reply>(
    port: HttpPort<Reply>,
    parsedBody: unknown,
    cors: HeaderRecord | undefined,
    withCors: (headers: HeaderRecord) => HeaderRecord,
  ): Promise<Reply> {
    const { request } = port;
    let body = parsedBody;
    let text = parsedBody === undefined ? undefined : JSON.stringify(parsedBody);
    if (request.method === 'POST' && parsedBody === undefined) {
      text = await port.readBody(maxBodyBytes);
      if (text === undefined)
        return port.reply(
          413,
          withCors(JSON_HEADERS),
          sdkErrorText(
            TRANSPORT_ERROR,
            `Payload Too Large: Request body must not exceed ${maxBodyBytes} bytes`,
          ),
        );
      body = jsonOf(text);
    }
    const route = routeOf(modern, first, options, preflight, request, body);
    if (route.kind === 'answer') return port.reply(route.status, withCors(route.headers), route.body);
    if (route.kind === 'features') {
      const features = options.modernFeatures as NonNullable<McpHttpOptions['modernFeatures']>;
      return port.relay(await features(port.asRequest(text), body), cors);
    }
    if (route.kind === 'legacy') return legacy(port, body, text, cors, withCors);
    const work = modern.accept(body, request.header);
    if (!('run' in work))
      return port.reply(work.status, withCors(work.body === null ? {} : JSON_HEADERS), work.body);
    const responses = options.responses ?? 'auto';
    if (!(responses === 'sse' || (responses === 'auto' && work.notifies))) {
      const done = await work.run(() => {}, port.signal);
      return port.reply(done.status, withCors(JSON_HEADERS), done.body);
    }
    const stream = port.stream(withCors(SSE_HEADERS));
    const id = idOf(body as Record<string, unknown>) as Id;
    work
      .run((message) => stream.send(sseEvent(message)), port.signal)
      .then(
        (done) => {
          if (done.body !== null) stream.send(sseEvent(done.body));
        },
        (error: unknown) => {
          onerror(failureOf('an MCP request failed inside the server', error));
          stream.send(sseEvent(errorText(id, { code: ERRORS.internal.code, message: 'Internal error' })));
        },
      )
      .finally(() => stream.end());
    return stream.reply;
  }
}

/** Where a request goes: an answer to send now, toolprep's 2026-07-28 serving, the user's features, or the SDK (2025). */
type Route =
  | {
      readonly kind: 'answer';
      readonly status: number;
      readonly body: string | null;
      readonly headers: HeaderRecord;
    }
  | { readonly kind: 'modern' }
  | { readonly kind: 'features' }
  | { readonly kind: 'legacy' };

/**
 * A request whose `Host` or `Origin` is not allowed is refused (403), a preflight from another
 * origin among them; an `OPTIONS` is answered 204 with the methods (and, from an allowed origin,
 * what its preflight asks); a 2026-07-28 request is toolprep's to answer (or the user's feature
 * server's, for the methods toolprep's table leaves to it), a POST only (405 otherwise); a 2025
 * request is answered from the prepared bytes when they hold its answer, and by the SDK otherwise.
 */
function routeOf(
  modern: ModernServing,
  first: FirstAnswers | undefined,
  options: McpHttpOptions,
  preflight: HeaderRecord,
  request: HttpRequestView,
  body: unknown,
): Route {
  const origin = request.header('origin');
  const refused = refusedOrigin({ host: request.host, origin }, options);
  if (refused) return transportError(403, `Forbidden: ${refused}`, {});
  if (request.method === 'OPTIONS')
    return {
      kind: 'answer',
      status: 204,
      body: null,
      headers: origin === undefined ? { allow: MCP_METHODS } : { allow: MCP_METHODS, ...preflight },
    };
  if (!Array.isArray(body) && isModernMessage(body, request.header('mcp-protocol-version')?.trim())) {
    if (request.method !== 'POST')
      return transportError(405, 'Method not allowed: 2026-07-28 requests are POSTs', { allow: 'POST' });
    if (options.modernFeatures && modern.yields((body as { method?: unknown } | undefined)?.method))
      return { kind: 'features' };
    return { kind: 'modern' };
  }
  const prepared = first && firstHttpAnswer(first, request, body, options.responses);
  if (prepared)
    return {
      kind: 'answer',
      status: prepared.status,
      body: prepared.body,
      headers: prepared.body === null ? {} : JSON_HEADERS,
    };
  return { kind: 'legacy' };
}

/** A refusal as the SDKs' transports word theirs. */
function transportError(status: number, message: string, headers: HeaderRecord): Route {
  return {
    kind: 'answer',
    status,
    body: sdkErrorText(TRANSPORT_ERROR, message),
    headers: { ...JSON_HEADERS, ...headers },
  };
}

type LegacyExchange = <Reply>(
  port: HttpPort<Reply>,
  body: unknown,
  text: string | undefined,
  cors: HeaderRecord | undefined,
  withCors: (headers: HeaderRecord) => HeaderRecord,
) => Promise<Reply>;

/**
 * A 2025 request, answered by the SDK's web-standard transport on every runtime: stateless by
 * default, a fresh server per request, closed once its answer is out or the client goes (a JSON
 * answer at once, a stream when it ends); or, with `sessions`, the session's transport. The SDK
 * is loaded on the first request that needs it: a server that sees no 2025 client never pays for it.
 */
function legacyExchange(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: McpHttpOptions,
  sessionOptions: McpSessionOptions | undefined,
): LegacyExchange {
  let sessions: SessionTable<WebStandardStreamableHTTPServerTransport> | undefined;
  return async (port, body, text, cors, withCors) => {
    const [{ WebStandardStreamableHTTPServerTransport }, { createMcpServer }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
      import('../legacy/sdk-v1.js'),
    ]);
    const makeServer = () => options.server?.() ?? createMcpServer(runtime, info, options);
    const request = port.asRequest(text);
    if (sessionOptions) {
      const { sessionTable } = await import('../legacy/sessions.js');
      sessions ??= sessionTable(
        (transport) => new WebStandardStreamableHTTPServerTransport(transport),
        sessionOptions,
        options.responses,
      );
      const routed = sessions.route(port.request.header('mcp-session-id'), body);
      if ('status' in routed) return port.reply(routed.status, withCors(JSON_HEADERS), routed.body);
      if (routed.isNew) await makeServer().connect(routed.transport);
      return port.relay(await routed.transport.handleRequest(request, { parsedBody: body }), cors);
    }
    const server = makeServer();
    const stream = answersByStream(body, options.responses);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !stream,
    });
    let closed = false;
    // Closing the server aborts the handlers it is running: the client going ends the call.
    const close = () => {
      if (closed) return;
      closed = true;
      void transport.close().then(() => server.close());
    };
    whenAborted(port.signal, close);
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: body });
    if (!stream || response.body === null) {
      close();
      return port.relay(response, cors);
    }
    return port.relay(endingWith(response, close), cors);
  };
}

/** Runs `then` when the signal aborts, or now if it has. */
export function whenAborted(signal: AbortSignal, then: () => void): void {
  if (signal.aborted) then();
  else signal.addEventListener('abort', then, { once: true });
}

/** The response, with `onEnd` called once its body has been read to the end or cancelled. */
function endingWith(response: Response, onEnd: () => void): Response {
  const body = (response.body as ReadableStream<Uint8Array>).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({ flush: onEnd }),
  );
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** Adds headers to a response's: `Vary` beside the answer's own, the rest set. */
export function addHeaders(headers: Headers, added: HeaderRecord): void {
  for (const [name, value] of Object.entries(added))
    if (name === 'vary') headers.append(name, value);
    else headers.set(name, value);
}
