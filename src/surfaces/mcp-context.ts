/**
 * What a tool's handler receives as its context when MCP calls it, in either protocol era: the
 * request's id, signal and `_meta`, request-scoped progress and logging, and one way to ask the
 * client for input (elicitation, sampling, roots). On 2026-07-28 a question becomes an
 * input-required result and the client's retry runs the handler again with the answers; on a 2025
 * session it is a request the server sends and waits on.
 */

export type LoggingLevel =
  | 'debug'
  | 'info'
  | 'notice'
  | 'warning'
  | 'error'
  | 'critical'
  | 'alert'
  | 'emergency';

export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** `elicitation/create` params: a form (`requestedSchema`) or, with `mode: 'url'`, a page to visit. */
export type ElicitParams =
  | {
      readonly mode?: 'form';
      readonly message: string;
      readonly requestedSchema: { readonly type: 'object'; readonly [key: string]: unknown };
    }
  | { readonly mode: 'url'; readonly message: string; readonly url: string; readonly elicitationId?: string };

export interface ElicitResult {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Readonly<Record<string, unknown>>;
}

/** `sampling/createMessage` params, as MCP defines them (messages, maxTokens, and the rest). */
export interface SampleParams {
  readonly messages: readonly unknown[];
  readonly maxTokens: number;
  readonly [key: string]: unknown;
}

export interface SampleResult {
  readonly role: 'assistant' | 'user';
  readonly content: unknown;
  readonly model: string;
  readonly stopReason?: string;
  readonly [key: string]: unknown;
}

export interface RootsResult {
  readonly roots: readonly { readonly uri: string; readonly name?: string }[];
}

export interface McpToolContext {
  readonly requestId: string | number;
  /** Aborted when the client cancels the request or goes away. */
  readonly signal: AbortSignal;
  readonly _meta?: Readonly<Record<string, unknown>>;
  /** `modern` for a 2026-07-28 request (answered on its own), `legacy` for a 2025 session's. */
  readonly era: 'modern' | 'legacy';
  /** The task the call runs as (the tasks extension), when it runs as one: its answers come through `tasks/update`. */
  readonly taskId?: string;
  /** What the client declared it can do (`elicitation`, `sampling`, `roots`, …): ask only what it can answer. */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** Sends progress, when the request asked for it (`_meta.progressToken`); otherwise nothing. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends a log message, when the request (2026-07-28) or the session (2025) asked for that level. */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Asks the user through the client (see "Asking the client" in docs/surfaces/mcp.md). */
  elicit(params: ElicitParams, options?: QuestionOptions): Promise<ElicitResult>;
  /** Asks the client's model. */
  sample(params: SampleParams, options?: QuestionOptions): Promise<SampleResult>;
  /** Asks the client for its roots. */
  listRoots(options?: QuestionOptions): Promise<RootsResult>;
  /** The notification form of `progress` and `log`, as the SDK's handlers send them. */
  sendNotification(notification: { method: string; params?: unknown }): Promise<void>;
  /** The request form of `elicit`, `sample` and `listRoots`, as the SDK's handlers send them. */
  // biome-ignore lint/suspicious/noExplicitAny: the result is what the client answered, typed by its method.
  sendRequest(request: { method: string; params?: unknown }, resultSchema?: unknown): Promise<any>;
}

export interface QuestionOptions {
  /**
   * The question's key in a 2026-07-28 input-required result (`user_name`). Default: its place
   * among the run's questions, `input-1`, `input-2`…
   */
  readonly key?: string;
}

/** The method of each question, and the client capability it needs. */
export const INPUT_METHODS = {
  elicit: { method: 'elicitation/create', capability: 'elicitation' },
  sample: { method: 'sampling/createMessage', capability: 'sampling' },
  listRoots: { method: 'roots/list', capability: 'roots' },
} as const;

/** What a 2025 session's handler gets from the SDK: its request's extra. */
export interface LegacyExtra {
  readonly requestId: string | number;
  readonly signal: AbortSignal;
  readonly _meta?: Readonly<Record<string, unknown>>;
  sendNotification(notification: { method: string; params?: unknown }): Promise<void>;
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's own signature.
  sendRequest(request: { method: string; params?: unknown }, resultSchema: any): Promise<any>;
}

/**
 * The context of a 2025 session's call: the SDK's extra as it is (a handler written against it
 * keeps working), with the questions, progress and logs of `McpToolContext` on it. `schemas` are
 * the SDK's result schemas of the questions, which its `sendRequest` checks answers with.
 */
export function legacyContext(
  extra: LegacyExtra,
  clientCapabilities: Readonly<Record<string, unknown>>,
  schemas: { readonly [Method in keyof typeof INPUT_METHODS]: unknown },
): McpToolContext {
  const progressToken = extra._meta?.progressToken;
  return {
    ...extra,
    era: 'legacy',
    clientCapabilities,
    async progress(progress, total, message) {
      if (progressToken === undefined) return;
      await extra.sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken,
          progress,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        },
      });
    },
    log: (level, data, logger) =>
      extra.sendNotification({
        method: 'notifications/message',
        params: { level, data, ...(logger === undefined ? {} : { logger }) },
      }),
    elicit: (params) => extra.sendRequest({ method: INPUT_METHODS.elicit.method, params }, schemas.elicit),
    sample: (params) => extra.sendRequest({ method: INPUT_METHODS.sample.method, params }, schemas.sample),
    listRoots: () => extra.sendRequest({ method: INPUT_METHODS.listRoots.method }, schemas.listRoots),
    sendRequest: (request, resultSchema) => extra.sendRequest(request, resultSchema),
  };
}
