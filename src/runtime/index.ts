export { isToolContent, type ResultPart, type ToolContent } from '../contract/results.js';
// The generated module's reader of its texts of the prepared tools (decisions 0063, 0079).
export { preparedToolsOf } from '../manifest/later-parts.js';
export type { ListCheck, Plan, PlanNode, Position, ValueCheck } from '../manifest/plan.js';
export type { PreparedTool, PresentationDocuments, ToolView } from '../manifest/prepared-tool.js';
export type { PreparedSearch } from '../manifest/search-index.js';
export type {
  GeneratedWalks,
  PlanWalkFactories,
  PreparedHandshake,
  PreparedToolSet,
  PreparedView,
  ViewCsp,
} from '../manifest/tool-set.js';
export type { JsonSchema } from '../shared/json-schema/schema.js';
export { CoercionRefusal } from './json-text.js';
export {
  type CallOptions,
  type CallResult,
  createToolRuntime,
  type ExtensionKeys,
  type ProtocolError,
  runtimeFor,
  type ToolError,
  type ToolErrorCode,
  type ToolHandler,
  type ToolHooks,
  type ToolIssue,
  type ToolRuntime,
  type ToolRuntimeOptions,
} from './runner.js';
export { type FoundTool, type SearchToolsOptions, searchTools } from './search.js';
export { type Audience, type Caller, isVisibleTo, visibleTools } from './visibility.js';
