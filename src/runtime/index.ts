export type { ListCheck, Plan, PlanNode, ValueCheck } from '../manifest/plan.js';
export type { JsonSchema, PreparedTool, PresentationDocuments } from '../manifest/types.js';
export { type ApplyPlanOptions, applyPlan } from './apply-plan.js';
export { CoercionRefusal } from './json-text.js';
export {
  type CallResult,
  createToolRuntime,
  type ExtensionKeys,
  type ToolError,
  type ToolErrorCode,
  type ToolHandler,
  type ToolHooks,
  type ToolIssue,
  type ToolRuntime,
  type ToolRuntimeOptions,
  type ToolSet,
} from './runner.js';
