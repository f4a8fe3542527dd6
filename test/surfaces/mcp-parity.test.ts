import { readFileSync } from 'node:fs';
import path from 'node:path';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { prepareToolSet } from '@toolprep/build';
import { serveHttp } from 'toolprep/mcp';
import { attachTools as attachToolsV1 } from 'toolprep/mcp/server';
import { attachTools, featureHandler } from 'toolprep/mcp/v2';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { createToolRuntime } from 'toolprep/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { handlers } from '../../fixtures/parity/src/handlers.js';
import * as tools from '../../fixtures/parity/src/tools.js';
import { type FixtureProject, mcpServerProject, REPO } from '../support/fixture-project.js';
import {
  type Column,
  type Era,
  type Exchange,
  legacyColumn,
  modernHttpColumn,
  type Seen,
  stdioColumn,
  taskColumn,
} from '../support/mcp-parity-columns.js';
import { fetchListen, httpListen, type ListenColumn } from '../support/mcp-parity-listen.js';
import {
  addedPrompts,
  listen,
  userV1Server,
  userV2Server,
  v1SessionHandler,
} from '../support/mcp-parity-servers.js';
import { TASKS } from '../support/task-scenarios.js';
import { OLD_FORECAST_HTML, viewRuntime, viewToolSet } from '../support/view-tool-set.js';

/**
 * One answer per outcome (issue 32): each row is a runtime outcome, each column a way toolprep
 * answers, and each cell the answer written out — one for every 2026-07-28 column, one for every
 * 2025 column, one for a task's result — never computed from another column. The same request
 * goes to every column of an era; what legitimately varies (ids, the server's identity, a signed
 * state, a task's id and times) is taken out before comparing (test/support/mcp-parity-columns.ts).
 */

const KEY = 'a shared secret of thirty-two characters or more';
const INFO = { name: 'parity', version: '1.0.0' };

// The columns.
const STDIO = 'own 2026 stdio';
const NODE = 'own 2026 Node HTTP';
const FETCH = 'own 2026 fetch';
const V2 = 'SDK v2 createMcpHandler 2026';
const TASK = 'a task’s result';
const V2_LEGACY = 'SDK v2 createMcpHandler 2025';
const V1 = 'SDK v1 server 2025 session';
const OWN_STATELESS = 'own 2025 stateless';
const OWN_SESSIONS = 'own 2025 sessions';
const COLUMNS: readonly { name: string; era: Era; http: boolean }[] = [
  { name: STDIO, era: '2026', http: false },
  { name: NODE, era: '2026', http: true },
  { name: FETCH, era: '2026', http: true },
  { name: V2, era: '2026', http: true },
  { name: TASK, era: 'task', http: true },
  { name: V2_LEGACY, era: '2025', http: true },
  { name: V1, era: '2025', http: true },
  { name: OWN_STATELESS, era: '2025', http: true },
  { name: OWN_SESSIONS, era: '2025', http: true },
];

/** A cell that does not apply, and why. */
interface NotApplicable {
  readonly na: string;
}
type Cell = Seen | NotApplicable;

interface Row {
  readonly outcome: string;
  readonly exchange: Exchange;
  /** Every 2026-07-28 column: own stdio, Node HTTP and fetch, and the SDK v2 server. */
  readonly modern: Cell;
  /** The same request from a client that declares the tasks extension, read back with tasks/get. */
  readonly task: Cell;
  /** Every 2025 column. */
  readonly legacy: Cell;
  /** A column that answers otherwise, by a documented difference (each says why). */
  readonly except?: Readonly<Record<string, Cell>>;
}

const text = (value: string) => ({ type: 'text', text: value });
const LIST = 'paths is a list written as text — pass the array itself, not JSON written as text';
const UNKNOWN_TOOL = {
  code: -32602,
  message:
    'Unknown tool "no_such_tool". Available tools: archive_note, bad_stats, build_report, delete_notes, deploy, echo, greet_later, note_stats, open_vault, save_note, show_chart, tag_notes.',
};
const VAULT_LOCKED = {
  code: -32050,
  message: 'the vault is locked',
  data: { vault: 'notes', retryable: false },
};
const OUTPUT_REFUSED =
  'Tool "bad_stats" returned a value its output schema refuses: notes: Invalid input: expected number, received string';
