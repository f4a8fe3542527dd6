/**
 * JSON-RPC as MCP writes it, in either era: ids, result and error texts, the errors with the HTTP
 * status each goes with, and the encodings the transports put them in. Pure: no SDK, no Node.
 */

export type Id = string | number;

/** An answer to send: a JSON-RPC message, or none (202 for a notification), with its HTTP status. */
export interface WireAnswer {
  readonly status: number;
  readonly body: string | null;
  /** Headers an HTTP answer carries besides its content type (`Retry-After` of a 503). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A JSON-RPC error as a handler, a binding or the wire raises it. */
export interface WireError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** The JSON-RPC errors MCP answers with, and the HTTP status each goes with (2026-07-28). */
export const ERRORS = {
  invalidRequest: { code: -32600, status: 400 },
  methodNotFound: { code: -32601, status: 404 },
  invalidParams: { code: -32602, status: 400 },
  /** Invalid params that are not about the envelope (a tool that does not exist, a bad cursor). */
  invalidArgument: { code: -32602, status: 200 },
  internal: { code: -32603, status: 500 },
  /** An internal error that passes: a store the request needs did not answer (retry later). */
  unavailable: { code: -32603, status: 503 },
  /** Something the request names does not exist (an unknown group, as the groups draft answers it). */
  notFound: { code: -32002, status: 200 },
  headerMismatch: { code: -32020, status: 400 },
  missingCapability: { code: -32021, status: 400 },
  unsupportedVersion: { code: -32022, status: 400 },
} as const;

type ErrorKind = (typeof ERRORS)[keyof typeof ERRORS];

/** What the SDKs' transports answer a refused HTTP request with (host, origin, size, method, session). */
export const TRANSPORT_ERROR = -32000;

/** A request's id, or null when it has none a response may echo. */
export function idOf(message: Record<string, unknown>): Id | null {
  const { id } = message;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** A response carrying a result already written as JSON text. */
export function responseText(id: Id, result: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`;
}

/** A response as the SDK v1 writes one (`result`, then `jsonrpc`, then `id`): the 2025 prepared answers. */
export function sdkResponseText(id: Id, result: string): string {
  return `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
}

export function errorText(id: Id | null, { code, message, data }: WireError): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: { code, message, ...(data === undefined ? {} : { data }) },
  });
}

/** An error about the request as a whole, as the SDKs' transports write theirs (`error` before `id`). */
export function sdkErrorText(code: number, message: string): string {
  return `{"jsonrpc":"2.0","error":${JSON.stringify({ code, message })},"id":null}`;
}

/** An error answer of this kind, with its HTTP status. */
export function errorAnswer(id: Id | null, kind: ErrorKind, message: string, data?: unknown): WireAnswer {
  return { status: kind.status, body: errorText(id, { code: kind.code, message, data }) };
}

/** Text as JSON; what is not JSON is undefined (the routing then refuses it, or the SDK does). */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const utf8 = new TextDecoder();

/** A line of stdio as the SDK's reader takes it (a carriage return dropped). */
export function jsonOfLine(line: Uint8Array): unknown {
  return jsonOf(utf8.decode(line).replace(/\r?\n?$/, ''));
}

/** An SSE event carrying one JSON-RPC message. */
export function sseEvent(message: string): string {
  return `event: message\ndata: ${message}\n\n`;
}

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};

export const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' };

/**
 * An error a request handler of the SDK v1 answers as this JSON-RPC error, its message as it is
 * (the SDK's own `McpError` would prefix `MCP error <code>:` to it, which no other era says).
 */
export function raisedError({ code, message, data }: WireError): Error {
  return Object.assign(new Error(message), { code, ...(data === undefined ? {} : { data }) });
}
