import type { ResultPart, StructuredContent, ToolContent } from './results.js';
import type { ContractSchema, SchemaInput, SchemaOutput } from './schema-types.js';

/** The MCP tool annotations; toolprep refuses any other key by name. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export const TOOL_ANNOTATION_KEYS: readonly (keyof ToolAnnotations)[] = [
  'title',
  'readOnlyHint',
  'destructiveHint',
  'idempotentHint',
  'openWorldHint',
];

/**
 * An icon a client may show beside the tool (MCP's `Icon`): `src` is an `https:`/`http:` URL or a
 * `data:` URI; `sizes` are `WxH` (`"48x48"`) or `"any"`; `theme` is the background it is drawn for.
 */
export interface ToolIcon {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
  readonly theme?: 'light' | 'dark';
}

/**
 * Whether a tool runs as an MCP task (the `io.modelcontextprotocol/tasks` extension of 2026-07-28):
 * `forbidden` (the default: always an immediate result), `optional` (a task for a client that
 * declared the extension, an immediate result for any other), `required` (a task, and a client
 * that did not declare the extension is refused).
 */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** A form question asked before the task is made (MCP's `elicitation/create`, form mode). */
export interface TaskQuestion {
  readonly message: string;
  /** The form: an object schema of flat fields, as MCP's elicitation takes it. */
  readonly requestedSchema: { readonly type: 'object'; readonly [key: string]: unknown };
}

/** How a tool runs as a task (docs/guide/tasks.md). */
export interface TaskOptions {
  support: TaskSupport;
  /** How long (ms) the task and its result are kept after it is created; `null` keeps them. Default 3600000. */
  ttlMs?: number | null;
  /** How often (ms) the client is asked to poll. Default 2000. */
  pollIntervalMs?: number;
  /**
   * For how long (ms) a repeated call (the same principal, tool and accepted arguments) returns the
   * task the first call made instead of running again: under 2026-07-28 a client re-sends a call
   * whose answer it lost. 0 runs every call. Default 60000.
   */
  repeatWindowMs?: number;
  /**
   * Questions asked before the task is made, by key: the call is answered with an input-required
   * result until each is answered (the client's retry carries the answers), and only then is the
   * task made, with the answers. The handler's `context.elicit(…, { key })` gets each at once.
   */
  questions?: Record<string, TaskQuestion>;
}

/** Who may call a tool with a view (MCP Apps' `_meta.ui.visibility`): the model, the view, or both. */
export type ViewVisibility = 'model' | 'app';

/** The origins a view reaches, by what it does with them (MCP Apps' `_meta.ui.csp`). */
export interface ViewCspDomains {
  /** Origins the view's code fetches from or connects to (`fetch`, `WebSocket`, `EventSource`, XHR). */
  connectDomains?: readonly string[];
  /** Origins of scripts, styles, fonts, images and media the view loads. */
  resourceDomains?: readonly string[];
  /** Origins of the frames the view embeds. */
  frameDomains?: readonly string[];
  /** Origins the view's `<base href>` may name. */
  baseUriDomains?: readonly string[];
}

/** Browser features a view asks its host for (MCP Apps' `_meta.ui.permissions`). */
export type ViewPermission = 'camera' | 'microphone' | 'geolocation' | 'clipboardWrite';

/**
 * The view (MCP Apps) a host renders for the tool's result (docs/guide/views.md): built at build
 * time into one self-contained HTML document, its CSP proven from the bundle.
 */
export interface ToolViewDefinition {
  /** The view's entry, relative to the contract's file: an HTML file or a module (`.ts`, `.tsx`, `.js`, `.jsx`). */
  entry: string;
  /** The origins the view reaches; the build fails when the bundle reaches one not listed in its field. */
  csp?: ViewCspDomains;
  permissions?: readonly ViewPermission[];
  /** Who may call the tool. Default `['model', 'app']`. */
  visibility?: readonly ViewVisibility[];
  /** Whether the host draws a border around the view; absent: the host decides. */
  prefersBorder?: boolean;
}

/**
 * A tool that belongs to another tool's view: `of` names that tool. Its `_meta.ui` names the same
 * view; `visibility: ['app']` keeps it from every model (a helper only the view calls).
 */
export interface ToolViewLink {
  of: string;
  visibility?: readonly ViewVisibility[];
}

/**
 * Per provider profile, what the tool does under it (docs/guide/profiles.md): `'exclude'` leaves it
 * out of that profile's tools; `'fallback'` sends it as the profile's fallback (`openai-strict` as
 * OpenAI non-strict, `anthropic-strict` as `anthropic`, `gemini-openapi` as `gemini`). The config's
 * `profileOptions` may say the same, and wins where both do. The profile names are spelled out
 * here because contracts import nothing of toolprep's build.
 */
interface ToolProfileChoices {
  'openai-strict'?: 'exclude' | 'fallback';
  anthropic?: 'exclude';
  'anthropic-strict'?: 'exclude' | 'fallback';
  gemini?: 'exclude';
  'gemini-openapi'?: 'exclude' | 'fallback';
}

/** What a tool file passes to `defineTool`. Schemas come from a library toolprep reads (`zod`, `zod/mini`). */
export interface ToolDefinition<
  Input extends ContractSchema | undefined = ContractSchema | undefined,
  Params extends ContractSchema | undefined = ContractSchema | undefined,
  Output extends ContractSchema | undefined = ContractSchema | undefined,
> {
  /** Defaults to the export name in snake_case (`searchFiles` → `search_files`). */
  name?: string;
  /** Shown to the model. Required: given here, or by JSDoc on the export at build time. */
  description?: string;
  /** The name a person is shown (MCP's tool `title`); clients fall back to `annotations.title`, then `name`. */
  title?: string;
  /** Icons a client may show beside the tool (MCP's tool `icons`). */
  icons?: readonly ToolIcon[];
  /** An object schema, or a union of object schemas: what the caller sends. */
  input?: Input;
  /** An object schema for route-style tools, presented merged with `input` as one object. */
  params?: Params;
  /** What the tool returns; shown as the MCP `outputSchema` where it can be represented. */
  output?: Output;
  annotations?: ToolAnnotations;
  /** Passed through to the MCP `_meta` of the tool. */
  meta?: Record<string, unknown>;
  /**
   * Arguments to mirror into HTTP headers (MCP 2026-07-28 `x-mcp-header`), so that a load balancer
   * can route on them: a field's path → the header's name (`{ region: 'Region' }` makes the client
   * send `Mcp-Param-Region`). The field must be a string, an integer or a boolean, reached through
   * objects alone (`location.zone`), not in a list or a union.
   */
  headers?: Record<string, string>;
  /** Whether (and how) the tool runs as an MCP task: `'optional'`, `'required'`, or the options. */
  task?: TaskSupport | TaskOptions;
  /** Per provider profile, whether the tool is left out of it or sent as its fallback. */
  profiles?: ToolProfileChoices;
  /**
   * The group the tool is in (words of `a-z0-9` joined by single hyphens, at most 64 characters), in place of its folder's (`src/tools/<group>/…`).
   * The config's `groups` may add more (docs/guide/large-tool-sets.md).
   */
  group?: string;
  /**
   * Whether a client loads the tool on the first turn (`'eager'`) or finds it by search when needed
   * (`'deferred'`). Default: every tool eager while the whole set is small, deferred once it is not.
   */
  loading?: 'eager' | 'deferred';
  /** A few words a client's tool search matches the tool on, beside its name and description. */
  searchHint?: string;
  /**
   * Requests a user might make that should lead a model to this tool. Never shown to a model:
   * `toolprep check` proves each client's tool search finds the tool for each of them.
   */
  intents?: readonly string[];
  /**
   * The view (MCP Apps) a host renders for the tool: its entry (a string alone), or the entry with
   * its CSP, permissions and visibility; or `{ of: 'tool' }` for a tool of another tool's view.
   */
  view?: string | ToolViewDefinition | ToolViewLink;
}

/** Every key `defineTool` takes: the build refuses any other by name (check-contract.ts). */
export const TOOL_DEFINITION_KEYS = [
  'name',
  'description',
  'title',
  'icons',
  'input',
  'params',
  'output',
  'annotations',
  'meta',
  'headers',
  'task',
  'profiles',
  'group',
  'loading',
  'searchHint',
  'intents',
  'view',
] as const satisfies readonly (keyof ToolDefinition)[];
// A key of ToolDefinition missing from the list would be refused by the build: this fails to compile instead.
const everyKeyListed: Exclude<keyof ToolDefinition, (typeof TOOL_DEFINITION_KEYS)[number]> extends never
  ? true
  : Exclude<keyof ToolDefinition, (typeof TOOL_DEFINITION_KEYS)[number]> = true;
void everyKeyListed;

/**
 * The key that marks a contract. A string, not a symbol: a `unique symbol` type differs between
 * two copies of these declarations (`toolprep` and `@toolprep/build` each carry one), while a
 * string key is the same to both, as Standard Schema's `~standard` is.
 */
export const TOOL_CONTRACT_BRAND = '~toolprep';

/** A frozen tool contract, recognisable across copies and versions of toolprep by its brand. */
export type ToolContract<
  Input extends ContractSchema | undefined = ContractSchema | undefined,
  Params extends ContractSchema | undefined = ContractSchema | undefined,
  Output extends ContractSchema | undefined = ContractSchema | undefined,
> = Readonly<ToolDefinition<Input, Params, Output>> & { readonly [TOOL_CONTRACT_BRAND]: 'contract' };

type InputOf<S> = S extends ContractSchema ? SchemaInput<S> : undefined;
type ParsedOf<S> = S extends ContractSchema ? SchemaOutput<S> : undefined;
/** Params and input as one object (either may be absent); a tool with neither takes `{}`. */
type Joined<Params, Input> = [Params, Input] extends [undefined, undefined]
  ? Record<string, never>
  : ([Params] extends [undefined] ? unknown : Params) & ([Input] extends [undefined] ? unknown : Input);

/** What a caller sends to the tool: params and input as one object. */
export type ToolInput<C> =
  C extends ToolContract<infer I, infer P, ContractSchema | undefined>
    ? Joined<InputOf<P>, InputOf<I>>
    : never;
/**
 * What a caller gets as the result's `structuredContent`: the handler's value once the output
 * schema has parsed it; `undefined` for a tool without one. A view's code reads its data so.
 */
export type ToolOutput<C> =
  C extends ToolContract<ContractSchema | undefined, ContractSchema | undefined, infer O>
    ? O extends ContractSchema
      ? SchemaOutput<O>
      : undefined
    : never;
/** What the handler receives once the contract's parsers have run. */
export type ToolArgs<C> =
  C extends ToolContract<infer I, infer P, ContractSchema | undefined>
    ? Joined<ParsedOf<P>, ParsedOf<I>>
    : never;
/**
 * An MCP SDK `CallToolResult` a handler returns, as the runtime reads it (decision 0038): its
 * content and structured content are the result's, parsed by the output schema as `content()`'s are.
 */
type SdkResult<Structured> = {
  readonly content: readonly ResultPart[];
  readonly isError?: false;
  readonly _meta?: Readonly<Record<string, unknown>>;
} & (undefined extends Structured
  ? { readonly structuredContent?: Structured }
  : { readonly structuredContent: Structured });

/** An MCP SDK `CallToolResult` with `isError: true`: the tool's error, never sent as a success. */
type SdkError = {
  readonly content: readonly ResultPart[];
  readonly isError: true;
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly _meta?: Readonly<Record<string, unknown>>;
};

/**
 * What the handler returns: anything, without an output schema; with one, what the runtime parses
 * by it: a value of the schema's input side, or content parts with such a value as `structured`
 * (`content([...], { structured })`), or the MCP SDK's `{ content, structuredContent }`; parts
 * alone (or one part) where the schema takes `undefined`. On every tool, `{ content, isError: true }`
 * is the tool's error: MCP sends it as it is, every other surface its text, as an error.
 */
export type ToolResult<C> =
  C extends ToolContract<ContractSchema | undefined, ContractSchema | undefined, infer O>
    ? O extends ContractSchema
      ?
          | SchemaInput<O>
          | StructuredContent<SchemaInput<O>>
          | SdkResult<SchemaInput<O>>
          | SdkError
          | (undefined extends SchemaInput<O> ? ToolContent | ResultPart : never)
      : unknown
    : never;
