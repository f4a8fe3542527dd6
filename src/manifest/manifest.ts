import type { PreparedTool } from './types.js';

/** The manifest's format version; the runtime refuses a manifest of another. */
export const MANIFEST_FORMAT = 1;

export interface ManifestTool extends PreparedTool {
  /** Where the contract is: `src/tools/files.ts#readFiles`. */
  readonly source: string;
  /** The tool as a model is shown it (its `tools/list` entry): bytes, and tokens at ~4 bytes each. */
  readonly size: { readonly bytes: number; readonly tokens: number };
}

export interface Manifest {
  readonly format: typeof MANIFEST_FORMAT;
  readonly tools: readonly ManifestTool[];
  readonly totals: { readonly tools: number; readonly bytes: number; readonly tokens: number };
}
