import type { PreviewedView, ReportPreviews, ToolSample } from '../emit/report-previews.js';
import type { GeneratedFile } from '../emit/write-files.js';
import { bundleHostBridge } from '../load/bundle-host-bridge.js';
import type { Manifest, ManifestTool } from '../manifest/manifest.js';
import { filledValue } from './sample-values.js';

export interface ViewPreviews {
  /** Absent when no tool has a view: the page has nothing to preview. */
  readonly previews?: ReportPreviews;
  /** What a command says of them: how many, or why they cannot be previewed. */
  readonly summary?: string;
}

/**
 * The surface page's previews of the views (decision 0061): each current view's HTML from the
 * generation's files, ext-apps' bridge bundled from the project, and for every tool a sample
 * input and result, chosen from its documents by the sampler `check --explain` tries values of
 * (filled: optional fields present, lists one item long), the result as toolprep's runtime sends a
 * value: structured content and its JSON text.
 */
export async function viewPreviewsOf(
  root: string,
  manifest: Manifest,
  files: readonly GeneratedFile[],
): Promise<ViewPreviews> {
  const current = (manifest.views ?? []).filter((view) => view.current);
  if (current.length === 0) return {};
  const views = current.map(({ name, uri, file, csp, permissions, prefersBorder }): PreviewedView => {
    const html = files.find((generated) => generated.path === file)?.text;
    if (html === undefined)
      throw new Error(
        `[toolprep] the view "${name}" (${file}) is not among the files generated: this is a bug in toolprep`,
      );
    return {
      name,
      uri,
      html,
      csp,
      ...(permissions ? { permissions } : {}),
      ...(prefersBorder === undefined ? {} : { prefersBorder }),
    };
  });
  const bridge = await bundleHostBridge(root);
  const samples = Object.fromEntries(manifest.tools.map((tool) => [tool.name, sampleOf(tool)]));
  const previews: ReportPreviews = {
    bridge: bridge.ok ? { script: bridge.script } : { missing: bridge.reason },
    views,
    samples,
  };
  const named = views.map((view) => view.name).join(', ');
  return {
    previews,
    summary: bridge.ok
      ? `the page previews ${views.length === 1 ? 'the view' : `${views.length} views`} (${named}) through ext-apps' AppBridge, with sample data`
      : `the views (${named}) are not previewed on the page: ${bridge.reason}`,
  };
}

function sampleOf(tool: ManifestTool): ToolSample {
  const visibility = tool.view?.visibility ?? ['model', 'app'];
  const input = filledValue(tool.inputSchema.mcp);
  const output = tool.outputSchema === undefined ? undefined : filledValue(tool.outputSchema);
  return {
    visibility,
    ...(input === undefined
      ? {
          inputMissing: `no sample input: ${tool.name}'s input document describes no value the sampler can write`,
        }
      : { input }),
    ...(tool.outputSchema === undefined
      ? { resultMissing: `no sample output: ${tool.name} declares no output` }
      : output === undefined || typeof output !== 'object' || output === null || Array.isArray(output)
        ? {
            resultMissing: `no sample output: ${tool.name}'s output document describes no object the sampler can write`,
          }
        : {
            result: {
              content: [{ type: 'text', text: JSON.stringify(output) }],
              structuredContent: output as Record<string, unknown>,
            },
          }),
  };
}
