export { defineConfig, type ResolvedToolprepConfig, type ToolprepConfig } from './config/options.js';
export { type GenerateOptions, type GenerateResult, generate } from './generate/generate.js';
export type { Manifest, ManifestTool } from './manifest/manifest.js';
export type { JsonSchema, PreparedTool, PresentationDocuments } from './manifest/types.js';
export { type PrepareToolOptions, prepareTool } from './prepare/prepare-tool.js';
export { formatProblem, type ToolProblem, ToolprepPrepareError } from './prepare/problems.js';
