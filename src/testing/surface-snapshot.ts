import type { ToolRuntime } from '../runtime/runner.js';
import { toolServiceOf } from '../surfaces/mcp/service/tool-service.js';

/**
 * The tool surface as a text to snapshot: each tool's `tools/list` entry as the tool service lists
 * it to every MCP client (the same listing, not a copy of it), sorted by name, one key a line,
 * JSON pretty-printed beneath, with its size. Written for a reviewer's diff: a change to a
 * description or a schema is a few lines under the tool's name.
 */

/** What `surfaceSnapshot` reads of the manifest (`toolprep.manifest.json`): each tool's size as the build counted it. */
export interface ManifestSizes {
  readonly tools: readonly {
    readonly name: string;
    readonly digest: string;
    readonly size: { readonly tokens: number };
  }[];
}

export interface SurfaceSnapshotOptions {
  /**
   * The project's manifest, for each tool's tokens as the build counted them (o200k_base). Without
   * it the text gives bytes only: the runtime carries no tokenizer.
   */
  readonly manifest?: ManifestSizes;
}

/**
 * A stable, readable text of the surface the runtime serves: the same tools give the same text,
 * whatever order their contracts were found in. A manifest that describes other tools than the
 * runtime serves (stale, or another project's) is an error naming them.
 */
export function surfaceSnapshot(runtime: ToolRuntime, options: SurfaceSnapshotOptions = {}): string {
  const listed = toolServiceOf(runtime).page(Number.POSITIVE_INFINITY, undefined);
  if ('error' in listed) throw new Error(`[toolprep] ${listed.error.message}`);
  const tokens = options.manifest && tokensByTool(runtime, options.manifest);
  const entries = [...listed.page.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const encoder = new TextEncoder();
  let totalBytes = 0;
  let totalTokens = 0;
  const sections = entries.map((entry) => {
    const { name, description, ...rest } = entry;
    const bytes = encoder.encode(JSON.stringify(entry)).length;
    const count = tokens?.get(name);
    totalBytes += bytes;
    totalTokens += count ?? 0;
    const lines = [
      `## ${name}`,
      '',
      ...(description === undefined ? [] : [description, '']),
      `bytes: ${bytes}`,
    ];
    if (count !== undefined) lines.push(`tokens: ${count}`);
    for (const [key, value] of Object.entries(rest)) lines.push(`${key}: ${JSON.stringify(value, null, 2)}`);
    return lines.join('\n');
  });
  const total = `${entries.length} ${entries.length === 1 ? 'tool' : 'tools'}, ${totalBytes} bytes${tokens ? `, ${totalTokens} tokens` : ''}`;
  return `# ${total}\n\n${sections.join('\n\n')}\n`;
}

/** Each tool's tokens, from a manifest that describes exactly the tools the runtime serves. */
function tokensByTool(runtime: ToolRuntime, manifest: ManifestSizes): Map<string, number> {
  const inManifest = new Map(manifest.tools.map((tool) => [tool.name, tool]));
  const served = runtime.list();
  const differing = [
    ...served.filter((tool) => inManifest.get(tool.name)?.digest !== tool.digest).map((tool) => tool.name),
    ...manifest.tools
      .filter((tool) => !served.some((own) => own.name === tool.name))
      .map((tool) => tool.name),
  ];
  if (differing.length > 0)
    throw new Error(
      `[toolprep] the manifest does not describe the tools the runtime serves (${[...new Set(differing)].sort().join(', ')}): run toolprep generate, or pass the manifest of the same build`,
    );
  return new Map(manifest.tools.map((tool) => [tool.name, tool.size.tokens]));
}