/** The question `archive_note` asks (a form's `mode: 'form'` may be written or left implicit). */
const ARCHIVE_QUESTION = {
  method: 'elicitation/create',
  params: expect.objectContaining({
    message: 'Archive a.md?',
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
  }),
};
/** 2026-07-28's missing capability: a form question needs `elicitation.form`. */
const NEEDS_FORM = {
  code: -32021,
  message: expect.stringMatching(/capabilit/),
  data: { requiredCapabilities: { elicitation: { form: {} } } },
};
/**
 * 2025's answer to a question the client cannot take (it did not declare the capability, or a
 * stateless server never met its `initialize`): the same JSON-RPC error as 2026-07-28's, at once
 * (decision 0036), where the SDKs' own question helpers would make it the tool's error.
 */
const CANNOT_ASK_2025: Seen = { status: 200, error: NEEDS_FORM };
/** Header mismatch: HTTP 400, -32020 (the message and data are each server's own words). */
const HEADER_MISMATCH: Seen = {
  status: 400,
  error: expect.objectContaining({ code: -32020, message: expect.any(String) }),
};
const HEADERS_ONLY = {
  task: { na: 'the 2026 columns hold it' },
  legacy: { na: '2025 has no Mcp-* headers' },
  except: { [STDIO]: { na: 'stdio has no headers' } },
} as const;

/** A complete result: as 2026-07-28 carries it, as a task's result, and as 2025 does. */
function complete(result: Record<string, unknown>): Pick<Row, 'modern' | 'task' | 'legacy'> {
  return {
    modern: { status: 200, result: { resultType: 'complete', ...result } },
    task: { status: 200, task: { status: 'completed', result: { resultType: 'complete', ...result } } },
    legacy: { status: 200, result },
  };
}

const call = (name: string, args: Record<string, unknown>, more: Partial<Exchange> = {}): Exchange => ({
  method: 'tools/call',
  params: { name, arguments: args },
  ...more,
});

