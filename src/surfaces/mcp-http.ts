import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type AnswerMode, type FirstAnswers, firstHttpAnswer } from './mcp-first-answers.js';
import type { AttachToolsOptions } from './mcp-listing.js';
import { isModernMessage, type ModernOptions, type ModernServing, type ModernWork } from './mcp-modern.js';
import type { McpSessionOptions } from './mcp-sessions.js';

/**
 * What serving MCP over HTTP needs on every runtime: the options, the `Host` and `Origin` checks,
 * how an answer is sent. It imports nothing of Node.
 */

export interface McpHttpOptions extends AttachToolsOptions, ModernOptions {
  /** The largest request body read, in bytes: a larger one is answered 413, unread. Default 4 MiB, as the SDK's. */
  readonly maxBodyBytes?: number;
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
  readonly responses?: AnswerMode;
  /**
   * The server each request is answered by, for a server with more than tools (resources,
   * prompts, logging, completions): made per request (per session with `sessions`), with the
   * tools attached (`attachTools`). Default: `createMcpServer(runtime, info, options)`.
   */
  readonly server?: () => Server;
  /**
   * What answers the 2026-07-28 requests toolprep does not answer itself — `server/discover` (with
   * your capabilities), resources, prompts, completions, subscriptions — on an SDK v2 server of
   * yours: `modernFeatures: featureHandler(runtime, () => myMcpServer())` from `toolprep/mcp/v2`.
   * `tools/list` and `tools/call` stay toolprep's own. Without it, those methods are `-32601` to a
   * 2026-07-28 client. (`server` is the same for 2025 sessions, on SDK v1.)
   */
  readonly modernFeatures?: ModernFeatures;
  /**
   * Keep a session per client (`Mcp-Session-Id`) instead of answering each request on its own:
   * what a server that asks the client something (elicitation, sampling) or sends notifications
   * outside a request needs. Sessions live in this process's memory; answers go as streams unless
   * `responses` is `json` (and then a handler's notifications and questions cannot reach the
   * client). `true`, or the options of the sessions' streams.
   */
  readonly sessions?: boolean | McpSessionOptions;
}

/** The options of the sessions' transports, when sessions are on. */
export function sessionOptionsOf(options: McpHttpOptions): McpSessionOptions | undefined {
  const { sessions } = options;
  if (!sessions) return undefined;
  return sessions === true ? {} : sessions;
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

/** What the routing reads of an HTTP request, whichever runtime's request it is. */
export interface HttpRequestView {
  readonly method: string;
  /** The host the client asked for (`Host`, or a fetch request's URL host). */
  readonly host: string;
  header(name: string): string | undefined;
}

/** Where an HTTP request goes: an answer to send, a 2026-07-28 call to run, or the SDK (2025). */
export type HttpRoute =
  | {
      readonly kind: 'answer';
      readonly status: number;
      readonly body: string | null;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'work'; readonly work: ModernWork; readonly stream: boolean }
  /** A 2026-07-28 request for `modernFeatures`. */
  | { readonly kind: 'modern-sdk' }
  | { readonly kind: 'sdk' };

/** A web handler for 2026-07-28 requests, given the request with its body and the body parsed. */
export type ModernFeatures = (request: Request, parsedBody: unknown) => Promise<Response>;

/** The methods toolprep answers itself on 2026-07-28 even when `modernFeatures` are given. */
const OWN_MODERN_METHODS = new Set(['tools/list', 'tools/call']);

export interface HttpServing {
  readonly modern: ModernServing;
  /** The prepared 2025 answers, when toolprep makes the server and serves statelessly. */
  readonly first?: FirstAnswers | undefined;
  readonly options: McpHttpOptions;
}

const JSON_HEADERS = { 'content-type': 'application/json' } as const;

/**
 * The one routing of the Node and the fetch handlers: a request whose `Host` or `Origin` is not
 * allowed is refused (403); a 2026-07-28 request is toolprep's to answer, a POST only (405
 * otherwise); a 2025 request is answered from the prepared bytes when they hold its answer, and
 * by the SDK otherwise.
 */
export function routeHttp(serving: HttpServing, request: HttpRequestView, body: unknown): HttpRoute {
  const { options } = serving;
  const refused = refusedOrigin({ host: request.host, origin: request.header('origin') }, options);
  if (refused) return { kind: 'answer', status: 403, body: forbiddenBody(refused), headers: JSON_HEADERS };
  if (!Array.isArray(body) && isModernMessage(body, request.header('mcp-protocol-version')?.trim())) {
    if (request.method !== 'POST')
      return {
        kind: 'answer',
        status: 405,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32000, message: 'Method not allowed: 2026-07-28 requests are POSTs' },
        }),
        headers: { ...JSON_HEADERS, allow: 'POST' },
      };
    const method = (body as { method?: unknown } | undefined)?.method;
    if (options.modernFeatures && !(typeof method === 'string' && OWN_MODERN_METHODS.has(method)))
      return { kind: 'modern-sdk' };
    const answer = serving.modern.accept(body, request.header);
    if (!('run' in answer))
      return {
        kind: 'answer',
        status: answer.status,
        body: answer.body,
        ...(answer.body === null ? {} : { headers: JSON_HEADERS }),
      };
    const responses = options.responses ?? 'auto';
    return {
      kind: 'work',
      work: answer,
      stream: responses === 'sse' || (responses === 'auto' && answer.notifies),
    };
  }
  const prepared = serving.first && firstHttpAnswer(serving.first, request, body, options.responses);
  if (prepared)
    return {
      kind: 'answer',
      status: prepared.status,
      body: prepared.body,
      ...(prepared.body === null ? {} : { headers: JSON_HEADERS }),
    };
  return { kind: 'sdk' };
}

/** The body limit of the HTTP handlers: the SDK's default, 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The answer to a body over the limit, as the SDK words it. */
export function tooLargeAnswer(maxBytes: number): { status: 413; body: string } {
  return {
    status: 413,
    body: JSON.stringify({
      jsonrpc: '2.0',
      error: { code: -32000, message: `Payload Too Large: Request body must not exceed ${maxBytes} bytes` },
      id: null,
    }),
  };
}

/** A body as JSON; what is not JSON is undefined (the SDK or the 2026 routing refuses it). */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An SSE event carrying one JSON-RPC message. */
export function sseEvent(message: string): string {
  return `event: message\ndata: ${message}\n\n`;
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
} as const;
