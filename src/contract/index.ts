export { CoercionRefusal } from '../runtime/json-text.js';
export { type CoerceOptions, coerceJsonArgs } from './coerce-json-args.js';
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