const ROWS: readonly Row[] = [
  {
    outcome: 'ok text',
    exchange: call('echo', { text: 'hello' }),
    ...complete({ content: [text('said hello')] }),
  },
  {
    outcome: 'content parts',
    exchange: call('show_chart', { month: 'May' }),
    ...complete({ content: [text('Chart of May'), { type: 'image', data: 'cG5n', mimeType: 'image/png' }] }),
  },
  {
    outcome: 'structured content',
    exchange: call('note_stats', { folder: 'inbox' }),
    ...complete({ content: [text('{"notes":2,"words":5}')], structuredContent: { notes: 2, words: 5 } }),
  },
  {
    outcome: 'repaired call',
    exchange: call('tag_notes', {
      notes: JSON.stringify([
        { title: 'a', tags: JSON.stringify(['x']) },
        { title: 'b', tags: [] },
      ]),
    }),
    ...complete({ content: [text('tagged a, b')] }),
  },
  {
    // On 2025 there are no Mcp-Param headers to check: the argument is simply the argument.
    outcome: 'an argument mirrored into a header',
    exchange: call('deploy', { region: 'eu-west-1' }, { headers: { 'mcp-param-region': 'eu-west-1' } }),
    ...complete({ content: [text('deployed to eu-west-1')] }),
    task: { na: 'deploy never runs as a task' },
  },
  {
    outcome: 'validation refusal',
    exchange: call('delete_notes', { paths: '["a.md","b.md"]' }),
    ...complete({ content: [text(LIST)], isError: true }),
    // Refused arguments make no task: the refusal is the call's own answer.
    task: { status: 200, result: { resultType: 'complete', content: [text(LIST)], isError: true } },
  },
  {
    outcome: 'handler error',
    exchange: call('save_note', { title: 'a' }),
    ...complete({ content: [text('the disk is full')], isError: true }),
  },
  {
    outcome: 'handler JSON-RPC error',
    exchange: call('open_vault', { vault: 'notes' }),
    modern: { status: 200, error: VAULT_LOCKED },
    task: { status: 200, task: { status: 'failed', error: VAULT_LOCKED } },
    legacy: { status: 200, error: VAULT_LOCKED },
  },
  {
    outcome: 'unknown tool',
    exchange: call('no_such_tool', {}),
    modern: { status: 200, error: UNKNOWN_TOOL },
    task: { status: 200, error: UNKNOWN_TOOL },
    legacy: { status: 200, error: UNKNOWN_TOOL },
  },
  {
    outcome: 'output refusal',
    exchange: call('bad_stats', { folder: 'inbox' }),
    ...complete({ content: [text(OUTPUT_REFUSED)], isError: true }),
  },
  {
    outcome: 'a question to a form-capable client',
    exchange: call('archive_note', { title: 'a.md' }, { capabilities: { elicitation: { form: {} } } }),
    modern: {
      status: 200,
      result: {
        resultType: 'input_required',
        inputRequests: { 'input-1': ARCHIVE_QUESTION },
        requestState: '<requestState>',
      },
    },
    task: { status: 200, task: { status: 'input_required', inputRequests: { 'input-1': ARCHIVE_QUESTION } } },
    // A 2025 session asks the client: the server's request comes before any answer.
    legacy: { status: 200, asked: ARCHIVE_QUESTION },
    // Stateless 2025 serving meets no initialize, so it knows of no capability (docs/surfaces/mcp.md, Sessions).
    except: { [V2_LEGACY]: CANNOT_ASK_2025, [OWN_STATELESS]: CANNOT_ASK_2025 },
  },
  {
    outcome: 'a question to a URL-only client',
    // Another title: the same call by the same caller within the repeat window is the same task.
    exchange: call('archive_note', { title: 'b.md' }, { capabilities: { elicitation: { url: {} } } }),
    modern: { status: 400, error: NEEDS_FORM },
    // The task's run asks while it runs: the task fails with the error the call would have had.
    task: { status: 200, task: { status: 'failed', error: NEEDS_FORM } },
    legacy: CANNOT_ASK_2025,
  },
  {
    outcome: 'a question to a client without elicitation',
    exchange: call('archive_note', { title: 'c.md' }, { capabilities: {} }),
    modern: { status: 400, error: NEEDS_FORM },
    task: { status: 200, task: { status: 'failed', error: NEEDS_FORM } },
    legacy: CANNOT_ASK_2025,
  },
  {
    outcome: 'a task policy’s question to a URL-only client',
    exchange: call(
      'greet_later',
      { card: 'gold' },
      { capabilities: { extensions: { [TASKS]: {} }, elicitation: { url: {} } } },
    ),
    modern: { status: 400, error: NEEDS_FORM },
    task: { status: 400, error: NEEDS_FORM },
    legacy: CANNOT_ASK_2025,
  },
  {
    outcome: 'a call that becomes a task',
    exchange: call('build_report', { pages: ['a', 'b'] }, { capabilities: { extensions: { [TASKS]: {} } } }),
    modern: {
      status: 200,
      result: {
        resultType: 'task',
        taskId: '<taskId>',
        status: 'working',
        createdAt: '<time>',
        lastUpdatedAt: '<time>',
        ttlMs: 3_600_000,
        pollIntervalMs: 50,
      },
    },
    task: {
      status: 200,
      task: { status: 'completed', result: { resultType: 'complete', content: [text('2 pages')] } },
    },
    // Tasks are toolprep's own serving's: a server that serves no tasks extension (a user's SDK v2
    // server, and every 2025 one) runs the tool as a plain call.
    legacy: { status: 200, result: { content: [text('2 pages')] } },
    except: { [V2]: { status: 200, result: { resultType: 'complete', content: [text('2 pages')] } } },
  },
  {
    outcome: 'an Mcp-Method header that is not the body’s',
    exchange: call('echo', { text: 'hello' }, { headers: { 'mcp-method': 'tools/list' } }),
    modern: HEADER_MISMATCH,
    ...HEADERS_ONLY,
  },
  {
    outcome: 'an Mcp-Name header that is not the body’s',
    exchange: call('echo', { text: 'hello' }, { headers: { 'mcp-name': 'note_stats' } }),
    modern: HEADER_MISMATCH,
    ...HEADERS_ONLY,
  },
  {
    outcome: 'an Mcp-Param header that disagrees with its argument',
    exchange: call('deploy', { region: 'eu-west-1' }, { headers: { 'mcp-param-region': 'us-east-1' } }),
    modern: HEADER_MISMATCH,
    ...HEADERS_ONLY,
  },
];

