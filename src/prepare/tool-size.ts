import type { Size, ToolSize } from '../manifest/manifest.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import type { TokenCounter } from '../shared/build/token-counter.js';
import { sizeOf } from '../shared/build/tokens.js';

/** The bytes of the tool's `tools/list` entry: a bound on its tokens, each of which is a byte or more. */
export function listedBytes(prepared: PreparedTool): number {
  return Buffer.byteLength(JSON.stringify(listedAs(prepared)));
}

/**
 * The tool as a model is shown it, in bytes and tokens: its `tools/list` entry, and under each
 * profile what a provider is sent (its name, its description and the profile's document).
 */
export function toolSize(prepared: PreparedTool): ToolSize {
  const { listed, profiles } = shownOf(prepared);
  return sizeFrom(
    sizeOf(listed),
    profiles.map(([name, shown]) => [name, sizeOf(shown)]),
  );
}

/** `toolSize`, its tokens counted on the counter's thread. */
export async function countedToolSize(prepared: PreparedTool, counter: TokenCounter): Promise<ToolSize> {
  const { listed, profiles } = shownOf(prepared);
  const [listedSize, ...profileSizes] = await Promise.all(
    [listed, ...profiles.map(([, shown]) => shown)].map((shown) => counter.sizeOf(shown)),
  );
  return sizeFrom(
    listedSize as Size,
    profiles.map(([name], index) => [name, profileSizes[index] as Size]),
  );
}

/** What a model is shown of the tool: its `tools/list` entry, and each profile's request. */
function shownOf(prepared: PreparedTool): { listed: object; profiles: [string, object][] } {
  return {
    listed: listedAs(prepared),
    profiles: Object.entries(prepared.profiles ?? {}).map(([name, document]) => [
      name,
      { name: prepared.name, description: prepared.description, parameters: document.inputSchema },
    ]),
  };
}

function sizeFrom(listed: Size, profiles: [string, Size][]): ToolSize {
  return { ...listed, ...(profiles.length > 0 ? { profiles: Object.fromEntries(profiles) } : {}) };
}

/**
 * The tool's `tools/list` entry: what a model is shown. Its icons are left out: they are drawn for
 * a person, and a `data:` URI would count thousands of tokens that no model reads.
 */
function listedAs(tool: PreparedTool): object {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema.mcp,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
  };
}
