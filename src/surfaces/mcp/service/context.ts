import { isRecord } from '../../../shared/run/is-record.js';
import { META, MODERN_VERSION } from '../wire/envelope.js';
import { raisedError } from '../wire/jsonrpc.js';
import type { Caller } from './caller-views.js';
import { missingCapabilities, missingCapabilityError, QUESTIONS } from './questions.js';

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
  /**
   * Who is calling, over HTTP with `auth`: the verified token's subject, scopes and claims (never
   * the token itself). Absent without `auth`, for a caller without a token, and over stdio.
   */
  readonly caller?: Caller;
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

/** What a 2025 session's handler gets from the SDK: its request's extra. */
export interface LegacyExtra {
  readonly requestId: string | number;
  readonly signal: AbortSignal;
  readonly _meta?: Readonly<Record<string, unknown>>;
  /** What the HTTP exchange handed the SDK's transport of the verified caller (never the token). */
  readonly authInfo?: { readonly extra?: Readonly<Record<string, unknown>> };
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
  schemas: { readonly [Kind in keyof typeof QUESTIONS]: unknown },
): McpToolContext {
  const progressToken = extra._meta?.progressToken;
  const caller = callerOfAuthInfo(extra.authInfo);
  return {
    ...extra,
    era: 'legacy',
    clientCapabilities,
    ...(caller ? { caller } : {}),
    async progress(progress, total, message) {
      if (progressToken === undefined) return;
      await extra.sendNotification({
        method: 'notifications/progress',
        params: progressParams(progressToken, progress, total, message),
      });
    },
    log: (level, data, logger) =>
      extra.sendNotification({ method: 'notifications/message', params: logParams(level, data, logger) }),
    elicit: (params) => ask(QUESTIONS.elicit.method, params, schemas.elicit),
    sample: (params) => ask(QUESTIONS.sample.method, params, schemas.sample),
    listRoots: () => ask(QUESTIONS.listRoots.method, undefined, schemas.listRoots),
    sendRequest: (request, resultSchema) => ask(request.method, request.params, resultSchema),
  };

  /** A question as a request to the client, unless its capabilities say it cannot answer (refused at once, not after a timeout). */
  function ask(method: string, params: unknown, resultSchema: unknown) {
    const missing = missingCapabilities(clientCapabilities, method, params);
    if (missing) return Promise.reject(cannotAsk(missing));
    return extra.sendRequest(params === undefined ? { method } : { method, params }, resultSchema);
  }
}

/**
 * The caller the HTTP exchange handed a 2025 request's transport (legacy-exchange.ts puts it in
 * the SDK's `authInfo.extra`, the one way a value reaches a handler's extra through the SDK).
 */
function callerOfAuthInfo(authInfo: LegacyExtra['authInfo']): Caller | undefined {
  return authInfo?.extra?.caller as Caller | undefined;
}

/**
 * Why a question cannot be asked, as a JSON-RPC error (-32021, with the capabilities it needs): a
 * handler that lets it go answers the call with it on 2026-07-28 and fails a task with it.
 */
export function cannotAsk(missing: Record<string, unknown>): Error {
  return raisedError(missingCapabilityError(missing));
}

/** Asks the client a question, the way the call is served: the answer, once there is one. */
export interface QuestionAsker {
  ask(method: string, params: unknown, key: string | undefined): Promise<unknown>;
}

/** What a 2026-07-28 context is made from: the request, and where its notifications go. */
export interface ContextRequest {
  readonly id: string | number;
  /** The request's `_meta`: the progress token and log level are read there. */
  readonly meta: Record<string, unknown>;
  readonly capabilities: Record<string, unknown>;
  readonly notify: (notification: { readonly method: string; readonly params: unknown }) => void;
  readonly signal: AbortSignal;
  readonly caller?: Caller;
}

/**
 * The handler's context on MCP 2026-07-28, where a question is not a request the server sends:
 * it is answered by whatever asks it (an input-required result, or a task's input requests).
 */
export function modernContext(
  { id, meta, signal, notify, capabilities, caller }: ContextRequest,
  asker: QuestionAsker,
): McpToolContext {
  const progressToken = meta.progressToken;
  const logLevel = meta[META.logLevel] as LoggingLevel | undefined;
  let lastProgress = Number.NEGATIVE_INFINITY;
  const send = (method: string, params: unknown) => {
    if (!signal.aborted) notify({ method, params });
  };
  const context: McpToolContext = {
    requestId: id,
    signal,
    _meta: meta,
    era: 'modern',
    clientCapabilities: capabilities,
    ...(caller ? { caller } : {}),
    async progress(progress, total, message) {
      // Only for a request that asked, and only forward: progress must increase.
      if (progressToken === undefined || !(progress > lastProgress)) return;
      lastProgress = progress;
      send('notifications/progress', progressParams(progressToken, progress, total, message));
    },
    async log(level, data, logger) {
      if (logLevel === undefined || LOGGING_LEVELS.indexOf(level) < LOGGING_LEVELS.indexOf(logLevel)) return;
      send('notifications/message', logParams(level, data, logger));
    },
    elicit: (params, options) => asker.ask(QUESTIONS.elicit.method, params, options?.key) as never,
    sample: (params, options) => asker.ask(QUESTIONS.sample.method, params, options?.key) as never,
    listRoots: (options) => asker.ask(QUESTIONS.listRoots.method, undefined, options?.key) as never,
    async sendNotification({ method, params }) {
      const fields = (isRecord(params) ? params : {}) as Record<string, unknown>;
      if (method === 'notifications/progress')
        return context.progress(
          fields.progress as number,
          fields.total as number | undefined,
          fields.message as string | undefined,
        );
      if (method === 'notifications/message')
        return context.log(fields.level as LoggingLevel, fields.data, fields.logger as string | undefined);
    },
    sendRequest({ method, params }) {
      if (!Object.values(QUESTIONS).some((question) => question.method === method))
        return Promise.reject(new Error(`${method} is not a question a server may ask on ${MODERN_VERSION}`));
      return asker.ask(method, params, undefined);
    },
  };
  return context;
}

function progressParams(
  progressToken: unknown,
  progress: number,
  total: number | undefined,
  message: string | undefined,
): Record<string, unknown> {
  return {
    progressToken,
    progress,
    ...(total === undefined ? {} : { total }),
    ...(message === undefined ? {} : { message }),
  };
}

function logParams(level: LoggingLevel, data: unknown, logger: string | undefined): Record<string, unknown> {
  return { level, data, ...(logger === undefined ? {} : { logger }) };
}
