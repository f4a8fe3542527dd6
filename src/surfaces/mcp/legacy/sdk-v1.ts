import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  CreateMessageResultSchema,
  ElicitResultSchema,
  type JSONRPCMessage,
  ListResourcesRequestSchema,
  ListRootsResultSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { HANDSHAKE_PLACEHOLDERS, type PreparedHandshake } from '../../../manifest/tool-set.js';
import type { ToolRuntime } from '../../../runtime/runner.js';
import {
  composedPage,
  refuseNamesOwnedTwice,
  type SdkToolHandlers,
  sdkHasTool,
  takeSdkToolHandlers,
} from '../compose/sdk-tools.js';
import { attachViews } from '../compose/sdk-views.js';
import { legacyContext } from '../service/context.js';
import { type AttachToolsOptions, type McpServerInfo, toolServiceOf } from '../service/tool-service.js';
import { callingRuntimeOf, toolListOf, viewServiceOf } from '../service/views.js';
import { raisedError } from '../wire/jsonrpc.js';

/**
 * The 2025 sessions, on the SDK v1 (`toolprep/mcp/server`): the prepared tools on its low-level
 * `Server`, answered through the tool service like every other era. The serving helpers
 * (`toolprep/mcp`, `toolprep/mcp/web`) load it when a request needs the SDK; it imports nothing of
 * Node, so that it runs on edge runtimes.
 */

/**
 * Serves the runtime's tools on an SDK v1 `McpServer`, or on a low-level `Server` the caller
 * already has (with its own resources and prompts): `tools/list` answers with the prepared
 * documents as they are, and `tools/call` goes through `runtime.call`, so every call gets the plan
 * and one parse. On an `McpServer`, the tools you register with `registerTool` (before or after)
 * stay served beside them, as on SDK v2 (docs/guide/migrating-from-the-sdk.md).
 */
export function attachTools<Target extends Server | McpServer>(
  target: Target,
  runtime: ToolRuntime,
  options: AttachToolsOptions = {},
): Target {
  // By shape, not `instanceof`: a server made by another copy of the SDK is still one.
  const server: Server = 'registerTool' in target ? target.server : target;
  const pageSize = options.pageSize ?? 200;
  const service = toolServiceOf(runtime);
  let sdkTools: SdkToolHandlers | undefined;
  if (server !== target) {
    refuseNamesOwnedTwice(target, service);
    sdkTools = takeSdkToolHandlers(target, '@modelcontextprotocol/sdk', methodOfSchema);
  }
  server.registerCapabilities({ tools: {} });

  server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    const cursor = request.params?.cursor;
    const tools = toolListOf(runtime, server.getClientCapabilities());
    const listed = sdkTools
      ? composedPage(tools, pageSize, cursor, await sdkTools.list(request, extra))
      : tools.page(pageSize, cursor);
    if ('error' in listed) throw raisedError(listed.error);
    return listed.page;
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    // A tool registered with the SDK is the SDK's to check, run and answer.
    if (sdkTools && !service.names.has(name) && sdkHasTool(target, name))
      return (await sdkTools.call(request, extra)) as CallToolResult;
    const capabilities = server.getClientCapabilities();
    const outcome = await callingRuntimeOf(runtime, capabilities).call(
      name,
      args,
      legacyContext(extra, capabilities ?? {}, QUESTION_SCHEMAS),
    );
    const answer = service.answer(name, outcome);
    if ('error' in answer) throw raisedError(answer.error);
    return answer.result;
  });
  attachViews(target, server, viewServiceOf(runtime), {
    template: (uriTemplate) => new ResourceTemplate(uriTemplate, { list: undefined }),
    handle: (method, answer) =>
      server.setRequestHandler(
        method === 'resources/list' ? ListResourcesRequestSchema : ReadResourceRequestSchema,
        ((request: { params?: Record<string, unknown> }) => answer(request.params ?? {})) as never,
      ),
    raise: raisedError,
  });
  return target;
}

/** The method an SDK v1 request schema is for (its `method` literal), as `setRequestHandler` reads it. */
function methodOfSchema(schema: unknown): string | undefined {
  const method = (schema as { shape?: { method?: { value?: unknown } } } | undefined)?.shape?.method?.value;
  return typeof method === 'string' ? method : undefined;
}

/** What the SDK checks the client's answers to a handler's questions with. */
const QUESTION_SCHEMAS = {
  elicit: ElicitResultSchema,
  sample: CreateMessageResultSchema,
  listRoots: ListRootsResultSchema,
};

/**
 * One JSON Schema validator for every server we create, made on first use. Left to itself, the SDK
 * builds an Ajv instance per server (most of a stateless request's cost) that a server uses only to
 * check the answers to its own elicitation requests.
 */
let sharedValidator: AjvJsonSchemaValidator | undefined;
const validatorOnFirstUse: jsonSchemaValidator = {
  getValidator(schema) {
    sharedValidator ??= new AjvJsonSchemaValidator();
    return sharedValidator.getValidator(schema);
  },
};

/** A low-level MCP `Server` with the tools capability, serving the runtime's tools. */
export function createMcpServer(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: AttachToolsOptions = {},
): Server {
  return attachTools(
    new Server(
      { name: info.name, version: info.version },
      { capabilities: { tools: {} }, jsonSchemaValidator: validatorOnFirstUse },
    ),
    runtime,
    options,
  );
}

/**
 * What a server `createMcpServer` makes answers to `initialize`, for each protocol version the SDK
 * supports and for one it does not, and to `ping`: run here, against the SDK itself, with
 * placeholders for the id, the name and the version. `@toolprep/build` calls it at build time
 * with the project's SDK and writes the answers into the generated module.
 */
export async function captureHandshake(): Promise<PreparedHandshake> {
  const { id, name, version } = HANDSHAKE_PLACEHOLDERS;
  const server = createMcpServer({ list: () => [], call: async () => ({ ok: true, value: null }) } as never, {
    name,
    version,
  });
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const answers: JSONRPCMessage[] = [];
  client.onmessage = (message) => {
    answers.push(message);
  };
  await server.connect(serverSide);
  await client.start();
  const ask = async (method: string, params?: Record<string, unknown>): Promise<string> => {
    answers.length = 0;
    await client.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
    for (let turns = 0; answers.length === 0 && turns < 100; turns++)
      await new Promise((resolve) => setTimeout(resolve, 0));
    if (answers.length !== 1) throw new Error(`the MCP SDK did not answer ${method} once`);
    return JSON.stringify(answers[0]);
  };
  const initialize = (protocolVersion: string) =>
    ask('initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'toolprep', version: '0' } });
  const answered: Record<string, string> = {};
  for (const protocolVersion of SUPPORTED_PROTOCOL_VERSIONS)
    answered[protocolVersion] = await initialize(protocolVersion);
  // A version the SDK does not know: it answers with its latest.
  answered['*'] = await initialize('0000-00-00');
  const ping = await ask('ping');
  await server.close();
  return { initialize: answered, ping };
}
