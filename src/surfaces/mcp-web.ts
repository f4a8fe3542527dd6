import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { ToolRuntime } from '../runtime/runner.js';
import { answersByStream, firstAnswers } from './mcp-first-answers.js';
import {
  corsHeaders,
  DEFAULT_MAX_BODY_BYTES,
  type HttpRequestView,
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
import type { McpServerInfo } from './mcp-listing.js';
import { modernServing } from './mcp-modern.js';
import type { SessionTable } from './mcp-sessions.js';

export type { McpHttpOptions } from './mcp-http.js';
export type { McpServerInfo } from './mcp-listing.js';
export type { McpSessionOptions } from './mcp-sessions.js';

/**
 * MCP over Streamable HTTP as a web-standard handler, `(request: Request) => Promise<Response>`,
 * for runtimes that speak fetch (Cloudflare Workers, Deno, Bun, Vercel's edge), on the SDK's
 * web-standard transport, with the same `Host` and `Origin` checks and the same CORS as the Node
 * handler. Stateless by default, a fresh server per request, and then `initialize`, `ping` and
 * `tools/list` are answered from the prepared bytes when toolprep makes the server; with
 * `sessions`, a server per client session, in this isolate's memory. The SDK is loaded on the
 * first request that needs it. It imports nothing of Node.
 */
export function createMcpFetchHandler(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: McpHttpOptions = {},
): (request: Request) => Promise<Response> {
  const sessionOptions = sessionOptionsOf(options);
  const serving: HttpServing = {
    modern: modernServing(runtime, info, options),
    first: options.server || sessionOptions ? undefined : firstAnswers(runtime, info, options),
    options,
    preflight: preflightHeaders(runtime),
  };
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  let sessions: SessionTable<WebStandardStreamableHTTPServerTransport> | undefined;
  const answer = async (request: Request, view: HttpRequestView): Promise<Response> => {
    let body: unknown;
    let text: string | undefined;
    if (request.method === 'POST') {
      text = await readBody(request, maxBodyBytes);
      if (text === undefined) {
        const { status, body: tooLarge } = tooLargeAnswer(maxBodyBytes);
        return new Response(tooLarge, { status, headers: { 'content-type': 'application/json' } });
      }
      body = jsonOf(text);
    }
    const route = routeHttp(serving, view, body);
    if (route.kind === 'answer')
      return new Response(route.body, {
        status: route.status,
        ...(route.headers ? { headers: route.headers } : {}),
      });
    if (route.kind === 'modern-sdk') {
      const forwarded = new Request(request.url, {
        method: 'POST',
        headers: request.headers,
        body: text ?? '',
      });
      return (options.modernFeatures as ModernFeatures)(forwarded, body);
    }
    if (route.kind === 'work') {
      if (!route.stream) {
        const done = await route.work.run(() => {}, request.signal);
        return new Response(done.body, {
          status: done.status,
          headers: { 'content-type': 'application/json' },
        });
      }
      const encoder = new TextEncoder();
      const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
      const writer = writable.getWriter();
      const send = (message: string) => void writer.write(encoder.encode(sseEvent(message))).catch(() => {});
      void route.work.run(send, request.signal).then(async (done) => {
        if (done.body !== null) send(done.body);
        await writer.close().catch(() => {});
      });
      return new Response(readable, { status: 200, headers: SSE_HEADERS });
    }
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
  return async (request) => {
    // A fetch runtime's request URL carries the host the client asked for (from its Host header).
    const view = {
      method: request.method,
      host: new URL(request.url).host,
      header: (name: string) => request.headers.get(name) ?? undefined,
    };
    const response = await answer(request, view);
    const cors = corsHeaders(view, options);
    return cors ? withHeaders(response, cors) : response;
  };
}

/**
 * The response with these headers added: in place, or as a new response when its headers cannot
 * be changed (a response made by `fetch`, which a `modernFeatures` handler may return). In place
 * keeps a text body text: a copy streams it, which cost 100 µs a request.
 */
function withHeaders(response: Response, added: Readonly<Record<string, string>>): Response {
  // A `Vary` of the answer's own (your server's) is kept beside `Origin`.
  const add = (headers: Headers) => {
    for (const [name, value] of Object.entries(added))
      if (name === 'vary') headers.append(name, value);
      else headers.set(name, value);
  };
  try {
    add(response.headers);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    add(headers);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/**
 * A request's body as text, or undefined when it is over `maxBytes`: a declared length over it is
 * refused before anything is read, and a stream that outgrows it is cancelled there.
 */
async function readBody(request: Request, maxBytes: number): Promise<string | undefined> {
  if (Number(request.headers.get('content-length')) > maxBytes) return undefined;
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let length = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}
