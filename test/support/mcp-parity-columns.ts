import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { requestHeaders, requestMeta } from '../../scripts/mcp-2026-wire.mjs';
import { pollUntil, TASKS } from './task-scenarios.js';

/**
 * The columns of the MCP parity table (test/surfaces/mcp-parity.test.ts): every way toolprep
 * answers, behind one interface. A row is one request, written once; each era puts it on the wire
 * its own way (2026-07-28: `_meta` and the standard headers; 2025: the capabilities in
 * `initialize`, where there is a session), and every answer is brought to one shape (`Seen`) with
 * only what legitimately varies taken out: the id (checked, then dropped), the server's own
 * `serverInfo`, a signed `requestState` and a task's id.
 */

const LEGACY_VERSION = '2025-11-25';

/** One request of the table, as a client means it. */
export interface Exchange {
  readonly method: string;
  readonly params: Record<string, unknown>;
  /** What the client declares it can do: per request on 2026-07-28, in `initialize` on a 2025 session. */
  readonly capabilities?: Record<string, unknown>;
  /** 2026-07-28 over HTTP: headers that replace the standard ones (`undefined` removes one). */
  readonly headers?: Readonly<Record<string, string | undefined>>;
}

/** An answer brought to the shape the table writes. */
export interface Seen {
  /** HTTP only. */
  readonly status?: number;
  readonly result?: unknown;
  readonly error?: unknown;
  /** 2025: the request the server sent the client (a question) before answering. */
  readonly asked?: unknown;
  /** The task column: the task as `tasks/get` last answered it. */
  readonly task?: unknown;
  /** Present only when the answer did not keep the request's id. */
  readonly id?: unknown;
}

export type Era = '2026' | '2025' | 'task';

export interface Column {
  readonly name: string;
  readonly era: Era;
  /** Whether answers have an HTTP status (and requests headers). */
  readonly http: boolean;
  send(exchange: Exchange): Promise<Seen>;
}

export type Message = Record<string, unknown> & {
  id?: unknown;
  method?: string;
  result?: unknown;
  error?: unknown;
};

/** How long a column may take to answer before the cell is an answer that never came. */
const ANSWER_MS = 5_000;

/**
 * Runs one exchange, given a signal to abort it with: an answer that does not come within
 * `ANSWER_MS` is seen as none (and the request aborted), so that a hung cell fails at once.
 */
async function inTime(exchange: (signal: AbortSignal) => Promise<Seen>): Promise<Seen> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<Seen>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ error: `no answer within ${ANSWER_MS} ms` });
    }, ANSWER_MS);
  });
  try {
    return await Promise.race([exchange(controller.signal), late]);
  } finally {
    clearTimeout(timer);
  }
}

let nextId = 100;
/** Every request gets its own id, so that requests to one column may run together. */
const freshId = (): number => nextId++;

/** The body and headers of a 2026-07-28 request. */
export function modernWire(
  exchange: Exchange,
  id: number | string,
): { body: string; headers: Record<string, string> } {
  const { method, params, capabilities = {}, headers = {} } = exchange;
  const merged: Record<string, string | undefined> = { ...requestHeaders(method, params), ...headers };
  return {
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: {
          ...requestMeta(capabilities),
          'io.modelcontextprotocol/clientInfo': { name: 'parity', version: '1' },
        },
      },
    }),
    headers: Object.fromEntries(
      Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
  };
}

/** What may vary between columns and is not the answer: the server's identity, a signed state, a task id. */
function scrub(result: unknown): unknown {
  if (typeof result !== 'object' || result === null) return result;
  const copy: Record<string, unknown> = { ...(result as Record<string, unknown>) };
  if (typeof copy._meta === 'object' && copy._meta !== null) {
    const { 'io.modelcontextprotocol/serverInfo': _serverInfo, ...meta } = copy._meta as Record<
      string,
      unknown
    >;
    if (Object.keys(meta).length === 0) delete copy._meta;
    else copy._meta = meta;
  }
  if (typeof copy.requestState === 'string') copy.requestState = '<requestState>';
  if (typeof copy.taskId === 'string') copy.taskId = '<taskId>';
  for (const time of ['createdAt', 'lastUpdatedAt'])
    if (typeof copy[time] === 'string') copy[time] = '<time>';
  return copy;
}

/** A JSON-RPC answer in the table's shape; an id other than the one sent is kept, so that it shows. */
function seenOf(message: Message | undefined, id: unknown, status?: number, asked?: Message): Seen {
  const http = status === undefined ? {} : { status };
  if (asked) return { ...http, asked: { method: asked.method, params: asked.params } };
  if (!message) return { ...http, error: 'no answer' };
  const kept = message.id === id ? {} : { id: message.id };
  if ('error' in message) return { ...http, ...kept, error: message.error };
  return { ...http, ...kept, result: scrub(message.result) };
}

/** The JSON-RPC messages of SSE text. */
export function eventsOf(text: string): Message[] {
  return text
    .split('\n\n')
    .map((event) =>
      event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join(''),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data) as Message);
}

interface Raw {
  readonly status: number;
  readonly message?: Message;
  readonly asked?: Message;
}

/**
 * Reads an HTTP answer: JSON, or a stream read until the answer to `id` or, on 2025, a request
 * from the server (a question it asks before answering), which is then the answer seen.
 */
