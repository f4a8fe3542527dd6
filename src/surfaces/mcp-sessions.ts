import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

/**
 * Sessions for the Streamable HTTP helpers: one SDK transport and server per session, kept in this
 * process's memory, so that a server can ask the client something (elicitation, sampling) and wait,
 * send notifications outside a request, and resume a stream. The same routing serves Node's
 * transport and the web-standard one; it imports nothing of either.
 */

export interface McpSessionOptions {
  /** Keeps each stream's events so that a client can resume it (`Last-Event-ID`). */
  readonly eventStore?: EventStore;
  /** The reconnection delay (ms) sent to clients on streams, for resumption. */
  readonly retryInterval?: number;
}

/** What a session's transport is given by the SDK's options, whichever transport it is. */
export interface SessionTransportOptions extends McpSessionOptions {
  readonly sessionIdGenerator: () => string;
  readonly onsessioninitialized: (sessionId: string) => void;
  readonly enableJsonResponse: boolean;
}

interface SessionTransport {
  onclose?: (() => void) | undefined;
  readonly sessionId?: string | undefined;
}

/** Where a request goes: its session's transport, or an error answer (JSON-RPC, as the SDK words them). */
export type Routed<Transport> =
  | { readonly transport: Transport; readonly isNew: boolean }
  | { readonly status: 400 | 404; readonly body: string };

export interface SessionTable<Transport> {
  route(sessionId: string | undefined, body: unknown): Routed<Transport>;
  /** The sessions open now. */
  readonly size: number;
}

/**
 * Routes requests to sessions: a request that names a session goes to it; an `initialize` without
 * one starts one (the transport made by `create` with these options, which the SDK gives its id);
 * anything else is refused: 404 for a session this process does not hold (the client then starts
 * again), 400 for a request that names none.
 */
export function sessionTable<Transport extends SessionTransport>(
  create: (options: SessionTransportOptions) => Transport,
  options: McpSessionOptions,
  responses: 'auto' | 'json' | 'sse' = 'auto',
): SessionTable<Transport> {
  const open = new Map<string, Transport>();
  return {
    get size() {
      return open.size;
    },
    route(sessionId, body) {
      if (sessionId !== undefined) {
        const transport = open.get(sessionId);
        return transport
          ? { transport, isNew: false }
          : { status: 404, body: errorBody(-32001, 'Session not found') };
      }
      if (!isInitialize(body))
        return { status: 400, body: errorBody(-32000, 'Bad Request: No valid session ID provided') };
      const transport = create({
        ...options,
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (id) => {
          open.set(id, transport);
        },
        enableJsonResponse: responses === 'json',
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) open.delete(transport.sessionId);
      };
      return { transport, isNew: true };
    },
  };
}

function isInitialize(body: unknown): boolean {
  return (body as { method?: unknown } | null)?.method === 'initialize';
}

function errorBody(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
}
