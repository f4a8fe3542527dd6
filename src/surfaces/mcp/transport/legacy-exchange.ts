import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { ToolRuntime } from '../../../runtime/runner.js';
import { answersByStream } from '../legacy/first-answers.js';
import { createMcpServer } from '../legacy/sdk-v1.js';
import type { McpSessionOptions, SessionTable } from '../legacy/sessions.js';
import type { Caller } from '../service/caller-views.js';
import type { McpServerInfo } from '../service/tool-service.js';
import { JSON_HEADERS } from '../wire/jsonrpc.js';
import { type GatePass, withoutToken } from './bearer-gate.js';
import type { McpHttpOptions } from './http-options.js';
import { type HeaderRecord, type HttpPort, whenAborted } from './http-port.js';

export type LegacyExchange = <Reply>(
  port: HttpPort<Reply>,
  body: unknown,
  text: string | undefined,
  cors: HeaderRecord | undefined,
  withCors: (headers: HeaderRecord) => HeaderRecord,
  asker: GatePass | undefined,
) => Promise<Reply>;

/**
 * A 2025 request, answered by the SDK's web-standard transport on every runtime: stateless by
 * default, a fresh server per request, closed once its answer is out or the client goes (a JSON
 * answer at once, a stream when it ends); or, with `sessions`, the session's transport. With
 * `auth`, a session's server serves the view of the caller that opened it, and answers that caller
 * only (decision 0060), each request's caller reaching the handlers. This module is the SDK: it is
 * loaded on the first request that needs it, so that a server that sees no 2025 client never pays
 * for it, nor needs it installed.
 */
export function legacyExchange(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: McpHttpOptions,
  sessionOptions: McpSessionOptions | undefined,
): LegacyExchange {
  let sessions: SessionTable<WebStandardStreamableHTTPServerTransport> | undefined;
  return async (port, body, text, cors, withCors, asker) => {
    const makeServer = () => options.server?.() ?? createMcpServer(asker?.view ?? runtime, info, options);
    const request = asker ? withoutToken(port.asRequest(text), text) : port.asRequest(text);
    const authInfo = asker?.caller && authInfoOf(asker.caller);
    if (sessionOptions) {
      const { sessionTable } = await import('../legacy/sessions.js');
      sessions ??= sessionTable(
        (transport) => new WebStandardStreamableHTTPServerTransport(transport),
        sessionOptions,
        options.responses,
      );
      const routed = sessions.route(port.request.header('mcp-session-id'), body, asker?.sessionOwner);
      if ('status' in routed) return port.reply(routed.status, withCors(JSON_HEADERS), routed.body);
      if (routed.isNew) await makeServer().connect(routed.transport);
      const response = await routed.transport.handleRequest(request, {
        parsedBody: body,
        ...(authInfo && { authInfo }),
      });
      const { answered } = routed;
      if (!answered || response.body === null) {
        answered?.();
        return port.relay(response, cors);
      }
      return port.relay(endingWith(response, answered), cors);
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
    const response = await transport.handleRequest(request, {
      parsedBody: body,
      ...(authInfo && { authInfo }),
    });
    if (!stream || response.body === null) {
      close();
      return port.relay(response, cors);
    }
    return port.relay(endingWith(response, close), cors);
  };
}

/**
 * The caller as the SDK carries it to a handler's extra (`authInfo`), where `legacyContext` finds
 * it: its `token` left empty, the token having stayed at the gate.
 */
function authInfoOf(caller: Caller): AuthInfo {
  return { token: '', clientId: caller.subject, scopes: [...caller.scopes], extra: { caller } };
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
