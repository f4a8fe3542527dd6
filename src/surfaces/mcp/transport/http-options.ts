import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AnswerMode } from '../legacy/first-answers.js';
import type { McpSessionOptions } from '../legacy/sessions.js';
import type { ModernOptions } from '../modern/method-table.js';
import type { ToolService } from '../service/tool-service.js';
import type { McpAuthOptions } from './auth-options.js';

/**
 * What serving MCP over HTTP asks of a request on every runtime: the options, the `Host` and
 * `Origin` checks, CORS and the body limit. It imports nothing of Node.
 */

export interface McpHttpOptions extends ModernOptions {
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
  /**
   * Serve each group of the tools at its own endpoint, a path ending in `/mcp/<group>` (as Google's
   * MCP Toolbox does), listing and calling that group's tools only, on both eras; any other path
   * serves every tool, and `/mcp/<name>` for a name that is no group is 404. Default false: a path
   * is a public surface the author opens (decision 0046).
   */
  readonly groupEndpoints?: boolean;
  /**
   * Serve as an OAuth resource server: every request needs a bearer token (a JWT verified against
   * `issuer`'s keys, or your own `verify`), each caller lists and calls only the tools its scopes
   * allow, and the protected resource metadata is served at `/.well-known/oauth-protected-resource`
   * (docs/guide/who-may-call-what.md). Default: none, and then no tool may ask for scopes.
   */
  readonly auth?: McpAuthOptions;
}

/** A web handler for the 2026-07-28 requests toolprep does not answer, given the request and its parsed body. */
export type ModernFeatures = (request: Request, parsedBody: unknown) => Promise<Response>;

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
export const MCP_METHODS = 'POST, GET, DELETE, OPTIONS';

/**
 * The answer headers a browser script may read: the session (2025), the version, and what
 * authorization asks (`WWW-Authenticate`, and the DPoP nonce the SDK v2 client reads).
 */
const EXPOSED_HEADERS = 'mcp-session-id, mcp-protocol-version, www-authenticate, dpop-nonce, retry-after';

/** How long a browser may keep a preflight's answer: two hours, the most Chromium keeps one. */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/**
 * The headers of the answer to a preflight from an allowed origin, made once per handler: the
 * MCP request headers and the `Mcp-Param-*` headers the tools mirror their arguments into
 * (2026-07-28, `x-mcp-header`), which a browser sends only once a preflight allowed them.
 */
export function preflightHeaders(service: ToolService): Readonly<Record<string, string>> {
  const mirrored = [...service.mirrored.values()].flatMap((headers) =>
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

/** What the routing reads of an HTTP request, whichever runtime's request it is. */
export interface HttpRequestView {
  readonly method: string;
  /** The request's path, without its query. */
  readonly path: string;
  /** The host the client asked for (`Host`, or a fetch request's URL host). */
  readonly host: string;
  header(name: string): string | undefined;
}

/** The body limit of the HTTP handlers: the SDK's default, 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
