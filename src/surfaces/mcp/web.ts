/**
 * `toolprep/mcp/web`: MCP over Streamable HTTP as a web-standard handler, for runtimes that speak
 * fetch (Cloudflare Workers, Deno, Bun, Vercel's edge). It imports nothing of Node.
 */

export type { McpSessionOptions } from './legacy/sessions.js';
export type { Caller, WithoutScopes } from './service/caller-views.js';
export type { McpServerInfo } from './service/tool-service.js';
export type {
  JwtAuthOptions,
  McpAuthOptions,
  ResourceMetadataOptions,
  VerifyAuthOptions,
} from './transport/auth-options.js';
export { createMcpFetchHandler } from './transport/fetch-http.js';
export type { McpHttpOptions } from './transport/http-options.js';
