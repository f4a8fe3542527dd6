import type { HttpRequestView } from './http-options.js';

/**
 * What the HTTP exchange asks of a runtime (Node's `http`, fetch), and the helpers its ports share.
 */

export type HeaderRecord = Readonly<Record<string, string>>;

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

/** Runs `then` when the signal aborts, or now if it has. */
export function whenAborted(signal: AbortSignal, then: () => void): void {
  if (signal.aborted) then();
  else signal.addEventListener('abort', then, { once: true });
}

/** Adds headers to a response's: `Vary` beside the answer's own, the rest set. */
export function addHeaders(headers: Headers, added: HeaderRecord): void {
  for (const [name, value] of Object.entries(added))
    if (name === 'vary') headers.append(name, value);
    else headers.set(name, value);
}
