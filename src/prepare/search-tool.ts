import { z } from 'zod';
import type { PrepareSettings } from '../config/options.js';
import { defineTool } from '../contract/define-tool.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import { SEARCH_TOOL_NAME } from '../manifest/search-index.js';
import { prepareTool } from './prepare-tool.js';

/**
 * `search_tools` as a contract, prepared like any tool so that every surface and profile presents
 * it in its own dialect. The runtime answers it from the index (src/runtime/search.ts checks the
 * same arguments), so this contract is never loaded by a server.
 */
const searchContract = defineTool({
  name: SEARCH_TOOL_NAME,
  description:
    'Search this server’s tools by keywords: returns the best matching tools’ names and short descriptions, and their full definitions to call them with. Use it when no loaded tool fits the request.',
  input: z.object({
    query: z.string().min(1).describe('Words describing what you want to do, e.g. "refund a charge".'),
    limit: z.number().int().min(1).max(20).optional().describe('How many tools at most. Default 5.'),
  }),
  output: z.object({
    tools: z.array(z.object({ name: z.string(), description: z.string() })),
    definitions: z.array(
      z.object({ name: z.string(), description: z.string(), inputSchema: z.record(z.string(), z.unknown()) }),
    ),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
});

/** `search_tools` prepared with the project's settings (its profiles), without extension keys. */
export function prepareSearchTool(settings: PrepareSettings): PreparedTool {
  const { extend: _unused, ...rest } = settings;
  return prepareTool(searchContract, rest);
}