async function readRaw(response: Response, id: unknown): Promise<Raw> {
  const { status } = response;
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('text/event-stream')) {
    const text = await response.text();
    return text ? { status, message: JSON.parse(text) as Message } : { status };
  }
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { status };
      buffered += decoder.decode(value, { stream: true });
      const end = buffered.lastIndexOf('\n\n');
      if (end < 0) continue;
      const messages = eventsOf(buffered.slice(0, end + 2));
      buffered = buffered.slice(end + 2);
      for (const message of messages) {
        if (message.method !== undefined && message.id !== undefined) return { status, asked: message };
        if (message.id === id && ('result' in message || 'error' in message)) return { status, message };
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

const readAnswer = async (response: Response, id: unknown): Promise<Seen> => {
  const { status, message, asked } = await readRaw(response, id);
  return seenOf(message, id, status, asked);
};

/** A 2026-07-28 column over HTTP: a URL (Node's HTTP) or a fetch handler called directly. */
export function modernHttpColumn(
  name: string,
  fetcher: (request: Request) => Promise<Response>,
  url: string,
): Column {
  return {
    name,
    era: '2026',
    http: true,
    send: (exchange) =>
      inTime(async (signal) => {
        const id = freshId();
        const { body, headers } = modernWire(exchange, id);
        return readAnswer(await fetcher(new Request(url, { method: 'POST', headers, body, signal })), id);
      }),
  };
}

/** The stdio column: a spawned process running `serveStdio`, one line per message. */
export function stdioColumn(name: string, serverPath: string): Column & { close(): void } {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [serverPath], { stdio: 'pipe' });
  const waiting = new Map<unknown, (message: Message) => void>();
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      const message = JSON.parse(line) as Message;
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return {
    name,
    era: '2026',
    http: false,
    send: (exchange) =>
      inTime(async () => {
        const id = freshId();
        const { body } = modernWire(exchange, id);
        const answered = new Promise<Message>((resolve) => waiting.set(id, resolve));
        child.stdin.write(`${body}\n`);
        return seenOf(await answered, id);
      }),
    close: () => child.kill(),
  };
}

const LEGACY_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': LEGACY_VERSION,
};

/**
 * A 2025 column. With `sessions`, each exchange is its own session: `initialize` declaring the
 * exchange's capabilities, `notifications/initialized`, the request, then `DELETE`. Without, the
 * request is POSTed on its own, as a stateless client does (it can declare no capabilities: a
 * stateless 2025 server meets no `initialize`).
 */
export function legacyColumn(name: string, url: string, { sessions }: { sessions: boolean }): Column {
  return {
    name,
    era: '2025',
    http: true,
    send: (exchange) => inTime((signal) => legacyExchange(name, url, sessions, exchange, signal)),
  };
}

async function legacyExchange(
  name: string,
  url: string,
  sessions: boolean,
  { method, params, capabilities = {} }: Exchange,
  signal: AbortSignal,
): Promise<Seen> {
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: { ...LEGACY_HEADERS, ...headers },
      body: JSON.stringify(body),
      signal,
    });
  const id = freshId();
  const request = { jsonrpc: '2.0', id, method, params };
  if (!sessions) return readAnswer(await post(request), id);
  const initialized = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: LEGACY_VERSION, capabilities, clientInfo: { name: 'parity', version: '1' } },
  });
  const session = initialized.headers.get('mcp-session-id');
  await initialized.text();
  if (!session) throw new Error(`${name}: initialize started no session (${initialized.status})`);
  const inSession = { 'mcp-session-id': session };
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, inSession)).text();
  try {
    return await readAnswer(await post(request, inSession), id);
  } finally {
    await fetch(url, { method: 'DELETE', headers: { ...LEGACY_HEADERS, ...inSession } }).catch(() => {});
  }
}

/** Task statuses where the table reads the task: the terminal ones, and waiting for the client. */
const SETTLED = ['completed', 'failed', 'cancelled', 'input_required'];

/**
 * The task column: the same request from a client that declares the tasks extension, to
 * toolprep's own HTTP serving at `base`; a task handle is read back with `tasks/get` until the
 * task settles, and the task's outcome (its status, and its result, error or input requests) is
 * the answer seen. An answer that is not a task handle is seen as it is.
 */
export function taskColumn(name: string, base: string): Column {
  return {
    name,
    era: 'task',
    http: true,
    send: (exchange) => inTime((signal) => taskExchange(base, exchange, signal)),
  };
}

async function taskExchange(base: string, exchange: Exchange, signal: AbortSignal): Promise<Seen> {
  const id = freshId();
  const capabilities = {
    ...exchange.capabilities,
    extensions: { ...(exchange.capabilities?.extensions as object), [TASKS]: {} },
  };
  const { body, headers } = modernWire({ ...exchange, capabilities }, id);
  const response = await fetch(`${base}/mcp`, {
    method: 'POST',
    // The principal pollUntil asks as.
    headers: { ...headers, authorization: 'Bearer alice' },
    body,
    signal,
  });
  const raw = await readRaw(response, id);
  const handle = raw.message?.result as { resultType?: string; taskId?: string } | undefined;
  if (handle?.resultType !== 'task' || typeof handle.taskId !== 'string')
    return seenOf(raw.message, id, raw.status, raw.asked);
  const { task } = await pollUntil(base, handle.taskId, SETTLED);
  const { status, result, error, inputRequests } = task as Record<string, unknown>;
  return {
    status: raw.status,
    task: {
      status,
      ...(result === undefined ? {} : { result: scrub(result) }),
      ...(error === undefined ? {} : { error }),
      ...(inputRequests === undefined ? {} : { inputRequests }),
    },
  };
}
