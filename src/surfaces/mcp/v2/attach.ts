import {
  type CallToolResult,
  type CreateMcpHandlerOptions,
  createMcpHandler,
  type McpHttpHandler,
  type McpServer,
  ProtocolError,
  ResourceTemplate,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ToolRuntime } from '../../../runtime/runner.js';
import { logError, type OnError } from '../../../shared/run/on-error.js';
import {
  composedPage,
  refuseNamesOwnedTwice,
  refuseSdkTools,
  type SdkToolHandlers,
  sdkHasTool,
  takeSdkToolHandlers,
} from '../compose/sdk-tools.js';
import { attachViews } from '../compose/sdk-views.js';
import { askingCall } from '../service/asking-call.js';
import { missingCapabilityError } from '../service/questions.js';
import {
  type RequestStateOptions,
  type RequestStateSigner,
  requestStateSigner,
} from '../service/request-state.js';
import { type AttachToolsOptions, type ToolService, toolServiceOf } from '../service/tool-service.js';
import { callingRuntimeOf, toolListOf, VIEW_READ_TTL_MS, viewServiceOf } from '../service/views.js';
import { META, mirroredMismatch } from '../wire/envelope.js';
import { ERRORS } from '../wire/jsonrpc.js';

/**
 * `toolprep/mcp/v2`: the prepared tools on the official SDK v2 (`@modelcontextprotocol/server`),
 * beside a server's own resources, prompts and completions, in both eras the SDK serves. Its
 * answers are the tool service's, as on toolprep's own serving: the SDK only carries them.
 */

export interface AttachToolsV2Options extends AttachToolsOptions {
  /** How the state of an input-required result is signed: give every node the same key. */
  readonly requestState?: RequestStateOptions;
}

/**
 * The signers made per runtime and key: a `createMcpHandler` factory attaches the tools to a fresh
 * server on every request, which must cost neither a key nor a list.
 */
const signers = new WeakMap<ToolRuntime, Map<unknown, RequestStateSigner>>();

function signerOf(runtime: ToolRuntime, options: RequestStateOptions = {}): RequestStateSigner {
  let byKey = signers.get(runtime);
  if (!byKey) {
    byKey = new Map();
    signers.set(runtime, byKey);
  }
  const cacheKey = `${String(options.key)}\u0000${options.ttlMs}`;
  let signer = byKey.get(cacheKey);
  if (!signer) {
    signer = requestStateSigner(options);
    byKey.set(cacheKey, signer);
  }
  return signer;
}

/**
 * Serves the runtime's tools on an SDK v2 `McpServer` (or its low-level `Server`): `tools/list`
 * answers the prepared pages as they are, so the SDK converts no schema, and `tools/call` goes
 * through `runtime.call`, one parse per call. A handler's questions (`context.elicit`, …) become
 * input-required results, which the SDK serves as such to a 2026-07-28 client and as requests to a
 * 2025 one. Attach before the server is connected. On an `McpServer`, the tools you register with
 * `registerTool` (before or after) stay served beside them: one list, toolprep's entries first,
 * each call to the tool's owner, and a name that is both refused (docs/guide/migrating-from-the-sdk.md).
 * Costs the same whatever the number of tools: call it in a `createMcpHandler` factory freely.
 */
export function attachTools<Target extends McpServer | Server>(
  target: Target,
  runtime: ToolRuntime,
  options: AttachToolsV2Options = {},
): Target {
  const isMcpServer = 'registerTool' in target;
  const server: Server = isMcpServer ? target.server : target;
  const pageSize = options.pageSize ?? 200;
  const service = toolServiceOf(runtime);
  const states = signerOf(runtime, options.requestState);
  let sdkTools: SdkToolHandlers | undefined;
  if (isMcpServer) {
    refuseNamesOwnedTwice(target, service);
    sdkTools = takeSdkToolHandlers(target, '@modelcontextprotocol/server', (method) =>
      typeof method === 'string' ? method : undefined,
    );
    checkMirroredHeadersFirst(target, service);
  }
  server.registerCapabilities({ tools: {} });

  server.setRequestHandler('tools/list', async (request, context) => {
    const cursor = request.params?.cursor;
    const tools = toolListOf(runtime, clientCapabilities(server, context));
    const listed = sdkTools
      ? composedPage(tools, pageSize, cursor, await sdkTools.list(request, context))
      : tools.page(pageSize, cursor);
    if ('error' in listed) throw new ProtocolError(listed.error.code, listed.error.message);
    return listed.page as never;
  });

  server.setRequestHandler('tools/call', async (request, context: ServerContext) => {
    const { name, arguments: args = {} } = request.params;
    // A tool registered with the SDK is the SDK's to check, run and answer.
    if (sdkTools && !service.names.has(name) && sdkHasTool(target, name))
      return (await sdkTools.call(request, context)) as never;
    const { mcpReq } = context;
    // A low-level Server's 2026-07-28 calls reach here unchecked (the SDK checks Mcp-Param-* for an
    // McpServer's tools only); a 2025 request (no envelope) carries no such headers.
    const httpRequest = mcpReq.envelope ? context.http?.req : undefined;
    const mismatch =
      httpRequest &&
      mirroredMismatch(
        service.mirrored.get(name),
        args,
        (header) => httpRequest.headers.get(header) ?? undefined,
      );
    if (mismatch) throw new ProtocolError(ERRORS.headerMismatch.code, `Header mismatch: ${mismatch}`);
    const capabilities = clientCapabilities(server, context);
    const outcome = await askingCall(callingRuntimeOf(runtime, capabilities), states, {
      id: mcpReq.id,
      name,
      args,
      meta: { ...mcpReq._meta, ...mcpReq.envelope },
      capabilities: capabilities ?? {},
      requestState: mcpReq.requestState(),
      inputResponses: mcpReq.inputResponses,
      notify: (notification) => void mcpReq.notify(notification as never).catch(() => {}),
      signal: mcpReq.signal,
    });
    if ('invalid' in outcome) throw new ProtocolError(ERRORS.invalidParams.code, outcome.invalid);
    if ('missing' in outcome) {
      const { code, message, data } = missingCapabilityError(outcome.missing);
      throw new ProtocolError(code, message, data);
    }
    if ('inputRequests' in outcome) return outcome as never;
    const answer = service.answer(name, outcome.result);
    if ('error' in answer)
      throw new ProtocolError(answer.error.code, answer.error.message, answer.error.data);
    // The SDK's projection of a result for the era of the request (a 2025 client's structured content).
    return server.projectCallToolResult(
      answer.result as CallToolResult,
      service.outputSchemaOf(name) as Record<string, unknown> | undefined,
    );
  });
  attachViews(target, server, viewServiceOf(runtime), {
    template: (uriTemplate) => new ResourceTemplate(uriTemplate, { list: undefined }),
    handle: (method, answer) =>
      server.setRequestHandler(
        method,
        // Only a 2026-07-28 request carries the envelope.
        (request, context) =>
          answer(request.params ?? {}, context.mcpReq.envelope ? '2026-07-28' : '2025') as never,
      ),
    raise: ({ code, message, data }) => new ProtocolError(code, message, data),
    // The answer at a view's URI never changes; the scope stays the SDK server's choice.
    readConfig: { cacheHint: { ttlMs: VIEW_READ_TTL_MS } },
  });
  return target;
}

