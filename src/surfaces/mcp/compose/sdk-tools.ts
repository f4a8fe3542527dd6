import type { ListToolsResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { invalidCursor, type ToolService } from '../service/tool-service.js';
import { ERRORS, type WireError } from '../wire/jsonrpc.js';

/**
 * toolprep's tools beside the tools a user registered with the SDK's `registerTool` on the same
 * `McpServer` (SDK v1 and v2 alike), so that a server moves to contracts one tool at a time
 * (decision 0040). The SDK keeps its tools in its `McpServer` and answers them through two request
 * handlers it installs on its low-level server once; we take those two handlers as it hands them
 * over, and install one `tools/list` and one `tools/call` that answer for both. It imports nothing
 * of the SDK at run time, so each binding passes what differs: how a handler names its method.
 */

/** The SDK's own `tools/list` and `tools/call` handlers, as its `McpServer` gave them to its server. */
export interface SdkToolHandlers {
  readonly list: (request: unknown, context: unknown) => unknown;
  readonly call: (request: unknown, context: unknown) => unknown;
}

/** What composing reads of an SDK `McpServer` (v1 and v2 have the same shape here). */
interface McpServerShape {
  readonly server: {
    setRequestHandler(first: unknown, handler: unknown): unknown;
    removeRequestHandler(method: string): void;
  };
  setToolRequestHandlers?: unknown;
  _toolHandlersInitialized?: unknown;
  _registeredTools?: unknown;
  registerTool?: unknown;
  tool?: unknown;
}

/** The servers tools were attached to: a second runtime on one server would drop the first's tools. */
const attached = new WeakSet<object>();

/** Each `McpServer` whose SDK tools were composed, by its low-level server: what a hand-over gives. */
const composedOnto = new WeakMap<object, object>();

/**
 * Takes the SDK's own tool handlers off an `McpServer` and leaves the server believing they are
 * installed, so that a `registerTool` after this installs nothing (which would throw "A request
 * handler for tools/list already exists"). Whichever came first, the SDK's handlers are made afresh
 * by its own `setToolRequestHandlers`, which reads the tools it has when a request comes: a tool
 * registered, renamed or removed later is listed as it is then.
 *
 * No public route gives the handlers back, so this reads two private members of the SDK's
 * `McpServer` (`setToolRequestHandlers`, `_toolHandlersInitialized`) and throws here, at attach,
 * when a release changes them, rather than serve a server that silently lacks tools;
 * test/surfaces/sdk-migration.test.ts pins both SDKs.
 */
export function takeSdkToolHandlers(
  mcpServer: object,
  sdk: string,
  methodOf: (first: unknown) => string | undefined,
): SdkToolHandlers {
  const target = mcpServer as McpServerShape;
  if (attached.has(mcpServer))
    throw new Error(
      '[toolprep] attachTools was already called on this McpServer: attach one runtime per server (a second would replace the first one’s tools)',
    );
  if (
    typeof target.setToolRequestHandlers !== 'function' ||
    typeof target._toolHandlersInitialized !== 'boolean'
  )
    throw unknownShape(sdk);
  const { server } = target;
  if (target._toolHandlersInitialized) {
    server.removeRequestHandler('tools/list');
    server.removeRequestHandler('tools/call');
    target._toolHandlersInitialized = false;
  }
  const taken: { [method: string]: SdkToolHandlers['list'] } = {};
  const { setRequestHandler } = server;
  const ownBefore = Object.hasOwn(server, 'setRequestHandler');
  server.setRequestHandler = (first: unknown, handler: unknown) => {
    const method = methodOf(first);
    if (method === 'tools/list' || method === 'tools/call')
      taken[method] = handler as SdkToolHandlers['list'];
    else return setRequestHandler.call(server, first, handler);
  };
  try {
    target.setToolRequestHandlers.call(mcpServer);
  } finally {
    if (ownBefore) server.setRequestHandler = setRequestHandler;
    else delete (server as Partial<McpServerShape['server']>).setRequestHandler;
  }
  const list = taken['tools/list'];
  const call = taken['tools/call'];
  if (!list || !call || target._toolHandlersInitialized !== true) throw unknownShape(sdk);
  attached.add(mcpServer);
  composedOnto.set(server, mcpServer);
  return { list, call };
}

function unknownShape(sdk: string): Error {
  return new Error(
    `[toolprep] attachTools cannot reach the tools this ${sdk} McpServer keeps: its release installs them in a way toolprep does not know. Pin ${sdk} to a release toolprep supports (see docs/guide/migrating-from-the-sdk.md), or attach to its low-level \`server\` if it has no tools of its own; this is a bug in toolprep if that release is supported`,
  );
}

/** Why a tool is refused: it is both a contract and registered with the SDK on this server. */
function ownedTwice(name: string): string {
  return `[toolprep] tool "${name}" is defined twice on this McpServer: registered with the SDK's registerTool, and a toolprep contract in the tool set given to attachTools. Remove the registerTool call of a tool moved to a contract (or remove the contract)`;
}

/**
 * The tools registered with the SDK on an `McpServer`, by name, read from its private
 * `_registeredTools` (no public route lists them; pinned by the tests like the handlers).
 */
function registeredTools(mcpServer: object): object | undefined {
  const registered = (mcpServer as McpServerShape)._registeredTools;
  return typeof registered === 'object' && registered !== null ? registered : undefined;
}

/** The names of the tools registered with the SDK on an `McpServer`. */
function sdkToolNames(mcpServer: object): readonly string[] {
  return Object.keys(registeredTools(mcpServer) ?? {});
}

/**
 * Refuses, at start, a server that toolprep's own serving hands requests to while it answers a
 * 2026-07-28 client's `tools/list` and `tools/call` itself from the prepared tools alone, when it
 * has tools registered with the SDK: that client would not see them. `server` is an `McpServer`, or
 * the low-level server of one whose tools `attachTools` composed; `where` names the option, and
 * `instead` says how to serve such a server.
 */
export function refuseSdkTools(server: object, where: string, instead: string): void {
  const names = sdkToolNames(composedOnto.get(server) ?? server);
  if (names.length === 0) return;
  throw new Error(
    `[toolprep] ${where}: the McpServer has tools registered with the SDK's registerTool (${names.map((name) => `"${name}"`).join(', ')}), which toolprep's own serving would not list to a 2026-07-28 client: it answers tools/list and tools/call from the prepared tools alone. ${instead}, or move these tools to contracts (docs/guide/migrating-from-the-sdk.md)`,
  );
}

/**
 * `refuseSdkTools` for the `server` option of toolprep's HTTP serving, on one server made by its
 * factory at start. A factory that throws is not refused here: it fails each request that needs
 * it, reported to `onerror` there (decision 0036).
 */
export function refuseSdkToolsOfFactory(makeServer: () => object): void {
  let server: object;
  try {
    server = makeServer();
  } catch {
    return;
  }
  refuseSdkTools(
    server,
    'the `server` option',
    "Serve that server with the SDK's own transport instead (on SDK v2, createMcpHandler(() => attachTools(server, runtime)) serves both kinds of tools in both eras)",
  );
}

/**
 * Whether a call is the SDK's: a tool it has (disabled ones too: it answers those). A name
 * nobody has stays toolprep's, so that an unknown tool is answered alike on every binding.
 */
export function sdkHasTool(mcpServer: object, name: string): boolean {
  const registered = registeredTools(mcpServer);
  return registered === undefined || Object.hasOwn(registered, name);
}

/**
 * Refuses, at attach, a name the SDK already has, and makes `registerTool` (and v1's `tool`)
 * refuse one after it. A rename through a registered tool's `update` is caught when the list is
 * next asked for.
 */
export function refuseNamesOwnedTwice(mcpServer: object, service: ToolService): void {
  const target = mcpServer as McpServerShape;
  for (const name of sdkToolNames(mcpServer)) if (service.names.has(name)) throw new Error(ownedTwice(name));
  for (const method of ['registerTool', 'tool'] as const) {
    const register = target[method];
    if (typeof register !== 'function') continue;
    Object.defineProperty(mcpServer, method, {
      configurable: true,
      writable: true,
      value(name: unknown, ...rest: unknown[]) {
        if (typeof name === 'string' && service.names.has(name)) throw new Error(ownedTwice(name));
        return register.call(mcpServer, name, ...rest);
      },
    });
  }
}

/** A page of the composed list: toolprep's prepared entries first, then the SDK's own in its order. */
export function composedPage(
  service: ToolService,
  pageSize: number,
  cursor: unknown,
  sdkListed: unknown,
): { readonly page: ListToolsResult } | { readonly error: WireError } {
  const sdkTools = (sdkListed as ListToolsResult | undefined)?.tools ?? [];
  // With no SDK tool, the prepared pages as they are, with their cursors.
  if (sdkTools.length === 0) return service.page(pageSize, cursor);
  const twice = sdkTools.find((tool) => service.names.has(tool.name));
  if (twice) return { error: { code: ERRORS.internal.code, message: ownedTwice(twice.name) } };
  const all: readonly Tool[] = [...preparedTools(service), ...sdkTools];
  const start = composedStart(cursor, all.length);
  if (start === undefined) return { error: invalidCursor(cursor) };
  const end = start + pageSize;
  return {
    page: {
      tools: all.slice(start, end),
      ...(end < all.length ? { nextCursor: `${COMPOSED_CURSOR}${end}` } : {}),
    },
  };
}

/** Every prepared entry, as one page of the service's (made once per runtime, then kept). */
function preparedTools(service: ToolService): readonly Tool[] {
  const listed = service.page(Number.MAX_SAFE_INTEGER, undefined);
  return 'page' in listed ? listed.page.tools : [];
}

/**
 * A composed page's cursor: where it starts in the composed list. Distinct from the prepared
 * pages' cursors, so that one given before the SDK's tools came is refused, not misread.
 */
const COMPOSED_CURSOR = 'composed:';

function composedStart(cursor: unknown, count: number): number | undefined {
  if (cursor === undefined) return 0;
  if (typeof cursor !== 'string' || !cursor.startsWith(COMPOSED_CURSOR)) return undefined;
  const digits = cursor.slice(COMPOSED_CURSOR.length);
  const start = /^\d{1,9}$/.test(digits) ? Number(digits) : Number.NaN;
  return start <= count ? start : undefined;
}