function cellOf(row: Row, column: { name: string; era: Era }): Cell {
  const except = row.except?.[column.name];
  if (except) return except;
  return column.era === '2026' ? row.modern : column.era === 'task' ? row.task : row.legacy;
}

const CELLS = ROWS.flatMap((row) =>
  COLUMNS.flatMap((column) => {
    const cell = cellOf(row, column);
    return 'na' in cell ? [] : [{ row, column: column.name, cell }];
  }),
);

let project: FixtureProject;
const columns = new Map<string, Column>();
const listeners = new Map<string, ListenColumn>();
const closers: (() => unknown)[] = [];

beforeAll(async () => {
  project = await mcpServerProject('parity', {
    'stdio-server': readFileSync(path.join(REPO, 'fixtures/parity/src/stdio-server.ts'), 'utf8'),
    'view-tool-set': readFileSync(path.join(REPO, 'test/support/view-tool-set.ts'), 'utf8'),
    'stdio-views': `import { serveStdio } from 'toolprep/mcp';
import { viewRuntime } from './view-tool-set.js';
await serveStdio(viewRuntime(${JSON.stringify(VIEW_HTML)}, ${JSON.stringify(VIEW_ORIGINS)}), ${JSON.stringify(INFO)});
`,
  });
  const runtime = createToolRuntime(prepareToolSet(tools), { handlers });
  const requestState = { key: KEY };
  const withTools = () => attachTools(userV2Server(), runtime, { requestState });

  // toolprep's own serving, with the user's SDK v2 server for the rest of 2026-07-28.
  const nodeFeatures = featureHandler(runtime, userV2Server, { requestState });
  const node = await serveHttp(runtime, INFO, 0, { requestState, modernFeatures: nodeFeatures });
  closers.push(
    () => node.close(),
    () => node.closeAllConnections(),
  );
  const nodeUrl = `http://127.0.0.1:${(node.address() as { port: number }).port}/mcp`;
  const fetchFeatures = featureHandler(runtime, userV2Server, { requestState });
  const fetchHandler = createMcpFetchHandler(runtime, INFO, { requestState, modernFeatures: fetchFeatures });

  // The user's SDK v2 server, served by the SDK alone.
  const v2Handler = createMcpHandler(withTools);
  const v2 = await listen(toNodeHandler(v2Handler) as Parameters<typeof listen>[0]);
  closers.push(
    () => v2Handler.close(),
    () => v2.close(),
  );

  // The user's SDK v1 server, served the SDK's way, with sessions.
  const v1 = await listen(
    v1SessionHandler(() => {
      const server = userV1Server();
      attachToolsV1(server.server, runtime);
      return server;
    }),
  );
  closers.push(() => v1.close());

  const sessions = await serveHttp(runtime, INFO, 0, { requestState, sessions: true });
  closers.push(
    () => sessions.close(),
    () => sessions.closeAllConnections(),
  );
  const sessionsUrl = `http://127.0.0.1:${(sessions.address() as { port: number }).port}/mcp`;

  const stdio = stdioColumn(STDIO, path.join(project.dir, 'out/stdio-server.js'));
  closers.push(() => stdio.close());
  await startViewColumns();
  for (const column of [
    stdio,
    modernHttpColumn(NODE, fetch, nodeUrl),
    modernHttpColumn(FETCH, fetchHandler, 'http://localhost/mcp'),
    modernHttpColumn(V2, fetch, v2.url),
    taskColumn(TASK, nodeUrl.replace(/\/mcp$/, '')),
    legacyColumn(V2_LEGACY, v2.url, { sessions: false }),
    legacyColumn(V1, v1.url, { sessions: true }),
    legacyColumn(OWN_STATELESS, nodeUrl, { sessions: false }),
    legacyColumn(OWN_SESSIONS, sessionsUrl, { sessions: true }),
  ])
    columns.set(column.name, column);

  const notifyOf = (handler: unknown, name: string) => () => {
    const notify = (handler as { notify?: { promptsChanged(): void } }).notify;
    if (!notify)
      throw new Error(`${name}: featureHandler's handler has no notify (the SDK's ServerNotifier)`);
    notify.promptsChanged();
  };
  listeners.set(NODE, {
    name: NODE,
    listen: httpListen(nodeUrl),
    promptsChanged: notifyOf(nodeFeatures, NODE),
  });
  listeners.set(FETCH, {
    name: FETCH,
    listen: fetchListen(fetchHandler, 'http://localhost/mcp'),
    promptsChanged: notifyOf(fetchFeatures, FETCH),
  });
  listeners.set(V2, {
    name: V2,
    listen: httpListen(v2.url),
    promptsChanged: () => v2Handler.notify.promptsChanged(),
  });
}, 120_000);

