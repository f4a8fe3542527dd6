export type { ListCheck, Plan, PlanNode, ValueCheck } from '../manifest/plan.js';
export type { JsonSchema, PreparedTool, PresentationDocuments } from '../manifest/types.js';
export { type ApplyPlanOptions, applyPlan } from './apply-plan.js';
export { CoercionRefusal } from './json-text.js';
