import { MANIFEST_FORMAT, type Manifest, type ManifestTool } from '../manifest/manifest.js';
import type { PreparedTool } from '../manifest/types.js';

export interface EmittableTool {
  readonly prepared: PreparedTool;
  readonly source: string;
}

/** The order of a manifest tool's keys: what a reviewer reads first comes first. */
const TOOL_KEY_ORDER = [
  'name',
  'description',
  'source',
  'annotations',
  'meta',
  'inputSchema',
  'outputSchema',
  'plan',
  'size',
  'digest',
] as const;

/** Deterministic manifest bytes: tools sorted by name, fixed key order, two-space indent, final newline. */
export function emitManifest(tools: readonly EmittableTool[]): string {
  const entries = tools
    .map(({ prepared, source }) => manifestTool(prepared, source))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    tools: entries,
    totals: {
      tools: entries.length,
      bytes: entries.reduce((sum, tool) => sum + tool.size.bytes, 0),
      tokens: entries.reduce((sum, tool) => sum + tool.size.tokens, 0),
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function manifestTool(prepared: PreparedTool, source: string): ManifestTool {
  const bytes = Buffer.byteLength(JSON.stringify(listedAs(prepared)));
  const tool: Record<string, unknown> = {
    ...prepared,
    source,
    size: { bytes, tokens: Math.ceil(bytes / 4) },
  };
  return Object.fromEntries(
    TOOL_KEY_ORDER.filter((key) => tool[key] !== undefined).map((key) => [key, tool[key]]),
  ) as unknown as ManifestTool;
}

/** The tool's `tools/list` entry: what a model is shown. */
function listedAs(tool: PreparedTool): object {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema.mcp,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
  };
}
