import type { Position } from './plan.js';
import type { PlanWalkFactory, PlanWalkHelpers } from './plan-walk.js';
import type { PreparedTool } from './prepared-tool.js';
import type { PreparedSearch } from './search-index.js';

/**
 * What the generated module exports as `tools`, and what `createToolRuntime` takes: the prepared
 * tools with the format they were written in, the extension keys they were prepared with, a loader
 * per tool that imports its contract on the first call, and the run-time adapters of the schema
 * libraries the contracts use (the module imports only those).
 */
export interface PreparedToolSet {
  /** The manifest format the tools were prepared in: `MANIFEST_FORMAT`. */
  readonly format: number;
  /** The extension keys every tool takes; none when left out. */
  readonly extensionKeys?: readonly string[];
  readonly prepared: readonly PreparedTool[];
  /** The project's groups, by name, as `groups/list` shows them; absent when it has none. */
  readonly groups?: readonly ToolGroup[];
  /** Loads a tool's contract, on its first call only. */
  readonly load: { readonly [name: string]: () => unknown };
  /**
   * The import of the module that holds each tool's plan walk, written as code by the build
   * (decision 0055), made on the first call (decision 0063). A tool without one (a set made at run
   * time by `prepareToolSet`) is walked by closures, loaded on its first call.
   */
  readonly walks?: () => Promise<{ readonly walks: GeneratedWalks }>;
  /** One per schema library the contracts and the extension keys use: `zod4` from `toolprep/runtime/zod4`. */
  readonly adapters: readonly RuntimeAdapter[];
  /** What the project's MCP SDK answers first, captured at build time; absent without the SDK. */
  readonly handshake?: PreparedHandshake;
  /** The search index built with the tools, and `search_tools` when served (config `search`). */
  readonly search?: PreparedSearch;
  /** The views (MCP Apps) built with the tools, current versions and those still kept; absent: none. */
  readonly views?: readonly PreparedView[];
}

/** Each tool's walk factory, by tool name. */
export interface PlanWalkFactories {
  readonly [name: string]: PlanWalkFactory;
}

/**
 * What the generated walks module exports as `walks`: given the runtime's leaf steps, it declares
 * once what tools share (decision 0070) and gives each tool's factory. Called once per module.
 */
export type GeneratedWalks = (helpers: PlanWalkHelpers) => PlanWalkFactories;

/** A view as built: one self-contained HTML document, addressed by its digest. */
export interface PreparedView {
  /** `ui://<view name>/<digest>.html`: a new build of the view is a new URI. */
  readonly uri: string;
  /** The view's name: its contract's tool name, or the name the contract's `view` gives. */
  readonly name: string;
  /**
   * SHA-256 (first 16 hex digits) of the HTML with what the host applies with it (CSP,
   * permissions, border): the answer's ETag.
   */
  readonly digest: string;
  readonly bytes: number;
  /** False for an older version kept readable (config `views.keepVersions`). */
  readonly current: boolean;
  /** The CSP domains hosts apply (MCP Apps' `_meta.ui.csp`), as declared and proven at build. */
  readonly csp: ViewCsp;
  /** Browser permissions the view asks the host for (MCP Apps' `_meta.ui.permissions`). */
  readonly permissions?: { readonly [permission: string]: Readonly<Record<string, never>> };
  readonly prefersBorder?: boolean;
  /** The HTML, imported on the first `resources/read` of the view. */
  readonly html: () => Promise<string>;
}

/** The MIME type of every view's HTML (MCP Apps): on its resource entry and its content alike. */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/** MCP Apps' CSP fields: each a list of origins. */
export interface ViewCsp {
  readonly connectDomains?: readonly string[];
  readonly resourceDomains?: readonly string[];
  readonly frameDomains?: readonly string[];
  readonly baseUriDomains?: readonly string[];
}

/** A group's name, as MCP's groups draft allows it: the build refuses any other, and a server too. */
export const GROUP_NAME = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A group of tools as a client is shown it; each tool's `groups` names its groups. */
export interface ToolGroup {
  readonly name: string;
  readonly description?: string;
}

/**
 * What the MCP SDK's server, as `toolprep/mcp` makes it, answers to `initialize` and `ping`:
 * captured at build time by running it, so that a server can answer the first requests with these
 * bytes before it loads the SDK. Each answer is one JSON-RPC message as the SDK writes it, with
 * the `HANDSHAKE_PLACEHOLDERS` (as JSON strings) where the request's id and the server's name and
 * version go.
 */
export interface PreparedHandshake {
  /**
   * The answer to `initialize`, by the protocol version the client asks for: one per version the
   * SDK supports, and `*` for any other (the SDK then answers with its latest).
   */
  readonly initialize: { readonly [protocolVersion: string]: string };
  readonly ping: string;
}

/** What a captured answer holds in place of the id, name and version: strings none of them could be. */
export const HANDSHAKE_PLACEHOLDERS = {
  id: '\u0000id',
  name: '\u0000name',
  version: '\u0000version',
} as const;

/**
 * A schema library at run time, as small as it can be: what the runner needs of a loaded contract.
 * Reads the library's objects; imports nothing of it. `toolprep/runtime/<name>` exports it as
 * `<name>`.
 */
export interface RuntimeAdapter {
  /** The library's id, as each prepared tool's `libraries` names it: `zod4`. */
  readonly name: string;
  /** True for a schema of this library. */
  owns(value: unknown): boolean;
  /** The keys an object schema declares (params and extension keys: never a wrapped object). */
  keysOf(schema: unknown): string[];
  /** Runs the schema's own parser: `~standard.validate` for a Standard Schema library. */
  validate(schema: unknown, value: unknown): StandardResult | Promise<StandardResult>;
  /** Loads the position finder: only a tool whose plan defers a refusal needs it. */
  locate(): Promise<PositionFinder>;
}

/** What a parser gives, the Standard Schema way. */
export type StandardResult<Value = unknown> =
  | { readonly value: Value; readonly issues?: undefined }
  | {
      readonly issues: readonly {
        readonly message: string;
        readonly path?: readonly unknown[] | undefined;
      }[];
    };

/**
 * The schema at a position's steps under a root schema (see `Position`), or undefined. The plan
 * compiler finds every position it records with the same function a server will load.
 */
export type PositionFinder = (root: unknown, steps: Position) => unknown;
