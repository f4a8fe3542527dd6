export type { JsonSchema, PreparedTool, PresentationDocuments } from './manifest/types.js';
export { type PrepareToolOptions, prepareTool } from './prepare/prepare-tool.js';
export { formatProblem, type ToolProblem, ToolprepPrepareError } from './prepare/problems.js';
