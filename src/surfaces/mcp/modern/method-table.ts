import type { ToolRuntime } from '../../../runtime/runner.js';
import type { OnError } from '../../../shared/run/on-error.js';
import type { Caller } from '../service/caller-views.js';
import type { RequestStateOptions, RequestStateSigner } from '../service/request-state.js';
import type { AttachToolsOptions, ToolService } from '../service/tool-service.js';
import type { HeaderReader } from '../wire/envelope.js';
import { ERRORS, errorAnswer, type Id, type WireAnswer, type WireError } from '../wire/jsonrpc.js';
import type { TaskServingOptions } from './task-service.js';

/**
 * The 2026-07-28 server as a table of methods: what a row is, what it is made with, and the
 * options of the serving it belongs to. The tools install their rows, and each extension its own
 * (tasks now), instead of branches in one dispatcher.
 */

/** What every way of serving takes: errors no request can be answered with go to `onerror`. */
export interface ServingOptions {
  /**
   * Where serving reports what it cannot answer a client with (a task executor that did not start,
   * a hand-over that failed, an SDK that answers otherwise than the prepared bytes). Default:
   * stderr, once per message (decision 0044); give one to replace it. Tokens and arguments are
   * never passed to it. A call's own failures are the runtime's `error` hook's.
   */
  readonly onerror?: OnError;
}

export interface ModernOptions extends AttachToolsOptions, ServingOptions {
  /**
   * The caching hints of `server/discover` and `tools/list`. Default `{ ttlMs: 300000, scope:
   * 'public' }`: the prepared list is the same for every caller (so any cache may share it) and
   * changes only with a deploy (so five minutes of staleness is the most a client sees).
   */
  readonly cache?: { readonly ttlMs?: number; readonly scope?: 'public' | 'private' };
  /** How the state of an input-required result is signed (shared by every node: see the docs). */
  readonly requestState?: RequestStateOptions;
  /**
   * Where the tasks of tools whose contracts run them as tasks are kept and run, and who may read
   * them (docs/guide/tasks.md). Default: in this process's memory.
   */
  readonly tasks?: TaskServingOptions;
}

/** A request that passed its checks: run it, sending its notifications (progress, logs) as they come. */
export interface ModernWork {
  /** Whether it may send notifications: an HTTP answer to it then goes as a stream. */
  readonly notifies: boolean;
  run(notify: (message: string) => void, signal: AbortSignal): Promise<WireAnswer>;
}

/** Who asks: the caller the gate verified (none without `auth`), and the tools it may see and call. */
export interface Asker {
  readonly caller?: Caller;
  /** The runtime as this caller sees it: its `tools/list`, and the only tools it may call. */
  readonly view: ToolRuntime;
}

/** A request whose envelope passed its checks, as a row of the method table gets it. */
interface ModernRequest extends Asker {
  readonly id: Id;
  readonly method: string;
  readonly params: Record<string, unknown>;
  /** The request's `_meta`, holding the envelope. */
  readonly meta: Record<string, unknown>;
  readonly capabilities: Record<string, unknown>;
  readonly header: HeaderReader;
}

/** One method of the 2026-07-28 server. */
export interface MethodRow {
  /** Where other headers disagree with the body (the `Mcp-Param-*` of a call), checked with `Mcp-Name`. */
  readonly headerMismatch?: (
    params: Record<string, unknown>,
    header: (name: string) => string | undefined,
    view: ToolRuntime,
  ) => string | undefined;
  /** Whether toolprep answers this method even where a feature server (`modernFeatures`) is given. */
  readonly alwaysOurs?: boolean;
  answer(request: ModernRequest): WireAnswer | ModernWork;
}

/** What rows are made with: the runtime's tool service and the answers every row writes. */
export interface ServingKit {
  readonly runtime: ToolRuntime;
  readonly service: ToolService;
  readonly options: ModernOptions;
  readonly states: RequestStateSigner;
  readonly onerror: OnError;
  /** The caching hints of the lists, as results carry them. */
  readonly cache: { readonly ttlMs: number; readonly cacheScope: 'public' | 'private' };
  /** The `_meta` of every result: the server's identity. */
  readonly resultMeta: Readonly<Record<string, unknown>>;
  /** What `server/discover` declares; an extension adds its own. */
  readonly capabilities: Record<string, unknown>;
  /** A complete result. */
  complete(id: Id, result: { readonly _meta?: object }): WireAnswer;
  /** A result of another type (`input_required`, `task`), with the server's `_meta`. */
  resultOf(id: Id, resultType: string, result: object): WireAnswer;
  /** A JSON-RPC error about the call (a tool's, a handler's, the SDK's): HTTP 200. */
  callError(id: Id, error: WireError): WireAnswer;
}

export type MethodTable = Map<string, MethodRow>;

/** -32021: the client must declare capabilities it did not for this request. */
export function missingCapabilityAnswer(id: Id, error: WireError): WireAnswer {
  return errorAnswer(id, ERRORS.missingCapability, error.message, error.data);
}
