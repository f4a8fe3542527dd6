/**
 * MCP 2026-07-28 over Streamable HTTP, as a task client sends it: one POST per request, with the
 * headers the HTTP binding asks for (`MCP-Protocol-Version`, `Mcp-Method`, and `Mcp-Name` set to
 * the tool's name or the task's id), answered with JSON or with an event stream that carries the
 * response. The request's `_meta` is the caller's: this is the binding, not the protocol.
 */

import { isRecord } from '../../shared/run/is-record.js';

/** A JSON value, as the wire carries it. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/** A JSON-RPC error, as an answer carries it. */
export interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: Json;
}

/** What a request is answered with: its result, or a JSON-RPC error. */
export type RpcAnswer =
  | { readonly kind: 'result'; readonly result: Json }
  | { readonly kind: 'error'; readonly error: RpcError };

export interface TransportRequestOptions {
  /** Aborts the request. */
  readonly signal?: AbortSignal;
  /** Headers for this request only, replacing the binding's own of the same name. */
  readonly context?: { readonly headers?: Readonly<Record<string, string>> };
}

/**
 * Sends one JSON-RPC request (`{ method, params }`, without `jsonrpc` and `id`) and resolves with
 * its answer; rejects when no answer came (a network error, a body that is no JSON-RPC answer).
 * The shape of ext-tasks' `RawClientDispatch`, so the same function serves its sessions.
 */
export type TaskTransport = (request: Json, options?: TransportRequestOptions) => Promise<RpcAnswer>;

export interface StreamableHttpOptions {
  /** Sent with every request: `authorization`, above all (a task is read only by whoever made it). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch to send with; default the global one. A fetch handler (`(request) => Response`) serves in-process. */
  readonly fetch?: (request: Request) => Promise<Response>;
}

const PROTOCOL_VERSION = '2026-07-28';

/** A transport that POSTs each request to the server's MCP endpoint (`https://host/mcp`). */
export function streamableHttp(url: string | URL, options: StreamableHttpOptions = {}): TaskTransport {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  return async (request, requestOptions = {}) => {
    if (!isRecord(request) || typeof request.method !== 'string')
      throw new TypeError('[toolprep] a task transport sends objects with a string method');
    const { method } = request;
    const params = isRecord(request.params) ? request.params : {};
    const id = crypto.randomUUID();
    const headers = new Headers({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL_VERSION,
      'mcp-method': method,
    });
    // `Mcp-Name` mirrors the tool's name on a call, the task's id on `tasks/*`.
    const named =
      method === 'tools/call' ? params.name : method.startsWith('tasks/') ? params.taskId : undefined;
    if (typeof named === 'string') headers.set('mcp-name', headerValue(named));
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    for (const [name, value] of Object.entries(requestOptions.context?.headers ?? {}))
      headers.set(name, value);
    const response = await send(
      new Request(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id, ...request }),
        ...(requestOptions.signal ? { signal: requestOptions.signal } : {}),
      }),
    );
    const text = await response.text();
    const answer = answerIn(text, response.headers.get('content-type') ?? '', id);
    if (answer === undefined)
      throw new Error(
        `[toolprep] ${String(url)} answered ${method} with HTTP ${response.status} and no JSON-RPC answer: ${JSON.stringify(text.slice(0, 200))}`,
      );
    return answer;
  };
}

/** The answer to request `id` in a body: a JSON message, or the `data` of an event stream's events. */
function answerIn(text: string, contentType: string, id: string): RpcAnswer | undefined {
  const messages = contentType.includes('text/event-stream')
    ? text.split(/\r?\n\r?\n/).map((event) =>
        event
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
          .join('\n'),
      )
    : [text];
  for (const message of messages) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      continue;
    }
    // An error about the request as a whole (a parse error, a refused header) comes with id null.
    if (!isRecord(parsed) || (parsed.id !== id && parsed.id !== null)) continue;
    if (isRecord(parsed.error) && typeof parsed.error.code === 'number')
      return { kind: 'error', error: parsed.error as unknown as RpcError };
    if ('result' in parsed) return { kind: 'result', result: parsed.result as Json };
  }
  return undefined;
}

/** A header value: as it is when plain printable ASCII, else `=?base64?…?=` of its UTF-8 (the HTTP binding's rule). */
function headerValue(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value) && value.trim() === value) return value;
  const bytes = new TextEncoder().encode(value);
  return `=?base64?${btoa(String.fromCharCode(...bytes))}?=`;
}
