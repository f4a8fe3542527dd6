export { defineTool, isToolContract } from './contract/define-tool.js';
export type { NameRule } from './contract/names.js';
export {
  audio,
  content,
  image,
  type ResultPart,
  resource,
  resourceLink,
  type ToolContent,
  text,
} from './contract/results.js';
export type {
  TaskOptions,
  TaskQuestion,
  TaskSupport,
  ToolAnnotations,
  ToolArgs,
  ToolContract,
  ToolDefinition,
  ToolInput,
  ToolOutput,
  ToolResult,
  ToolViewDefinition,
  ToolViewLink,
  ViewCspDomains,
  ViewPermission,
  ViewVisibility,
} from './contract/types.js';
export { type CoerceOptions, coerceJsonArgs } from './runtime/coerce-json-args.js';
export { CoercionRefusal } from './runtime/json-text.js';
