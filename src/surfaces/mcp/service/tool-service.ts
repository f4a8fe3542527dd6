import type { CallToolResult, ListToolsResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpHeader, PreparedTool, ToolView } from '../../../manifest/prepared-tool.js';
import type { CallResult, ToolRuntime } from '../../../runtime/runner.js';
import { visibleTools } from '../../../runtime/visibility.js';
import type { JsonSchema } from '../../../shared/json-schema/schema.js';
import { renderMcpResult } from '../../tool-content.js';
import { GROUPS_EXTENSION } from '../wire/envelope.js';
import { ERRORS, type WireError } from '../wire/jsonrpc.js';

/**
 * The one tool service every era and binding calls: the `tools/list` pages built from the prepared
 * documents (one cursor rule, one page size), and the one mapping from a call's outcome to what MCP
 * answers. toolprep's own 2026-07-28 server, the 2025 sessions on SDK v1, tools on a user's SDK v2
 * server and a task's result all answer through it, so they cannot drift apart. It imports nothing
 * of the SDK at run time (types only) and nothing of Node.
 */

export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
}

export interface AttachToolsOptions {
  /** Tools per `tools/list` page; longer lists are paged with a cursor. Default 200. */
  readonly pageSize?: number;
}

/** A `tools/list` page, and its JSON text made once (the prepared bytes a transport writes as they are). */
interface ListedPage {
  readonly page: ListToolsResult;
  readonly text: string;
}

/** What MCP answers for a call: a tool result, or a JSON-RPC error. */
export type CallAnswer = { readonly result: CallToolResult } | { readonly error: WireError };

export interface ToolService {
  /** Each tool as `tools/list` writes it, by name. */
  readonly listed: ReadonlyMap<string, Tool>;
  /** The arguments each tool mirrors into `Mcp-Param-*` headers, as the build listed them. */
  readonly mirrored: ReadonlyMap<string, readonly McpHeader[]>;
  /** The names of the tools, listed or not. */
  readonly names: ReadonlySet<string>;
  /** A tool's input document as `tools/list` sends it. */
  inputSchemaOf(name: string): JsonSchema | undefined;
  /** A tool's output schema (the SDK v2 projects a result for a 2025 client with it). */
  outputSchemaOf(name: string): JsonSchema | undefined;
  /** The page a cursor names, or the error for a cursor no page gave. */
  page(pageSize: number, cursor: unknown): ListedPage | { readonly error: WireError };
  /** The prepared text of a page this service gave, as an SDK hands it back to be sent. */
  textOf(result: unknown): string | undefined;
  /** The answer to a call that ended with this outcome. */
  answer(name: string, outcome: CallResult): CallAnswer;
}

/**
 * How a list shows the tools' views (MCP Apps): `linked`, each tool with its view's `_meta.ui`, for
 * a client that renders them; `plain`, without, and without the tools only a view calls, for one
 * that does not (service/views.ts chooses per request).
 */
export type ViewLinks = 'linked' | 'plain';

const services: { readonly [Links in ViewLinks]: WeakMap<ToolRuntime, ToolService> } = {
  linked: new WeakMap(),
  plain: new WeakMap(),
};
/** The runtime a view lists part of (a group's tools, the top-level ones), by view. */
const wholes = new WeakMap<ToolRuntime, ToolRuntime>();
/** How each service writes one tool, or undefined for one its list does not show. */
const writers = new WeakMap<ToolService, (tool: PreparedTool) => Tool | undefined>();

/**
 * The service of a runtime, made once per runtime and list (not per server: the stateless HTTP
 * pattern makes a server per request, which must cost neither a conversion nor a list). A runtime
 * without views has one list, whichever is asked for.
 */
export function toolServiceOf(runtime: ToolRuntime, links: ViewLinks = 'linked'): ToolService {
  const variant = links === 'plain' && runtime.list().some((tool) => tool.view) ? 'plain' : 'linked';
  let service = services[variant].get(runtime);
  if (!service) {
    const whole = wholes.get(runtime);
    service = toolService(runtime.list(), whole && writers.get(toolServiceOf(whole, variant)), variant);
    services[variant].set(runtime, service);
  }
  return service;
}

/**
 * Marks a runtime as a view listing part of another's tools: its service writes each tool as the
 * whole set's `tools/list` does, the same objects, so a tool is the same bytes in every view.
 */
export function partOf(view: ToolRuntime, whole: ToolRuntime): ToolRuntime {
  wholes.set(view, wholes.get(whole) ?? whole);
  return view;
}

/**
 * The service of one list. Each tool is written as the list sends it when a page first needs it,
 * and the maps by name are made on first read (`listed` writes every tool): a first `tools/list`
 * of 1,000 tools writes the 200 of its page, not all of them (decision 0069).
 */
