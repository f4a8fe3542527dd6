import type { ToolContent } from '../contract/results.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import type { ProfileName } from '../manifest/profiles.js';
import type { PreparedHandshake, PreparedView, StandardResult, ToolGroup } from '../manifest/tool-set.js';
import type { Audience } from './visibility.js';

/**
 * Where a call failed, which follows from the stage it failed in (see `call-stages.ts`):
 * `UNKNOWN_TOOL` (no such tool), `VALIDATION_ERROR` (the arguments: a refusal of the plan, too deep a
 * nesting, or the contract's parsers), `LOAD_ERROR` (the server could not run the tool: its contract
 * did not load or has no schema where its plan defers a check, or it was not prepared for the
 * profile asked for), `HANDLER_ERROR` (the server's code threw: the handler, or before it a hook, a
 * parser's transform or `extend.resolve`), `OUTPUT_ERROR` (the handler's value: refused by the
 * output schema or thrown at by its parser, or not a value JSON can carry).
 */
export type ToolErrorCode =
  | 'UNKNOWN_TOOL'
  | 'VALIDATION_ERROR'
  | 'LOAD_ERROR'
  | 'HANDLER_ERROR'
  | 'OUTPUT_ERROR';

/** The stages of a call, in order (call-stages.ts), and the hooks the runner calls between them. */
export type Step = 'resolve' | 'load' | 'repair' | 'extension' | 'parse' | 'handler' | 'output' | 'hook';

export interface ToolIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

export interface ToolError {
  readonly code: ToolErrorCode;
  /** Written for the model: what was wrong and where. */
  readonly message: string;
  /**
   * A `VALIDATION_ERROR`'s refused fields, one each, every message naming its field; an
   * `OUTPUT_ERROR`'s are its output parser's.
   */
  readonly issues: readonly ToolIssue[];
  /**
   * A `HANDLER_ERROR` whose handler threw a JSON-RPC error (an error whose `code` is a JSON-RPC
   * error code, -32768 to -32000, as the MCP SDKs' `McpError` carries): MCP 2026-07-28 answers the
   * call with it as a protocol error, and a task fails with it, instead of a tool result.
   */
  readonly protocol?: ProtocolError;
  /**
   * A `HANDLER_ERROR` whose handler returned an MCP result with `isError: true`: that result, which
   * MCP sends as it is (its parts, structured content and `_meta`). `message` is its text, which
   * every other surface sends.
   */
  readonly result?: ToolContent;
}

/** A JSON-RPC error, as a handler threw it. */
export interface ProtocolError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export type CallResult<Value = unknown> =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly error: ToolError };

// biome-ignore lint/suspicious/noExplicitAny: a handler map is typed by the generated module; here any handler fits.
export type ToolHandler = (args: any, context: any) => unknown;

/**
 * Each hook sees the context the handler receives: the extension keys' resolved context where there
 * is one, else the caller's (a call that fails before the keys are parsed has only the caller's).
 * `before` runs once per call, before `after` or `error`.
 */
export interface ToolHooks {
  before?(event: { tool: string; args: unknown; context: unknown }): void;
  after?(event: { tool: string; args: unknown; value: unknown; context: unknown; durationMs: number }): void;
  /**
   * Sees every failure: unknown tools, validation (refusals included) and handler errors. Given,
   * it replaces the default, which writes the server's own failures to stderr once per cause.
   */
  error?(event: {
    tool: string;
    error: ToolError;
    cause?: unknown;
    context: unknown;
    durationMs: number;
  }): void;
}

/** Keys every tool accepts (a tenant, a session), parsed once before the contract's own parsers. */
export interface ExtensionKeys<Values = unknown, Context = unknown> {
  /** The object schema the tools were prepared with (the config's `extend.schema`). */
  readonly schema: StandardObject<Values>;
  /** Turns the parsed keys and the caller's context into the context the handler receives. */
  readonly resolve?: (values: Values, context: unknown) => Context | Promise<Context>;
}

interface StandardObject<Values> {
  readonly '~standard': {
    validate(value: unknown): StandardResult<Values> | Promise<StandardResult<Values>>;
  };
}

export interface ToolRuntime {
  /**
   * The prepared tools, frozen: what `tools/list` shows, computed at build time; given an audience,
   * those it sees (`isVisibleTo`).
   */
  list(audience?: Audience): readonly PreparedTool[];
  /**
   * Repairs the arguments by the plan, runs the contract's parsers once, then the handler. A call
   * through a provider profile (`{ profile: 'openai-strict' }`, as the provider surfaces make)
   * also runs the inverse steps that undo how that provider's models answer.
   */
  call(name: string, args: unknown, context?: unknown, options?: CallOptions): Promise<CallResult>;
  /**
   * What `call` does before the handler, and no more: the arguments as the plan repaired them once
   * the contract's parsers accepted them (plain JSON, which `call` accepts again unchanged), or the
   * refusal `call` would give. A task stores these, to run them on whichever node takes it.
   */
  check(
    name: string,
    args: unknown,
    context?: unknown,
    options?: CallOptions,
  ): Promise<CallResult<Readonly<Record<string, unknown>>>>;
  /** What the MCP SDK answers first, captured at build time (see `PreparedHandshake`). */
  readonly handshake?: PreparedHandshake;
  /** The project's groups, with their descriptions (each tool's `groups` names its own); absent without groups. */
  readonly groups?: readonly ToolGroup[];
  /** The views (MCP Apps) built with the tools, current versions and those still kept; absent: none. */
  readonly views?: readonly PreparedView[];
}

export interface CallOptions {
  /** The profile whose document the model was shown: one the tools were prepared for. */
  readonly profile?: ProfileName;
  /** Who calls: a tool it does not see is refused as an unknown one, before anything of it loads. */
  readonly audience?: Audience;
}
