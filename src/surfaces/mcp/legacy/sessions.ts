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
  /** The most sessions open at once: past it, a new one is refused with 503 until one ends. Default 1000. */
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
  | { readonly transport: Transport; readonly isNew: boolean }
  | { readonly status: 400 | 404 | 503; readonly body: string };

export interface SessionTable<Transport> {
  route(sessionId: string | undefined, body: unknown): Routed<Transport>;
  /** The sessions open now. */
  readonly size: number;
}

/**
 * Routes requests to sessions: a request that names a session goes to it; an `initialize` without
 * one starts one (the transport made by `create` with these options, which the SDK gives its id),
 * unless `maxSessions` are open (503); anything else is refused: 404 for a session this process
 * does not hold (it ended, idled out, or is another process's: the client then starts again), 400
 * for a request that names none. A session idle for `idleMs` is closed.
 */
export function sessionTable<Transport extends SessionTransport>(
  create: (options: SessionTransportOptions) => Transport,
  options: McpSessionOptions,
  responses: 'auto' | 'json' | 'sse' = 'auto',
): SessionTable<Transport> {
  const { idleMs = 30 * 60_000, maxSessions = 1000, ...transportOptions } = options;
  const open = new Map<string, Transport>();
  const idleTimers = new Map<string, ReturnType<typeof setTimeout>>();
  /** (Re)starts a session's idle timer: each request it gets puts its closing off. */
  const touch = (id: string, transport: Transport) => {
    clearTimeout(idleTimers.get(id));
    const timer = setTimeout(() => void transport.close(), idleMs);
    // A Node timer must not keep the process alive for an idle session.
    (timer as { unref?: () => void }).unref?.();
    idleTimers.set(id, timer);
  };
  return {
    get size() {
      return open.size;
    },
    route(sessionId, body) {
      if (sessionId !== undefined) {
        const transport = open.get(sessionId);
        if (!transport) return { status: 404, body: sdkErrorText(-32001, 'Session not found') };
        touch(sessionId, transport);
        return { transport, isNew: false };
      }
      if (!isInitialize(body))
        return {
          status: 400,
          body: sdkErrorText(TRANSPORT_ERROR, 'Bad Request: No valid session ID provided'),
        };
      if (open.size >= maxSessions)
        return {
          status: 503,
          body: sdkErrorText(
            TRANSPORT_ERROR,
            `Service Unavailable: ${maxSessions} sessions are open (maxSessions); try again later`,
          ),
        };
      const transport = create({
        ...transportOptions,
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (id) => {
          open.set(id, transport);
          touch(id, transport);
        },
        enableJsonResponse: responses === 'json',
      });
      transport.onclose = () => {
        if (transport.sessionId === undefined) return;
        open.delete(transport.sessionId);
        clearTimeout(idleTimers.get(transport.sessionId));
        idleTimers.delete(transport.sessionId);
      };
      return { transport, isNew: true };
    },
  };
}

function isInitialize(body: unknown): boolean {
  return (body as { method?: unknown } | null)?.method === 'initialize';
}
