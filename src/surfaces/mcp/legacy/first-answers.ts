import { HANDSHAKE_PLACEHOLDERS, type PreparedHandshake } from '../../../manifest/tool-set.js';
import type { ToolRuntime } from '../../../runtime/runner.js';
import { isRecord } from '../../../shared/run/is-record.js';
import { type AttachToolsOptions, type McpServerInfo, toolServiceOf } from '../service/tool-service.js';
import { sdkResponseText } from '../wire/jsonrpc.js';

/**
 * The first answers of a 2025 connection, from the handshake the build captured (decision 0022):
 * `initialize`, `ping` and `tools/list` answered before the SDK loads, exactly as the SDK would.
 */

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
type FirstAnswer =
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
  // The handshake was captured from a server without views: with views, the SDK's server answers
  // `initialize` itself, announcing the resources they are read from.
  if (!handshake || runtime.views?.length) return undefined;
  const service = toolServiceOf(runtime);
  const listsDiffer = toolServiceOf(runtime, 'plain') !== service;
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
      // With views, the list depends on what the session's client declared (service/views.ts),
      // which the SDK's server knows.
      if (method === 'tools/list' && hasNoMeta(params) && !listsDiffer) {
        // A cursor no page gave is the SDK's to refuse, in its own words.
        const listed = service.page(pageSize, params?.cursor);
        if ('error' in listed) return undefined;
        return { kind: 'answer', text: sdkResponseText(id, listed.text), replay: false };
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
interface PreparedHttpAnswer {
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
  responses: AnswerMode | undefined,
): PreparedHttpAnswer | undefined {
  const accept = request.header('accept');
  if (
    request.method !== 'POST' ||
    !accept?.includes('application/json') ||
    !accept.includes('text/event-stream')
  )
    return undefined;
  if (!JSON_CONTENT_TYPE.test(request.header('content-type') ?? '')) return undefined;
  if (answersByStream(body, responses)) return undefined;
  const answer = first.answer(body);
  if (answer === undefined) return undefined;
  // Past `initialize`, the SDK refuses a protocol version it does not support.
  const protocolVersion = request.header('mcp-protocol-version');
  const initializes = (body as { method?: unknown }).method === 'initialize';
  if (!initializes && protocolVersion !== undefined && !first.versions.includes(protocolVersion))
    return undefined;
  return answer.kind === 'answer' ? { status: 200, body: answer.text } : { status: 202, body: null };
}

/**
 * How answers are sent over HTTP: `json`, `sse` (a stream, which carries the notifications a
 * handler sends while it runs: progress, logging), or `auto`: a stream when the request asks for
 * progress (`_meta.progressToken`), JSON otherwise.
 */
export type AnswerMode = 'auto' | 'json' | 'sse';

/** Whether a request's answer goes as a stream. */
export function answersByStream(body: unknown, responses: AnswerMode = 'auto'): boolean {
  if (responses !== 'auto') return responses === 'sse';
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => {
    const meta = (message as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta;
    return meta?.progressToken !== undefined;
  });
}
