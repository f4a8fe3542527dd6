import {
  type CallToolResult,
  createMcpHandler,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ToolRuntime } from '../runtime/runner.js';
import {
  type AttachToolsOptions,
  errorResultOf,
  pageOf,
  servingOf,
  startOf,
  toolResultOf,
} from './mcp-listing.js';
import { askingCall, mirroredMismatch } from './mcp-modern.js';
import { type RequestStateOptions, requestStateSigner } from './mcp-request-state.js';

export type { AttachToolsOptions } from './mcp-listing.js';
export type { RequestStateOptions } from './mcp-request-state.js';

/**
 * `toolprep/mcp/v2`: the prepared tools on the official SDK v2 (`@modelcontextprotocol/server`),
 * beside a server's own resources, prompts and completions, in both eras the SDK serves.
 */

/** MCP 2026-07-28's HeaderMismatch. */
const HEADER_MISMATCH = -32020;

export interface AttachToolsV2Options extends AttachToolsOptions {
  /** How the state of an input-required result is signed: give every node the same key. */
  readonly requestState?: RequestStateOptions;
}

/**
 * The signers made per runtime and key: a `createMcpHandler` factory attaches the tools to a fresh
 * server on every request, which must cost neither a key nor a list.
 */
const signers = new WeakMap<ToolRuntime, Map<unknown, ReturnType<typeof requestStateSigner>>>();

function signerOf(runtime: ToolRuntime, options: RequestStateOptions = {}) {
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
 * 2025 one. Attach before the server is connected; it owns the server's tools, so register no tool
 * of your own on the same server. Costs the same whatever the number of tools: call it in a
 * `createMcpHandler` factory freely.
 */
export function attachTools<Target extends McpServer | Server>(
  target: Target,
  runtime: ToolRuntime,
  options: AttachToolsV2Options = {},
): Target {
  const server: Server = 'registerTool' in target ? target.server : target;
  const pageSize = options.pageSize ?? 200;
  const serving = servingOf(runtime);
  const states = signerOf(runtime, options.requestState);
  server.registerCapabilities({ tools: {} });

  server.setRequestHandler('tools/list', (request) => {
    const cursor = request.params?.cursor;
    const start = startOf(serving, cursor);
    if (start === undefined)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid cursor "${cursor}": pass the nextCursor of the previous page`,
      );
    return pageOf(serving, pageSize, start) as never;
  });

  server.setRequestHandler('tools/call', async (request, context: ServerContext) => {
    const { name, arguments: args = {} } = request.params;
    const { mcpReq } = context;
    // The SDK checks Mcp-Param-* headers only for tools it registered: these are checked here.
    const httpRequest = context.http?.req;
    const mismatch =
      httpRequest &&
      mirroredMismatch(
        serving.mirrored.get(name),
        args,
        (header) => httpRequest.headers.get(header) ?? undefined,
      );
    if (mismatch) throw new ProtocolError(HEADER_MISMATCH, `Header mismatch: ${mismatch}`);
    const outcome = await askingCall(runtime, states, {
      id: mcpReq.id,
      name,
      args,
      meta: { ...mcpReq._meta, ...mcpReq.envelope },
      capabilities:
        (mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities' as never] as
          | Record<string, unknown>
          | undefined) ??
        server.getClientCapabilities() ??
        {},
      checkCapabilities: false,
      requestState: mcpReq.requestState(),
      inputResponses: mcpReq.inputResponses,
      notify: (notification) => void mcpReq.notify(notification as never).catch(() => {}),
      signal: mcpReq.signal,
    });
    if ('invalid' in outcome) throw new ProtocolError(ProtocolErrorCode.InvalidParams, outcome.invalid);
    if ('missing' in outcome)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `This tool needs the client's ${outcome.missing} capability`,
      );
    if ('inputRequests' in outcome) return outcome as never;
    const { result } = outcome;
    const answer: CallToolResult | undefined = result.ok
      ? (toolResultOf(serving, name, result.value) as CallToolResult)
      : (errorResultOf(result) as CallToolResult | undefined);
    if (!answer)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, result.ok ? '' : result.error.message);
    // The SDK's projection of a result for the era of the request (a 2025 client's structured content).
    return server.projectCallToolResult(
      answer,
      serving.outputSchemas.get(name) as Record<string, unknown> | undefined,
    );
  });
  return target;
}

/**
 * What answers, beside toolprep's own HTTP serving (`modernFeatures`), the 2026-07-28 requests of
 * your SDK v2 server (its resources, prompts, completions, `server/discover`), made per request
 * with the tools attached, as `createMcpHandler` serves it.
 */
export function featureHandler(
  runtime: ToolRuntime,
  makeServer: () => McpServer,
  options: AttachToolsV2Options,
): (request: Request, parsedBody: unknown) => Promise<Response> {
  const handler = createMcpHandler(() => attachTools(makeServer(), runtime, options));
  return (request, parsedBody) => handler.fetch(request, { parsedBody });
}
