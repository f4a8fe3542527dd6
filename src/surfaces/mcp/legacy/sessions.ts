import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { sdkErrorText, TRANSPORT_ERROR } from '../wire/jsonrpc.js';

/**
 * Sessions for the Streamable HTTP helpers: one SDK transport and server per session, kept in this
 * process's memory, so that a server can ask the client something (elicitation, sampling) and wait,
 * send notifications outside a request, and resume a stream. The HTTP exchange gives it the SDK's
 * web-standard transport on every runtime; the routing itself imports nothing of it.
 */

export interface McpSessionOptions {
  /** Keeps each stream's events so that a client can resume it (`Last-Event-ID`). */
  readonly eventStore?: EventStore;
  /** The reconnection delay (ms) sent to clients on streams, for resumption. */
  readonly retryInterval?: number;
  /** A session with no request for this long (ms) is closed; its client then gets 404 and starts again. Default 30 minutes. */
  readonly idleMs?: number;
  /**
   * A session that has made no request since `initialize` (notifications and a GET stream do not
   * count) is closed this long (ms) after it, and is the first to make room for a new one. Default 30 s.
   */
  readonly unusedMs?: number;
  /**
   * The most sessions open at once. A new one past it closes the oldest unused session, or else the
   * least recently used one with no request answering and none for `unusedMs`; with none, it is
   * refused with 503. Default 1000.
   */
  readonly maxSessions?: number;
}

/** What a session's transport is given by the SDK's options, whichever transport it is. */
interface SessionTransportOptions extends McpSessionOptions {
  readonly sessionIdGenerator: () => string;
  readonly onsessioninitialized: (sessionId: string) => void;
  readonly enableJsonResponse: boolean;
}

interface SessionTransport {
  onclose?: (() => void) | undefined;
  readonly sessionId?: string | undefined;
  close(): Promise<void>;
}

/** Where a request goes: its session's transport, or an error answer (JSON-RPC, as the SDK words them). */
type Routed<Transport> =
  | {
      readonly transport: Transport;
      readonly isNew: boolean;
      /** To call once the answer to this request is out: until then the session is busy, not idle. */
      readonly answered?: () => void;
    }
  | { readonly status: 400 | 404 | 503; readonly body: string };

export interface SessionTable<Transport> {
  /**
   * Where a request goes. `owner` says who asks (with `auth`: the caller and its view's key): a
   * session answers the owner that opened it only, and is unknown (404) to anyone else.
   */
  route(sessionId: string | undefined, body: unknown, owner?: string): Routed<Transport>;
  /** The sessions open now. */
  readonly size: number;
}

/**
 * Routes requests to sessions: a request that names a session goes to it; an `initialize` without
 * one starts one (the transport made by `create` with these options, which the SDK gives its id),
 * making room at `maxSessions` open by closing an unused or idle one, else refused (503); anything
 * else is refused: 404 for a session this process does not hold (it ended, idled out, was closed to
 * make room, or is another process's, or another owner's: the client then starts again), 400 for
 * a request that names none. A session idle for `idleMs` is closed, one never used after
 * `initialize` after `unusedMs`: so that one client opening sessions it does not use cannot keep
 * every other client out.
 */
export function sessionTable<Transport extends SessionTransport>(
  create: (options: SessionTransportOptions) => Transport,
  options: McpSessionOptions,
  responses: 'auto' | 'json' | 'sse' = 'auto',
): SessionTable<Transport> {
  const { idleMs = 30 * 60_000, unusedMs = 30_000, maxSessions = 1000, ...transportOptions } = options;
  // Each in the order to close them to make room: unused by opening, used by last request.
  const unused = new Map<string, Transport>();
  const used = new Map<string, { readonly transport: Transport; lastRequestAt: number; answering: number }>();
  const closeTimers = new Map<string, ReturnType<typeof setTimeout>>();
  const owners = new Map<string, string | undefined>();
  const closeAfter = (id: string, transport: Transport, ms: number) => {
    clearTimeout(closeTimers.get(id));
    const timer = setTimeout(() => void transport.close(), ms);
    // A Node timer must not keep the process alive for an idle session.
    (timer as { unref?: () => void }).unref?.();
    closeTimers.set(id, timer);
  };
  const forget = (id: string) => {
    unused.delete(id);
    used.delete(id);
    owners.delete(id);
    clearTimeout(closeTimers.get(id));
    closeTimers.delete(id);
  };
  const transportOf = (id: string) => unused.get(id) ?? used.get(id)?.transport;
  /** Closes the session to go first for a new one, if any may; false when all are in use. */
  const makeRoom = (): boolean => {
    const [oldestUnused] = unused.keys();
    const id =
      oldestUnused ??
      [...used].find(
        ([, session]) => session.answering === 0 && Date.now() - session.lastRequestAt >= unusedMs,
      )?.[0];
    const transport = id === undefined ? undefined : transportOf(id);
    if (id === undefined || !transport) return false;
    forget(id);
    void transport.close();
    return true;
  };
  return {
    get size() {
      return unused.size + used.size;
    },
    route(sessionId, body, owner) {
      if (sessionId !== undefined) {
        const transport = transportOf(sessionId);
        // Another caller's session is answered as one that does not exist: its existence is not told.
        if (!transport || owners.get(sessionId) !== owner)
          return { status: 404, body: sdkErrorText(-32001, 'Session not found') };
        // A notification or GET stream leaves an unused session's clock running; a request starts its use.
        if (!used.has(sessionId) && !isUse(body)) return { transport, isNew: false };
        const session = used.get(sessionId) ?? { transport, lastRequestAt: 0, answering: 0 };
        unused.delete(sessionId);
        used.delete(sessionId);
        used.set(sessionId, session);
        session.lastRequestAt = Date.now();
        closeAfter(sessionId, transport, idleMs);
        if (!isUse(body)) return { transport, isNew: false };
        session.answering++;
        const answered = () => {
          session.answering--;
          session.lastRequestAt = Date.now();
        };
        return { transport, isNew: false, answered };
      }
      if (!isInitialize(body))
        return {
          status: 400,
          body: sdkErrorText(TRANSPORT_ERROR, 'Bad Request: No valid session ID provided'),
        };
      if (unused.size + used.size >= maxSessions && !makeRoom())
        return {
          status: 503,
          body: sdkErrorText(
            TRANSPORT_ERROR,
            `Service Unavailable: ${maxSessions} sessions are open and in use (maxSessions); try again later`,
          ),
        };
      const transport = create({
        ...transportOptions,
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (id) => {
          unused.set(id, transport);
          owners.set(id, owner);
          closeAfter(id, transport, Math.min(unusedMs, idleMs));
        },
        enableJsonResponse: responses === 'json',
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) forget(transport.sessionId);
      };
      return { transport, isNew: true };
    },
  };
}

/** Whether a message (or batch) carries a request or an answer: anything but notifications. */
function isUse(body: unknown): boolean {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some((message) => (message as { id?: unknown } | null)?.id !== undefined);
}

function isInitialize(body: unknown): boolean {
  return (body as { method?: unknown } | null)?.method === 'initialize';
}
