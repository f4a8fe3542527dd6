/**
 * `toolprep/testing`: helpers for a project's own test suite. An MCP client in the test's process
 * over the serving code itself, in either protocol era, and a text of the tool surface to snapshot.
 * No dependency of a test runner; a 2025 client loads `@modelcontextprotocol/sdk` when asked for.
 * docs/guide/testing-your-tools.md.
 */
export {
  type CallResult,
  connectInMemory,
  type InMemoryClient,
  type InMemoryOptions,
  type InMemoryProtocol,
  type ListedTool,
  McpRequestError,
} from './in-memory.js';
export { type ManifestSizes, type SurfaceSnapshotOptions, surfaceSnapshot } from './surface-snapshot.js';
