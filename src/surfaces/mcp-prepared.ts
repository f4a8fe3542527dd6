import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ListToolsResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import { HANDSHAKE_PLACEHOLDERS, type PreparedHandshake } from '../manifest/tool-set.js';
import type { ToolRuntime } from '../runtime/runner.js';
import { isRecord } from '../shared/is-record.js';
import type { McpSessionOptions } from './mcp-sessions.js';

/**
 * What serving MCP needs that the SDK does not: the `tools/list` pages built from the prepared
 * documents, the first answers of a connection from the handshake captured at build time, and the
 * HTTP checks. It imports nothing of the SDK (types only) and nothing of Node, so that a server can
 * answer `initialize`, `ping` and `tools/list` before the SDK loads, on any runtime.
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

export function servingOf(runtime: ToolRuntime): Serving {
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

/** The page of `tools/list` that starts at `start`, built once. */
export function pageOf(serving: Serving, pageSize: number, start: number): ListToolsResult {
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

/** Where the page a cursor names starts, or undefined for a cursor no page gave. */
export function startOf(serving: Serving, cursor: string | undefined): number | undefined {
  if (cursor === undefined) return 0;
  let start: number;
  try {
    start = Number.parseInt(atob(cursor.replace(/-/g, '+').replace(/_/g, '/')), 10);
  } catch {
    return undefined;
  }
  return Number.isInteger(start) && start >= 0 && start <= serving.tools.length ? start : undefined;
}

/** A JSON-RPC answer as the SDK writes one: `result`, then `jsonrpc`, then `id`. */
export function resultText(id: string | number, result: string): string {
  return `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
}

/**
 * How the first messages of a connection are met before the SDK is loaded:
 * - `answer`: send `text`; with `replay`, the SDK must still be given the message when it takes
 *   over, so that it knows what it would have known had it answered (`initialize`);
 * - `replay`: nothing to send; the SDK is given the message when it takes over
 *   (`notifications/initialized`);
 * - `undefined`: only the SDK can answer; load it and give it this message and every later one.
 *
 * A message is answered only when the SDK would certainly answer it the same way: a request its
 * schemas accept, asking for something the prepared bytes hold. Anything else, however small the
 * doubt, is the SDK's.
 */
export type FirstAnswer =
  | { readonly kind: 'answer'; readonly text: string; readonly replay: boolean }
  | { readonly kind: 'replay' }
  | undefined;

export interface FirstAnswers {
  answer(message: unknown): FirstAnswer;
  /** The protocol versions the SDK supports, as captured: what `MCP-Protocol-Version` may say. */
  readonly versions: readonly string[];
}

/**
 * The first answers of a server that `toolprep/mcp` makes for `runtime`, or undefined when the
 * generated module holds no handshake (a project without the MCP SDK at build time).
 */
export function firstAnswers(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: AttachToolsOptions = {},
): FirstAnswers | undefined {
  const { handshake } = runtime;
  if (!handshake) return undefined;
  const serving = servingOf(runtime);
  const pageSize = options.pageSize ?? 200;
  const initialize = withServerInfo(handshake, info);
  const versions = Object.keys(handshake.initialize).filter((version) => version !== '*');
  const idPlaceholder = JSON.stringify(HANDSHAKE_PLACEHOLDERS.id);
  const withId = (template: string, id: string | number) =>
    template.replace(idPlaceholder, () => JSON.stringify(id));
  return {
    versions,
    answer(message) {
      if (isInitializedNotification(message)) return { kind: 'replay' };
      if (!isRequest(message)) return undefined;
      const { id, method, params } = message;
      if (method === 'initialize' && isInitializeParams(params)) {
        const template = initialize.get(params.protocolVersion) ?? initialize.get('*');
        return template === undefined
          ? undefined
          : { kind: 'answer', text: withId(template, id), replay: true };
      }
      if (method === 'ping' && hasNoMeta(params))
        return { kind: 'answer', text: withId(handshake.ping, id), replay: false };
      if (method === 'tools/list' && hasNoMeta(params)) {
        const cursor = params?.cursor;
        if (cursor !== undefined && typeof cursor !== 'string') return undefined;
        const start = startOf(serving, cursor);
        if (start === undefined) return undefined;
        const page = pageOf(serving, pageSize, start);
        return { kind: 'answer', text: resultText(id, pageTexts.get(page) as string), replay: false };
      }
      return undefined;
    },
  };
}

/** The captured `initialize` answers with this server's name and version in place, by protocol version. */
function withServerInfo(handshake: PreparedHandshake, info: McpServerInfo): Map<string, string> {
  const name = JSON.stringify(HANDSHAKE_PLACEHOLDERS.name);
  const version = JSON.stringify(HANDSHAKE_PLACEHOLDERS.version);
  return new Map(
    Object.entries(handshake.initialize).map(([protocolVersion, template]) => [
      protocolVersion,
      template
        .replace(name, () => JSON.stringify(info.name))
        .replace(version, () => JSON.stringify(info.version)),
    ]),
  );
}

interface Request {
  readonly id: string | number;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/** A JSON-RPC request as the SDK's (strict) schema takes it. */
function isRequest(message: unknown): message is Request {
  return (
    isRecord(message) &&
    Object.keys(message).every((key) => REQUEST_KEYS.has(key)) &&
    message.jsonrpc === '2.0' &&
    (typeof message.id === 'string' || Number.isSafeInteger(message.id)) &&
    typeof message.method === 'string' &&
    (message.params === undefined || isRecord(message.params))
  );
}

function isInitializedNotification(message: unknown): boolean {
  return (
    isRecord(message) &&
    Object.keys(message).every((key) => key === 'jsonrpc' || key === 'method' || key === 'params') &&
    message.jsonrpc === '2.0' &&
    message.method === 'notifications/initialized' &&
    hasNoMeta(message.params)
  );
}

/** Params the SDK reads nothing of: absent, or without `_meta` (whose schema is its own). */
function hasNoMeta(params: unknown): params is Record<string, unknown> | undefined {
  return params === undefined || (isRecord(params) && !('_meta' in params));
}

/** `initialize` params the SDK's schema certainly accepts; any other shape is left to it. */
function isInitializeParams(
  params: unknown,
): params is { protocolVersion: string; capabilities: object; clientInfo: object } {
  if (!hasNoMeta(params) || params === undefined || typeof params.protocolVersion !== 'string') return false;
  const { clientInfo, capabilities } = params;
  return (
    isRecord(clientInfo) &&
    typeof clientInfo.name === 'string' &&
    typeof clientInfo.version === 'string' &&
    ['title', 'websiteUrl', 'description'].every((key) => optional(clientInfo[key], isString)) &&
    clientInfo.icons === undefined &&
    isClientCapabilities(capabilities)
  );
}

const isString = (value: unknown): boolean => typeof value === 'string';
const optional = (value: unknown, check: (value: unknown) => boolean): boolean =>
  value === undefined || check(value);
/** An object whose listed keys, where present, pass their checks. */
const shaped =
  (fields: Record<string, (value: unknown) => boolean> = {}) =>
  (value: unknown): boolean =>
    isRecord(value) && Object.entries(fields).every(([key, check]) => optional(value[key], check));
const recordOf =
  (check: (value: unknown) => boolean) =>
  (value: unknown): boolean =>
    isRecord(value) && Object.values(value).every(check);

/** Client capabilities as the SDK's schema of them reads them; unknown keys are free. */
const isClientCapabilities = shaped({
  experimental: recordOf(shaped()),
  sampling: shaped({ context: shaped(), tools: shaped() }),
  elicitation: shaped({
    form: shaped({ applyDefaults: (value) => typeof value === 'boolean' }),
    url: shaped(),
  }),
  roots: shaped({ listChanged: (value) => typeof value === 'boolean' }),
  tasks: shaped({
    list: shaped(),
    cancel: shaped(),
    requests: shaped({
      sampling: shaped({ createMessage: shaped() }),
      elicitation: shaped({ create: shaped() }),
    }),
  }),
  extensions: recordOf(shaped()),
});

/** An HTTP answer made from the prepared bytes: a JSON body, or none (202 for a notification). */
export interface PreparedHttpAnswer {
  readonly status: 200 | 202;
  readonly body: string | null;
}

const JSON_CONTENT_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/**
 * The answer to a stateless Streamable HTTP request that the prepared bytes hold, exactly as the
 * SDK's transport would give it, or undefined for the SDK to answer: any request its checks
 * would refuse (the `Accept` and `Content-Type` it asks for, a protocol version it does not
 * support), a batch, an answer that goes as a stream, and every other method.
 */
export function firstHttpAnswer(
  first: FirstAnswers,
  request: { readonly method: string; header(name: string): string | undefined },
  body: unknown,
  options: McpHttpOptions,
): PreparedHttpAnswer | undefined {
  const accept = request.header('accept');
  if (
    request.method !== 'POST' ||
    !accept?.includes('application/json') ||
    !accept.includes('text/event-stream')
  )
    return undefined;
  if (!JSON_CONTENT_TYPE.test(request.header('content-type') ?? '')) return undefined;
  if (answersByStream(body, options.responses)) return undefined;
  const answer = first.answer(body);
  if (answer === undefined) return undefined;
  // Past `initialize`, the SDK refuses a protocol version it does not support.
  const protocolVersion = request.header('mcp-protocol-version');
  const initializes = (body as { method?: unknown }).method === 'initialize';
  if (!initializes && protocolVersion !== undefined && !first.versions.includes(protocolVersion))
    return undefined;
  return answer.kind === 'answer' ? { status: 200, body: answer.text } : { status: 202, body: null };
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
   * prompts, logging, completions): made per request (per session with `sessions`), with the
   * tools attached (`attachTools`). Default: `createMcpServer(runtime, info, options)`.
   */
  readonly server?: () => Server;
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
