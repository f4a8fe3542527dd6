/**
 * `toolprep/mcp/fetch`: MCP 2026-07-28 over Streamable HTTP as a web-standard handler that
 * imports no MCP SDK, for a Worker whose bundle should hold only what it serves (decision 0064).
 * 2025 clients are served by `toolprep/mcp/web`'s handler. It imports nothing of Node.
 */

export type { Caller, WithoutScopes } from './service/caller-views.js';
export type { McpServerInfo } from './service/tool-service.js';
export type {
  JwtAuthOptions,
  McpAuthOptions,
  ResourceMetadataOptions,
  VerifyAuthOptions,
} from './transport/auth-options.js';
export { createMcpFetchHandler, type McpFetchOptions } from './transport/fetch-modern.js';
export type { ModernFeatures } from './transport/http-options.js';