function toolService(
  prepared: readonly PreparedTool[],
  wholeWriter: ((tool: PreparedTool) => Tool | undefined) | undefined,
  links: ViewLinks,
): ToolService {
  // `anthropic/alwaysLoad` says a tool is not deferred: it means something only beside deferred ones.
  const anyDeferred = prepared.some((tool) => tool.loading === 'deferred');
  // A client that renders no view has no view to call an app-only tool: it would show it to the model.
  const shown = links === 'linked' ? prepared : visibleTools(prepared, { model: true });
  const written = new Map<string, Tool>();
  const write = (tool: PreparedTool): Tool => {
    let listed = written.get(tool.name);
    if (!listed) {
      listed = wholeWriter?.(tool) ?? toListedTool(tool, anyDeferred, links);
      written.set(tool.name, listed);
    }
    return listed;
  };
  let shownByName: ReadonlyMap<string, PreparedTool> | undefined;
  const pages = new Map<string, ListedPage>();
  const texts = new WeakMap<object, string>();
  let listedByName: ReadonlyMap<string, Tool> | undefined;
  let mirrored: ReadonlyMap<string, readonly McpHeader[]> | undefined;
  // By name, and no document read: a tool's documents are parsed on its first read (decision 0079).
  let byName: ReadonlyMap<string, PreparedTool> | undefined;
  const toolNamed = (name: string) => {
    byName ??= new Map(prepared.map((tool) => [tool.name, tool]));
    return byName.get(name);
  };
  let names: ReadonlySet<string> | undefined;
  const service: ToolService = {
    get listed() {
      listedByName ??= new Map(shown.map((tool) => [tool.name, write(tool)]));
      return listedByName;
    },
    get mirrored() {
      mirrored ??= new Map(
        prepared.flatMap((tool) => (tool.mcpHeaders ? [[tool.name, tool.mcpHeaders] as const] : [])),
      );
      return mirrored;
    },
    get names() {
      names ??= new Set(prepared.map((tool) => tool.name));
      return names;
    },
    inputSchemaOf: (name) => toolNamed(name)?.inputSchema.mcp,
    outputSchemaOf: (name) => toolNamed(name)?.outputSchema,
    page(pageSize, cursor) {
      const start = startOf(cursor, shown.length);
      if (start === undefined) return { error: invalidCursor(cursor) };
      const key = `${pageSize}:${start}`;
      let listed = pages.get(key);
      if (!listed) {
        const end = start + pageSize;
        const page = Object.freeze({
          tools: shown.slice(start, end).map(write),
          ...(end < shown.length ? { nextCursor: cursorOf(end) } : {}),
        });
        listed = { page, text: JSON.stringify(page) };
        pages.set(key, listed);
        texts.set(page, listed.text);
      }
      return listed;
    },
    textOf: (result) => (typeof result === 'object' && result !== null ? texts.get(result) : undefined),
    answer(name, outcome) {
      if (outcome.ok)
        return {
          result: renderMcpResult(outcome.value, Boolean(service.outputSchemaOf(name))) as CallToolResult,
        };
      const { code, message, protocol, result } = outcome.error;
      // A handler that returned an MCP result with isError: that result, as it is, and an error.
      if (result) return { result: { ...renderMcpResult(result, false), isError: true } as CallToolResult };
      // A handler that threw a JSON-RPC error chose a protocol error: every era answers it as one.
      if (protocol) return { error: protocol };
      // A tool that does not exist is the caller's protocol error; anything else is the tool's answer.
      if (code === 'UNKNOWN_TOOL') return { error: { code: ERRORS.invalidParams.code, message } };
      return { result: { content: [{ type: 'text', text: message }], isError: true } };
    },
  };
  // A view of part of this list writes each of its tools as this list does, if this list shows it.
  writers.set(service, (tool) => {
    shownByName ??= new Map(shown.map((each) => [each.name, each]));
    const own = shownByName.get(tool.name);
    return own && write(own);
  });
  return service;
}

/** The `_meta` keys clients read of a tool's place in a large set (docs/guide/large-tool-sets.md). */
const DISCLOSURE_META = {
  groups: GROUPS_EXTENSION,
  alwaysLoad: 'anthropic/alwaysLoad',
  searchHint: 'anthropic/searchHint',
} as const;

function toListedTool(tool: PreparedTool, anyDeferred: boolean, links: ViewLinks): Tool {
  const meta = {
    ...tool.meta,
    ...(links === 'linked' && tool.view ? viewMeta(tool.view) : {}),
    ...(tool.groups ? { [DISCLOSURE_META.groups]: tool.groups } : {}),
    ...(anyDeferred && tool.loading !== 'deferred' ? { [DISCLOSURE_META.alwaysLoad]: true } : {}),
    ...(tool.searchHint === undefined ? {} : { [DISCLOSURE_META.searchHint]: tool.searchHint }),
  };
  return Object.freeze({
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description,
    ...(tool.icons ? { icons: tool.icons as Tool['icons'] } : {}),
    inputSchema: tool.inputSchema.mcp as Tool['inputSchema'],
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Tool['outputSchema'] } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}),
  });
}

/**
 * A tool's link to its view as hosts read it: MCP Apps' `_meta.ui`, and the flat
 * `ui/resourceUri` the specification deprecates but ext-apps' own `registerAppTool` still mirrors
 * for hosts built on its earlier releases (decision 0058).
 */
function viewMeta({ resourceUri, visibility }: ToolView): Record<string, unknown> {
  return { ui: { resourceUri, visibility }, 'ui/resourceUri': resourceUri };
}

/** A page's cursor: its start, as base64url (btoa, which every runtime has). */
function cursorOf(start: number): string {
  return btoa(String(start)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/** Where the page a cursor names starts, or undefined for a cursor no page gave. */
/** The one refusal of a cursor this server did not give, for every list it pages. */
export function invalidCursor(cursor: unknown): WireError {
  return {
    code: ERRORS.invalidParams.code,
    message: `Invalid cursor ${JSON.stringify(cursor)}: pass the nextCursor of the previous page`,
  };
}

function startOf(cursor: unknown, count: number): number | undefined {
  if (cursor === undefined) return 0;
  if (typeof cursor !== 'string') return undefined;
  let start: number;
  try {
    start = Number.parseInt(atob(cursor.replace(/-/g, '+').replace(/_/g, '/')), 10);
  } catch {
    return undefined;
  }
  return Number.isInteger(start) && start >= 0 && start <= count ? start : undefined;
}
