/** `toolprep/mcp/v2`: the prepared tools on the official SDK v2 (`@modelcontextprotocol/server`). */

export type { RequestStateOptions } from './service/request-state.js';
export type { AttachToolsOptions } from './service/tool-service.js';
export {
  type AttachToolsV2Options,
  attachTools,
  type FeatureHandler,
  type FeatureHandlerOptions,
  featureHandler,
} from './v2/attach.js';