/**
 * What the client declared it can do: a 2026-07-28 request's envelope, or the 2025 session's
 * `initialize`; undefined for a stateless 2025 request, which brings none.
 */
function clientCapabilities(server: Server, context: ServerContext): Record<string, unknown> | undefined {
  return (
    (context.mcpReq.envelope?.[META.clientCapabilities as never] as Record<string, unknown> | undefined) ??
    server.getClientCapabilities()
  );
}

/**
 * Lets `createMcpHandler` check the `Mcp-Param-*` headers of toolprep's tools before dispatch, as
 * it does for tools registered with the SDK, so that a mismatch is answered HTTP 400 (decision
 * 0036): it reads a tool's input schema through `toolInputSchemaJson`, which knows only the SDK's
 * own tools; the prepared document is what `tools/list` sends. Where a version of the SDK has no
 * such method, the handler's own check above still refuses the call (HTTP 200).
 */
function checkMirroredHeadersFirst(server: McpServer, service: ToolService): void {
  const own = server as unknown as { toolInputSchemaJson?: (name: string) => unknown };
  const sdkOwn = own.toolInputSchemaJson;
  if (typeof sdkOwn !== 'function') return;
  own.toolInputSchemaJson = (name) => service.inputSchemaOf(name) ?? sdkOwn.call(server, name);
}

export interface FeatureHandlerOptions extends AttachToolsV2Options {
  /** Where the SDK reports what it cannot answer with (`createMcpHandler`'s option). Default: stderr, once per cause (decision 0044). */
  readonly onerror?: OnError;
  /** The change-event bus of `subscriptions/listen` streams, for several processes (`createMcpHandler`'s option). */
  readonly bus?: CreateMcpHandlerOptions['bus'];
  /** How many listen streams may be open at once (`createMcpHandler`'s option). Default 1,024. */
  readonly maxSubscriptions?: number;
}

/** A `modernFeatures` handler: what answers a request, and the SDK handler's `notify`, `bus` and `close`. */
export type FeatureHandler = ((request: Request, parsedBody: unknown) => Promise<Response>) &
  Pick<McpHttpHandler, 'notify' | 'bus' | 'close'>;

/**
 * What answers, beside toolprep's own HTTP serving (`modernFeatures`), the 2026-07-28 requests of
 * your SDK v2 server (its resources, prompts, completions, `server/discover`, `subscriptions/listen`),
 * made per request with the tools attached, as `createMcpHandler` serves it. Its `notify`
 * (`features.notify.promptsChanged()`, …) reaches the clients listening for those changes. It makes
 * one server at once, to refuse one with tools registered with the SDK (see `refuseSdkTools`).
 */
export function featureHandler(
  runtime: ToolRuntime,
  makeServer: () => McpServer,
  options: FeatureHandlerOptions = {},
): FeatureHandler {
  const { onerror, bus, maxSubscriptions, ...attach } = options;
  refuseSdkTools(
    makeServer(),
    'featureHandler',
    "Serve the server with the SDK's createMcpHandler(() => attachTools(server, runtime)) instead, which serves both kinds of tools in both eras",
  );
  const handler = createMcpHandler(() => attachTools(makeServer(), runtime, attach), {
    onerror: onerror ?? logError,
    ...(bus ? { bus } : {}),
    ...(maxSubscriptions === undefined ? {} : { maxSubscriptions }),
  });
  return Object.assign((request: Request, parsedBody: unknown) => handler.fetch(request, { parsedBody }), {
    notify: handler.notify,
    bus: handler.bus,
    close: handler.close,
  });
}
