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

/**
 * Each tool's entry and its text, by digest and source: a regeneration after one change
 * serialises one tool, not the whole surface. The text is the entry as it stands in the manifest,
 * less its first line's indent.
 */
const entries = new Map<string, { entry: ManifestTool; text: string }>();

/** Deterministic manifest bytes: tools sorted by name, fixed key order, two-space indent, final newline. */
export function emitManifest(tools: readonly EmittableTool[]): { manifest: Manifest; text: string } {
  const emitted = tools
    .map(({ prepared, source }) => manifestEntry(prepared, source))
    .sort((a, b) => (a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : 0));
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    tools: emitted.map(({ entry }) => entry),
    totals: {
      tools: emitted.length,
      bytes: emitted.reduce((sum, { entry }) => sum + entry.size.bytes, 0),
      tokens: emitted.reduce((sum, { entry }) => sum + entry.size.tokens, 0),
    },
  };
  // Byte for byte what JSON.stringify(manifest, null, 2) writes, from the memoised tool texts.
  const toolsText =
    emitted.length === 0 ? '[]' : `[\n    ${emitted.map(({ text }) => text).join(',\n    ')}\n  ]`;
  const totals = JSON.stringify(manifest.totals, null, 2).replace(/\n/g, '\n  ');
  return {
    manifest,
    text: `{\n  "format": ${MANIFEST_FORMAT},\n  "tools": ${toolsText},\n  "totals": ${totals}\n}\n`,
  };
}

function manifestEntry(prepared: PreparedTool, source: string): { entry: ManifestTool; text: string } {
  const key = `${prepared.digest}\u0000${source}`;
  let emitted = entries.get(key);
  if (!emitted) {
    const bytes = Buffer.byteLength(JSON.stringify(listedAs(prepared)));
    const tool: Record<string, unknown> = {
      ...prepared,
      source,
      size: { bytes, tokens: Math.ceil(bytes / 4) },
    };
    const entry = Object.fromEntries(
      TOOL_KEY_ORDER.filter((name) => tool[name] !== undefined).map((name) => [name, tool[name]]),
    ) as unknown as ManifestTool;
    // Indented by split and join: a global replace here leaves a rope that every later join re-walks.
    emitted = { entry, text: JSON.stringify(entry, null, 2).split('\n').join('\n    ') };
    entries.set(key, emitted);
  }
  return emitted;
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
