import { request as httpRequest } from 'node:http';
import { eventsOf, type Message, modernWire } from './mcp-parity-columns.js';

/**
 * `subscriptions/listen` for the MCP parity table: a stream opened as a client opens it, read one
 * message at a time, and dropped as a client that goes drops it.
 */

/** A `subscriptions/listen` stream as the table opens it: its messages one by one, and a way to go. */
interface ListenStream {
  /** The next message on the stream (an error answer, if the listen was refused), or a timeout's. */
  next(timeoutMs?: number): Promise<Message | 'timeout' | 'ended'>;
  /** The client goes: the connection is dropped. */
  drop(): void;
}

/** A 2026-07-28 HTTP column that serves `subscriptions/listen` (your SDK v2 server's features). */
export interface ListenColumn {
  readonly name: string;
  listen(id: string, notifications: Record<string, unknown>): Promise<ListenStream>;
  /** The user's server says its prompt list changed, the way this serving lets it. */
  promptsChanged(): void;
}

function listenBody(id: string, notifications: Record<string, unknown>) {
  return modernWire({ method: 'subscriptions/listen', params: { notifications }, capabilities: {} }, id);
}

/** Messages of a byte stream, one at a time. */
function messageReader(read: () => Promise<Uint8Array | undefined>) {
  const decoder = new TextDecoder();
  let buffered = '';
  const queue: Message[] = [];
  let ended = false;
  return async (timeoutMs = 5_000): Promise<Message | 'timeout' | 'ended'> => {
    const deadline = Date.now() + timeoutMs;
    while (queue.length === 0 && !ended) {
      const left = deadline - Date.now();
      if (left <= 0) return 'timeout';
      const chunk = await Promise.race([
        read(),
        new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), left)),
      ]);
      if (chunk === 'timeout') return 'timeout';
      if (chunk === undefined) {
        ended = true;
        break;
      }
      buffered += decoder.decode(chunk, { stream: true });
      const trimmed = buffered.trimStart();
      // A refusal is one JSON answer, not a stream.
      if (trimmed.startsWith('{')) {
        try {
          queue.push(JSON.parse(trimmed) as Message);
          buffered = '';
        } catch {}
        continue;
      }
      const end = buffered.lastIndexOf('\n\n');
      if (end < 0) continue;
      queue.push(...eventsOf(buffered.slice(0, end + 2)));
      buffered = buffered.slice(end + 2);
    }
    return queue.shift() ?? 'ended';
  };
}

/** Listens over a real connection (Node's HTTP), which `drop` destroys, as a client that goes. */
export function httpListen(url: string): ListenColumn['listen'] {
  return (id, notifications) =>
    new Promise((resolve, reject) => {
      const { body, headers } = listenBody(id, notifications);
      const request = httpRequest(url, { method: 'POST', headers }, (response) => {
        const chunks: (Uint8Array | undefined)[] = [];
        const waiters: ((chunk: Uint8Array | undefined) => void)[] = [];
        const push = (chunk: Uint8Array | undefined) => {
          const waiter = waiters.shift();
          if (waiter) waiter(chunk);
          else chunks.push(chunk);
        };
        response.on('data', (chunk: Buffer) => push(new Uint8Array(chunk)));
        response.on('end', () => push(undefined));
        response.on('error', () => push(undefined));
        const read = () =>
          chunks.length > 0
            ? Promise.resolve(chunks.shift())
            : new Promise<Uint8Array | undefined>((done) => waiters.push(done));
        resolve({ next: messageReader(read), drop: () => request.destroy() });
      });
      request.on('error', (error) => {
        if (!request.destroyed) reject(error);
      });
      request.end(body);
    });
}

/**
 * Listens through a fetch handler called directly. `drop` is what a fetch runtime does when the
 * client goes: the request's signal aborts (the SDK's listen router tears a stream down on it).
 * Whether and when a runtime also cancels the answer's body varies (the SDK's own `toNodeHandler`
 * does so only at the stream's next chunk, a keep-alive up to 15 s later), so it is not done here.
 */
export function fetchListen(
  handler: (request: Request) => Promise<Response>,
  url: string,
): ListenColumn['listen'] {
  return async (id, notifications) => {
    const { body, headers } = listenBody(id, notifications);
    const controller = new AbortController();
    const response = await handler(
      new Request(url, { method: 'POST', headers, body, signal: controller.signal }),
    );
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    return {
      next: messageReader(async () => (await reader.read()).value),
      drop: () => controller.abort(),
    };
  };
}
