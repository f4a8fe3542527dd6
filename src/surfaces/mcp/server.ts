/** `toolprep/mcp/server`: the prepared tools on the SDK v1's `Server`, for 2025 sessions. */

export { attachTools, captureHandshake, createMcpServer } from './legacy/sdk-v1.js';
export type { AttachToolsOptions, McpServerInfo } from './service/tool-service.js';
