export { defineConfig, type ResolvedToolprepConfig, type ToolprepConfig } from './config/options.js';
export {
  type GenerateOptions,
  type GenerateResult,
  type Generation,
  generate,
} from './generate/generate.js';
export { MANIFEST_FORMAT, type Manifest, type ManifestTool } from './manifest/manifest.js';
export type { PreparedTool, PresentationDocuments } from './manifest/prepared-tool.js';
export type { PreparedToolSet } from './manifest/tool-set.js';
export { type PrepareToolOptions, prepareTool } from './prepare/prepare-tool.js';
export { prepareToolSet } from './prepare/prepare-tool-set.js';
export { formatProblem, type Problem, type ProblemCode, ToolprepError } from './shared/build/problems.js';
export type { JsonSchema } from './shared/json-schema/schema.js';
