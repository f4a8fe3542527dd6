import type { TaskQuestion, ToolAnnotations, ToolIcon } from '../contract/types.js';
import type { JsonSchema } from '../shared/json-schema/schema.js';
import type { Plan } from './plan.js';
import type { ProfileDocument, ProfileName } from './profiles.js';

/** The documents a tool's input is presented with, one per dialect. */
export interface PresentationDocuments {
  /** JSON Schema 2020-12, for MCP clients: top-level `type: "object"`, `$defs`. */
  readonly mcp: JsonSchema;
  /** JSON Schema draft-07, for the AI SDK: `definitions`, tuples as an `items` array. */
  readonly agent: JsonSchema;
}

/** An argument mirrored into the header `Mcp-Param-<header>`: where it is, and its type. */
export interface McpHeader {
  readonly path: readonly string[];
  readonly header: string;
  readonly type: 'string' | 'integer' | 'boolean';
}

/** How a tool runs as an MCP task, with every default filled in (absent: never as a task). */
export interface TaskPolicy {
  readonly support: 'optional' | 'required';
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  /** 0: a repeated call runs again. */
  readonly repeatWindowMs: number;
  /** Asked before the task is made, by key (absent: none). */
  readonly questions?: Readonly<Record<string, TaskQuestion>>;
}

/** A tool as toolprep prepared it: plain, frozen data, everything a server needs to list it. */
export interface PreparedTool {
  readonly name: string;
  readonly description: string;
  /** The name a person is shown (MCP's tool `title`). */
  readonly title?: string;
  /** Icons a client may show beside the tool (MCP's tool `icons`). */
  readonly icons?: readonly ToolIcon[];
  /**
   * The groups the tool is in, its own first (its folder's or its contract's `group`), then those
   * the config adds; absent when the project has no groups.
   */
  readonly groups?: readonly string[];
  /** `deferred`: a client finds the tool by search instead of loading it on the first turn. Absent: eager. */
  readonly loading?: 'deferred';
  /** Words a client's tool search matches the tool on (Claude Code's `anthropic/searchHint`). */
  readonly searchHint?: string;
  /** The schema libraries its contract is written with, by run-time adapter: `["zod4"]`. */
  readonly libraries: readonly string[];
  readonly inputSchema: PresentationDocuments;
  /** The argument keys its params schema takes (split from the input's before each parses). */
  readonly params?: readonly string[];
  /**
   * The input as each profile the config chose presents it to its provider: the profile's document,
   * or its fallback's (`fallback`, `reason`). A profile the tool is left out of is not here.
   */
  readonly profiles?: { readonly [Profile in ProfileName]?: ProfileDocument };
  /**
   * The profiles the tool is left out of, each with where that was declared: no surface of that
   * profile offers it, and a call through it is refused.
   */
  readonly excludedFrom?: { readonly [Profile in ProfileName]?: string };
  readonly outputSchema?: JsonSchema;
  readonly annotations?: ToolAnnotations;
  readonly meta?: { readonly [key: string]: unknown };
  /**
   * The arguments its MCP document mirrors into HTTP headers (`x-mcp-header`), which a
   * 2026-07-28 server checks each request's `Mcp-Param-*` headers against.
   */
  readonly mcpHeaders?: readonly McpHeader[];
  /** Whether and how it runs as an MCP task (the tasks extension of 2026-07-28). */
  readonly task?: TaskPolicy;
  /** Who may see and call it over an authenticated surface (absent: every authenticated caller). */
  readonly access?: ToolAccess;
  /** The view (MCP Apps) a host renders for it, and who may call it (absent: no view). */
  readonly view?: ToolView;
  /** How to repair this tool's arguments before its parsers run. */
  readonly plan: Plan;
  /** SHA-256 (first 16 hex digits) of the canonical JSON of everything above. */
  readonly digest: string;
}

/**
 * Who may see and call a tool where callers authenticate (HTTP and fetch with `auth`, and the
 * surfaces given a caller). On stdio the caller is the process: every tool.
 */
export interface ToolAccess {
  /** Open to callers without a token too (from the config's public rules). */
  readonly public?: true;
  /**
   * OAuth scopes the caller's token must all carry: the contract's and the config's together,
   * sorted, each once; never beside `public`.
   */
  readonly scopes?: readonly string[];
}

/** An OAuth scope token (RFC 6749 §3.3): printable ASCII but the space, the double quote and the backslash. */
export const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** A tool's view, as its `_meta.ui` names it. */
export interface ToolView {
  /** The `ui://` URI of the view's current version, as `PreparedView.uri`. */
  readonly resourceUri: string;
  /** Who may call the tool: `["model","app"]` by default; `["app"]` keeps it out of every model-facing surface. */
  readonly visibility: readonly ('model' | 'app')[];
}
