/**
 * `toolprep/mcp`: MCP over stdio and Node's HTTP, in both protocol eras. Nothing here imports the
 * SDK up front: the first answers of a connection come from the prepared bytes, and the SDK is
 * loaded when a request needs it (decision 0022). How it is built: docs/surfaces/mcp.md.
 */

export type { McpSessionOptions } from './legacy/sessions.js';
export type { ModernOptions, ServingOptions } from './modern/method-table.js';
export type { TaskServingOptions } from './modern/task-service.js';
export type { Caller, WithoutScopes } from './service/caller-views.js';
export type {
  ElicitParams,
  ElicitResult,
  LoggingLevel,
  McpToolContext,
  QuestionOptions,
  RootsResult,
  SampleParams,
  SampleResult,
} from './service/context.js';
export type { RequestStateOptions } from './service/request-state.js';
export type { AttachToolsOptions, McpServerInfo } from './service/tool-service.js';
export type {
  JwtAuthOptions,
  McpAuthOptions,
  ResourceMetadataOptions,
  VerifyAuthOptions,
} from './transport/auth-options.js';
export type { McpHttpOptions, ModernFeatures } from './transport/http-options.js';
export { createMcpHttpHandler, serveHttp } from './transport/node-http.js';
export { type StdioOptions, type StdioServing, serveStdio } from './transport/stdio.js';
export type { HeaderReader } from './wire/envelope.js';