afterAll(async () => {
  for (const close of closers.reverse()) await Promise.resolve(close()).catch(() => {});
  project?.remove();
});

describe.concurrent('one answer per outcome', () => {
  for (const { row, column, cell } of CELLS)
    test(`${row.outcome} — ${column}`, async ({ expect }) => {
      const serving = columns.get(column) as Column;
      const seen = await serving.send(row.exchange);
      // Over stdio there is no HTTP status to compare.
      const { status: _status, ...withoutStatus } = cell as Seen;
      expect(seen).toEqual(serving.http ? cell : withoutStatus);
    });
});

const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';
const acknowledged = (id: string) => ({
  jsonrpc: '2.0',
  method: 'notifications/subscriptions/acknowledged',
  params: { notifications: { promptsListChanged: true }, _meta: { [SUBSCRIPTION]: id } },
});

/** Rows about `subscriptions/listen`, on the 2026 HTTP columns that serve it (your SDK v2 server's). */
interface ListenRow {
  readonly outcome: string;
  run(column: ListenColumn): Promise<unknown>;
  readonly expected: unknown;
}

const LISTEN_ROWS: readonly ListenRow[] = [
  {
    outcome: 'a change of the user’s prompt list reaches an open listen stream',
    expected: [
      acknowledged('changes'),
      {
        jsonrpc: '2.0',
        method: 'notifications/prompts/list_changed',
        params: { _meta: { [SUBSCRIPTION]: 'changes' } },
      },
    ],
    async run(column) {
      const stream = await column.listen('changes', { promptsListChanged: true });
      try {
        const ack = await stream.next();
        addedPrompts.push(`added for ${column.name}`);
        column.promptsChanged();
        return [ack, await stream.next(2_000)];
      } finally {
        stream.drop();
      }
    },
  },
  {
    outcome: 'listen streams are released when their clients go',
    expected: acknowledged('after'),
    async run(column) {
      // Past the SDK's limit of 1,024 open subscriptions, a hundred clients at a time.
      for (let start = 0; start < 1_030; start += 100)
        await Promise.all(
          Array.from({ length: Math.min(100, 1_030 - start) }, async (_, index) => {
            const stream = await column.listen(`gone-${start + index}`, { promptsListChanged: true });
            await stream.next();
            stream.drop();
          }),
        );
      // The server hears of each client going a moment after it went.
      for (const deadline = Date.now() + 3_000; ; ) {
        const stream = await column.listen('after', { promptsListChanged: true });
        const answer = await stream.next();
        stream.drop();
        if ((answer as { method?: string }).method !== undefined || Date.now() > deadline) return answer;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  },
];

describe('listen streams', () => {
  for (const row of LISTEN_ROWS)
    for (const column of [NODE, FETCH, V2])
      test(`${row.outcome} — ${column}`, async () => {
        expect(await row.run(listeners.get(column) as ListenColumn)).toEqual(row.expected);
      });
});

/**
 * Views (MCP Apps, decision 0058): `resources/list`, `resources/read` and the tools list chosen by
 * the client's `io.modelcontextprotocol/ui` capability, the same answers from every serving path —
 * toolprep's own stdio, Node HTTP and fetch serving, its 2026 features handed to the user's SDK v2
 * server, the SDK v2 server the views are attached to on both eras, and an SDK v1 session.
 */
const VIEW_HTML = {
  forecast: '<!doctype html><html><body>forecast</body></html>',
  gallery: '<!doctype html><html><body>gallery</body></html>',
  todo: '<!doctype html><html><body>todo</body></html>',
};
const VIEW_ORIGINS = { api: 'https://api.example.com', cdn: 'https://cdn.example.com' };
const VIEW_SET = viewToolSet(VIEW_HTML, VIEW_ORIGINS);
const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
const HANDED_OVER = 'own 2026 Node HTTP, resources handed to SDK v2';
const VIEW_COLUMNS: readonly { name: string; era: Era }[] = [
  { name: STDIO, era: '2026' },
  { name: NODE, era: '2026' },
  { name: FETCH, era: '2026' },
  { name: HANDED_OVER, era: '2026' },
  { name: V2, era: '2026' },
  { name: V2_LEGACY, era: '2025' },
  { name: V1, era: '2025' },
  { name: OWN_STATELESS, era: '2025' },
  { name: OWN_SESSIONS, era: '2025' },
];
const viewColumns = new Map<string, Column>();

async function startViewColumns(): Promise<void> {
  const runtime = viewRuntime(VIEW_HTML, VIEW_ORIGINS);
  const serve = async (options: Parameters<typeof serveHttp>[3]) => {
    const server = await serveHttp(runtime, INFO, 0, options);
    closers.push(
      () => server.close(),
      () => server.closeAllConnections(),
    );
    return `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
  };
  const own = await serve({});
  const sessions = await serve({ sessions: true });
  const handedOver = await serve({
    modernFeatures: featureHandler(runtime, () => new McpServer({ name: 'user-v2', version: '2.0.0' })),
  });
  const v2Handler = createMcpHandler(() =>
    attachTools(new McpServer({ name: 'user-v2', version: '2.0.0' }), runtime),
  );
  const v2 = await listen(toNodeHandler(v2Handler) as Parameters<typeof listen>[0]);
  const v1 = await listen(
    v1SessionHandler(() => attachToolsV1(new McpServerV1({ name: 'user-v1', version: '1.0.0' }), runtime)),
  );
  closers.push(
    () => v2Handler.close(),
    () => v2.close(),
    () => v1.close(),
  );
  const stdio = stdioColumn(STDIO, path.join(project.dir, 'out/stdio-views.js'));
  closers.push(() => stdio.close());
  for (const column of [
    stdio,
    modernHttpColumn(NODE, fetch, own),
    modernHttpColumn(FETCH, createMcpFetchHandler(runtime, INFO), 'http://localhost/mcp'),
    modernHttpColumn(HANDED_OVER, fetch, handedOver),
    modernHttpColumn(V2, fetch, v2.url),
    legacyColumn(V2_LEGACY, v2.url, { sessions: false }),
    legacyColumn(V1, v1.url, { sessions: true }),
    legacyColumn(OWN_STATELESS, own, { sessions: false }),
    legacyColumn(OWN_SESSIONS, sessions, { sessions: true }),
  ])
    viewColumns.set(column.name, column);
}

/** What hosts read of each view, on the list entry and on the content alike. */
const VIEW_UI: Record<string, Record<string, unknown>> = {
  forecast: { csp: { connectDomains: [VIEW_ORIGINS.api] } },
  gallery: { csp: { resourceDomains: [VIEW_ORIGINS.cdn] }, prefersBorder: true },
  todo: { csp: {}, permissions: { clipboardWrite: {} } },
};
const MIME = 'text/html;profile=mcp-app';
const CURRENT_VIEWS = (VIEW_SET.views ?? []).filter((view) => view.current);
const OLDER_VIEW = (VIEW_SET.views ?? []).find((view) => !view.current);
/** 2026-07-28's caching hints on a list toolprep answers (the server's default). */
const CACHED = { ttlMs: 300_000, cacheScope: 'public' };
/** On a view's read: the answer at its URI never changes, so a client keeps it a year (decision 0062). */
const KEPT = { ttlMs: 31_536_000_000, cacheScope: 'public' };
/** The user's SDK v2 server answers resources with its own caching hints: its lists, and its scope. */
const SDK_V2_SERVERS = [HANDED_OVER, V2];
const SDK_HINTS = { ttlMs: 0, cacheScope: 'private' };
const SDK_READ_HINTS = { ttlMs: KEPT.ttlMs, cacheScope: 'private' };
const bySdkV2 = (answer: unknown) => Object.fromEntries(SDK_V2_SERVERS.map((name) => [name, answer]));

/** The views as `resources/list` lists them: the current version of each. */
const LISTED_VIEWS = CURRENT_VIEWS.map((view) => ({
  uri: view.uri,
  name: view.name,
  mimeType: MIME,
  size: view.bytes,
  _meta: { ui: VIEW_UI[view.name] },
}));

function readOf(view: (typeof CURRENT_VIEWS)[number], text: string) {
  return {
    contents: [{ uri: view.uri, mimeType: MIME, text, _meta: { ui: VIEW_UI[view.name], etag: view.digest } }],
  };
}

/** The tools list's names and view links, in the order given. */
function linksOf(tools: { name: string; _meta?: Record<string, unknown> }[]) {
  return tools.map((tool) => ({ name: tool.name, ui: tool._meta?.ui, flat: tool._meta?.['ui/resourceUri'] }));
}
const LINKED = VIEW_SET.prepared.map((tool) => ({
  name: tool.name,
  ui: tool.view,
  flat: tool.view?.resourceUri,
}));
const PLAIN = VIEW_SET.prepared
  .filter((tool) => tool.view?.visibility.includes('model') !== false)
  .map((tool) => ({ name: tool.name, ui: undefined, flat: undefined }));

interface ViewRow {
  readonly outcome: string;
  readonly exchange: Exchange;
  /** The answer's result, brought to what every column must agree on. */
  readonly seen: (result: Record<string, unknown>) => unknown;
  readonly modern: unknown;
  readonly legacy: unknown;
  readonly except?: Readonly<Record<string, unknown>>;
}

const VIEW_ROWS: readonly ViewRow[] = [
  {
    outcome: 'resources/list: the current version of each view',
    exchange: { method: 'resources/list', params: {}, capabilities: UI },
    seen: (result) => result,
    modern: {
      resultType: 'complete',
      resources: LISTED_VIEWS,
      ...CACHED,
    },
    except: bySdkV2({
      resultType: 'complete',
      resources: LISTED_VIEWS,
      ...SDK_HINTS,
    }),
    legacy: {
      resources: LISTED_VIEWS,
    },
  },
  ...CURRENT_VIEWS.map(
    (view): ViewRow => ({
      outcome: `resources/read: the ${view.name} view as built`,
      exchange: { method: 'resources/read', params: { uri: view.uri }, capabilities: UI },
      seen: (result) => result,
      modern: {
        resultType: 'complete',
        ...readOf(view, VIEW_HTML[view.name as keyof typeof VIEW_HTML]),
        ...KEPT,
      },
      legacy: readOf(view, VIEW_HTML[view.name as keyof typeof VIEW_HTML]),
      except: bySdkV2({
        resultType: 'complete',
        ...readOf(view, VIEW_HTML[view.name as keyof typeof VIEW_HTML]),
        ...SDK_READ_HINTS,
      }),
    }),
  ),
  {
    outcome: 'resources/read: an older version the build kept',
    exchange: { method: 'resources/read', params: { uri: OLDER_VIEW?.uri }, capabilities: UI },
    seen: (result) => result,
    modern: { resultType: 'complete', ...readOf(OLDER_VIEW as never, OLD_FORECAST_HTML), ...KEPT },
    legacy: readOf(OLDER_VIEW as never, OLD_FORECAST_HTML),
    except: bySdkV2({
      resultType: 'complete',
      ...readOf(OLDER_VIEW as never, OLD_FORECAST_HTML),
      ...SDK_READ_HINTS,
    }),
  },
  {
    outcome: 'tools/list of a host that renders views: each link, the app-only tool too',
    exchange: { method: 'tools/list', params: {}, capabilities: UI },
    seen: (result) => linksOf(result.tools as never),
    modern: LINKED,
    legacy: LINKED,
  },
  {
    outcome: 'tools/list of a client that renders none: no link, no app-only tool',
    exchange: { method: 'tools/list', params: {}, capabilities: {} },
    seen: (result) => linksOf(result.tools as never),
    modern: PLAIN,
    legacy: PLAIN,
    // A stateless 2025 request brings no capabilities: it gets the list with the views (decision 0058).
    except: { [V2_LEGACY]: LINKED, [OWN_STATELESS]: LINKED },
  },
];

describe('views: one answer per serving path', () => {
  for (const row of VIEW_ROWS)
    for (const column of VIEW_COLUMNS)
      test(`${row.outcome} — ${column.name}`, async () => {
        const seen = await (viewColumns.get(column.name) as Column).send(row.exchange);
        expect(seen.error).toBeUndefined();
        const expected = row.except?.[column.name] ?? (column.era === '2026' ? row.modern : row.legacy);
        expect(row.seen(seen.result as Record<string, unknown>)).toEqual(expected);
      });

  // A host that renders views calls the app-only tool for its view; a client that renders none was
  // not listed it, and calls it as a tool it does not have. A stateless 2025 request declares
  // nothing, and is served as a host (decision 0058).
  test.each(VIEW_COLUMNS)(
    'tools/call of the app-only tool, by a host and by a plain client — $name',
    async ({ name }) => {
      const column = viewColumns.get(name) as Column;
      const call = (capabilities: Record<string, unknown>) =>
        column.send({
          method: 'tools/call',
          params: { name: 'todo_add', arguments: { item: `from ${name}` } },
          capabilities,
        });
      const byHost = await call(UI);
      expect((byHost.result as { structuredContent: { items: string[] } }).structuredContent.items).toContain(
        `from ${name}`,
      );
      const byPlainClient = await call({});
      if (name === V2_LEGACY || name === OWN_STATELESS) expect(byPlainClient.error).toBeUndefined();
      else
        expect(byPlainClient.error).toEqual({
          code: -32602,
          message: 'Unknown tool "todo_add". Available tools: weather, gallery, todo_list.',
        });
    },
  );

  // 2026-07-28 says a missing resource with -32602 (SEP-2164), 2025 with -32002; SDK v2 answers
  // -32602 on both eras, whatever its handler threw.
  test.each(VIEW_COLUMNS)('resources/read of a URI that is no view — $name', async ({ name, era }) => {
    const uri = 'ui://forecast/0000000000000000.html';
    const seen = await (viewColumns.get(name) as Column).send({
      method: 'resources/read',
      params: { uri },
      capabilities: UI,
    });
    const code = era === '2026' || name === V2_LEGACY ? -32602 : -32002;
    expect(seen).toEqual({
      ...(name === STDIO ? {} : { status: 200 }),
      error: { code, message: `Resource not found: "${uri}"`, data: { uri } },
    });
  });
});
