import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ToolRuntime } from '../runtime/runner.js';
import { type AnswerMode, type FirstAnswers, firstHttpAnswer } from './mcp-first-answers.js';
import { type AttachToolsOptions, servingOf } from './mcp-listing.js';
import {
  isModernMessage,
  type ModernOptions,
  type ModernServing,
  type ModernWork,
  TASK_METHODS,
} from './mcp-modern.js';
import type { McpSessionOptions } from './mcp-sessions.js';

/**
 * What serving MCP over HTTP needs on every runtime: the options, the `Host` and `Origin` checks,
 * CORS, how an answer is sent. It imports nothing of Node.
 */

export interface McpHttpOptions extends AttachToolsOptions, ModernOptions {
  /** The largest request body read, in bytes: a larger one is answered 413, unread. Default 4 MiB, as the SDK's. */
  readonly maxBodyBytes?: number;
  /**
   * The `Host` names (or `name:port`) requests may carry. Default: loopback only (`localhost`,
   * `127.0.0.1`, `[::1]`, any port), as the MCP specification asks of a local server against DNS
   * rebinding. Name your public host names when the server is reached through them: the list
   * replaces the default, so name `localhost` too to reach the server locally (decision 0026).
   */
  readonly allowedHosts?: readonly string[];
  /**
   * The `Origin`s (`https://app.example.com`) a browser request may come from; their answers carry
   * the CORS headers a browser needs, and their preflights are answered. Default: loopback (any
   * scheme and port). The list replaces the default.
   */
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
    return `host "${host}" is not allowed (allowedHosts: ${hosts.join(', ')})${replacedLoopback(options.allowedHosts, hostname)}`;
  const { origin } = headers;
  if (origin === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `origin "${origin}" is not a URL`;
  }
  const originHost = url.hostname.toLowerCase();
  const allowed = options.allowedOrigins
    ? options.allowedOrigins.includes(url.origin)
    : LOOPBACK.includes(originHost);
  return allowed
    ? undefined
    : `origin "${origin}" is not allowed (allowedOrigins: ${options.allowedOrigins?.join(', ') ?? 'loopback'})${replacedLoopback(options.allowedOrigins, originHost)}`;
}

/** What a refusal of a loopback name adds when a list was named: the list replaced the default. */
function replacedLoopback(named: readonly string[] | undefined, hostname: string): string {
  return named && LOOPBACK.includes(hostname)
    ? ' — a named list replaces the loopback default: name this one too to reach the server locally'
    : '';
}

/** The request headers of MCP over HTTP (both eras, and the official clients' auth), for a preflight. */
const MCP_REQUEST_HEADERS = [
  'content-type',
  'accept',
  'authorization',
  'dpop',
  'mcp-protocol-version',
  'mcp-session-id',
  'last-event-id',
  'mcp-method',
  'mcp-name',
];

/** The methods both eras take: 2026-07-28 POSTs only; a 2025 session also GETs its stream and DELETEs itself. */
const MCP_METHODS = 'POST, GET, DELETE, OPTIONS';

/**
 * The answer headers a browser script may read: the session (2025), the version, and what
 * authorization asks (`WWW-Authenticate`, and the DPoP nonce the SDK v2 client reads).
 */
const EXPOSED_HEADERS = 'mcp-session-id, mcp-protocol-version, www-authenticate, dpop-nonce';

/** How long a browser may keep a preflight's answer: two hours, the most Chromium keeps one. */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/**
 * The headers of the answer to a preflight from an allowed origin, made once per handler: the
 * MCP request headers and the `Mcp-Param-*` headers the tools mirror their arguments into
 * (2026-07-28, `x-mcp-header`), which a browser sends only once a preflight allowed them.
 */
export function preflightHeaders(runtime: ToolRuntime): Readonly<Record<string, string>> {
  const mirrored = [...servingOf(runtime).mirrored.values()].flatMap((headers) =>
    headers.map(({ header }) => `mcp-param-${header.toLowerCase()}`),
  );
  return {
    'access-control-allow-methods': MCP_METHODS,
    'access-control-allow-headers': [...new Set([...MCP_REQUEST_HEADERS, ...mirrored])].join(', '),
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
  };
}

/**
 * The CORS headers every answer to this request carries: for a browser on an allowed origin (and
 * an allowed host), its origin echoed, `Vary: Origin`, and the headers it may read; nothing
 * without an `Origin` or for a refused one (which is answered 403 without them).
 */
export function corsHeaders(
  request: Pick<HttpRequestView, 'host' | 'header'>,
  options: McpHttpOptions,
): Readonly<Record<string, string>> | undefined {
  const origin = request.header('origin');
  if (origin === undefined || refusedOrigin({ host: request.host, origin }, options)) return undefined;
  return {
    'access-control-allow-origin': origin,
    vary: 'Origin',
    'access-control-expose-headers': EXPOSED_HEADERS,
  };
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

/** The methods toolprep answers itself on 2026-07-28 even when `modernFeatures` are given: the tools, and their tasks. */
const OWN_MODERN_METHODS = new Set(['tools/list', 'tools/call', ...TASK_METHODS]);

export interface HttpServing {
  readonly modern: ModernServing;
  /** The prepared 2025 answers, when toolprep makes the server and serves statelessly. */
  readonly first?: FirstAnswers | undefined;
  readonly options: McpHttpOptions;
  /** What a preflight from an allowed origin is answered with (`preflightHeaders`). */
  readonly preflight: Readonly<Record<string, string>>;
}

const JSON_HEADERS = { 'content-type': 'application/json' } as const;

/**
 * The one routing of the Node and the fetch handlers: a request whose `Host` or `Origin` is not
 * allowed is refused (403), a preflight from another origin among them; an `OPTIONS` is answered
 * 204 with the methods (and, from an allowed origin, what its preflight asks); a 2026-07-28
 * request is toolprep's to answer, a POST only (405 otherwise); a 2025 request is answered from
 * the prepared bytes when they hold its answer, and by the SDK otherwise. The CORS headers of every
 * answer are the handlers' (`corsHeaders`), since the SDK writes some answers itself.
 */
export function routeHttp(serving: HttpServing, request: HttpRequestView, body: unknown): HttpRoute {
  const { options } = serving;
  const origin = request.header('origin');
  const refused = refusedOrigin({ host: request.host, origin }, options);
  if (refused) return { kind: 'answer', status: 403, body: forbiddenBody(refused), headers: JSON_HEADERS };
  if (request.method === 'OPTIONS')
    return {
      kind: 'answer',
      status: 204,
      body: null,
      headers: origin === undefined ? { allow: MCP_METHODS } : { allow: MCP_METHODS, ...serving.preflight },
    };
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
