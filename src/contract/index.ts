export { defineTool, isToolContract } from './define-tool.js';
export type { NameRule } from './names.js';
export type {
  ToolAnnotations,
  ToolArgs,
  ToolContract,
  ToolDefinition,
  ToolInput,
  ToolResult,
} from './types.js';
