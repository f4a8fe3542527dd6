import type { CallToolResult, ListToolsResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpHeader, PreparedTool } from '../manifest/prepared-tool.js';
import { isToolContent } from '../runtime/index.js';
import type { CallResult, ToolRuntime } from '../runtime/runner.js';
import type { JsonSchema } from '../shared/json-schema/schema.js';

/**
 * What MCP shows of the prepared tools in either protocol era: the `tools/list` entries and pages
 * built from the prepared documents, and a call's result as MCP carries it. It imports nothing of
 * the SDK (types only) and nothing of Node, so that it serves on any runtime before the SDK loads.
 */

export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
}

export interface AttachToolsOptions {
  /** Tools per `tools/list` page; longer lists are paged with a cursor. Default 200. */
  readonly pageSize?: number;
}

/**
 * What serving a runtime needs, derived once per runtime (not per server: the stateless HTTP
 * pattern makes a server per request): the `tools/list` entries, which tools declare an output, and
 * each page built so far.
 */
interface Serving {
  readonly tools: readonly Tool[];
  readonly outputs: ReadonlySet<string>;
  /** Each tool's output schema, by name. */
  readonly outputSchemas: ReadonlyMap<string, JsonSchema | undefined>;
  /** The arguments each tool mirrors into `Mcp-Param-*` headers, as the build listed them. */
  readonly mirrored: ReadonlyMap<string, readonly McpHeader[]>;
  readonly pages: Map<string, ListToolsResult>;
}

const servings = new WeakMap<ToolRuntime, Serving>();

export function servingOf(runtime: ToolRuntime): Serving {
  let serving = servings.get(runtime);
  if (!serving) {
    const prepared = runtime.list();
    serving = {
      tools: Object.freeze(prepared.map(toListedTool)),
      outputs: new Set(prepared.filter((tool) => tool.outputSchema).map((tool) => tool.name)),
      outputSchemas: new Map(prepared.map((tool) => [tool.name, tool.outputSchema])),
      mirrored: new Map(prepared.flatMap((tool) => (tool.mcpHeaders ? [[tool.name, tool.mcpHeaders]] : []))),
      pages: new Map(),
    };
    servings.set(runtime, serving);
  }
  return serving;
}

function toListedTool(tool: PreparedTool): Tool {
  return Object.freeze({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema.mcp as Tool['inputSchema'],
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Tool['outputSchema'] } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.meta ? { _meta: tool.meta } : {}),
  });
}

/** The JSON text of each page, made once: the stdio transport writes it as it is. */
export const pageTexts = new WeakMap<object, string>();

/** The page of `tools/list` that starts at `start`, built once. */
export function pageOf(serving: Serving, pageSize: number, start: number): ListToolsResult {
  const key = `${pageSize}:${start}`;
  let page = serving.pages.get(key);
  if (!page) {
    const end = start + pageSize;
    page = Object.freeze({
      tools: serving.tools.slice(start, end),
      ...(end < serving.tools.length ? { nextCursor: cursorOf(end) } : {}),
    });
    pageTexts.set(page, JSON.stringify(page));
    serving.pages.set(key, page);
  }
  return page;
}

/** A page's cursor: its start, as base64url (btoa, which every runtime has). */
function cursorOf(start: number): string {
  return btoa(String(start)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/** Where the page a cursor names starts, or undefined for a cursor no page gave. */
export function startOf(serving: Serving, cursor: string | undefined): number | undefined {
  if (cursor === undefined) return 0;
  let start: number;
  try {
    start = Number.parseInt(atob(cursor.replace(/-/g, '+').replace(/_/g, '/')), 10);
  } catch {
    return undefined;
  }
  return Number.isInteger(start) && start >= 0 && start <= serving.tools.length ? start : undefined;
}

/** A JSON-RPC answer as the SDK writes one: `result`, then `jsonrpc`, then `id`. */
export function resultText(id: string | number, result: string): string {
  return `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
}

/** A successful call's value as an MCP tool result: content parts as they are, else JSON text. */
export function toolResultOf(serving: Serving, name: string, value: unknown): CallToolResult {
  if (isToolContent(value)) {
    // Content parts are MCP's own content blocks; structured content goes beside them.
    const { content, structured } = value;
    return {
      content: [...content] as CallToolResult['content'],
      ...(structured === undefined ? {} : { structuredContent: structured as Record<string, unknown> }),
    };
  }
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
  return serving.outputs.has(name)
    ? { content: [{ type: 'text', text }], structuredContent: value as Record<string, unknown> }
    : { content: [{ type: 'text', text }] };
}

/** A failed call as MCP carries it: the tool's error result, or, for a tool that does not exist, undefined (the caller's protocol error). */
export function errorResultOf(result: Extract<CallResult, { ok: false }>): CallToolResult | undefined {
  if (result.error.code === 'UNKNOWN_TOOL') return undefined;
  return { content: [{ type: 'text', text: result.error.message }], isError: true };
}
