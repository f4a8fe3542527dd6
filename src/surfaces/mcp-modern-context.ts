import { isRecord } from '../shared/run/is-record.js';
import {
  type ElicitParams,
  INPUT_METHODS,
  LOGGING_LEVELS,
  type LoggingLevel,
  type McpToolContext,
} from './mcp-context.js';

/**
 * The handler's context on MCP 2026-07-28, where a question is not a request the server sends:
 * it is answered by whatever asks it (an input-required result, or a task's input requests).
 */

export const MODERN_VERSION = '2026-07-28';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** Asks the client a question, the way the call is served: the answer, once there is one. */
export interface QuestionAsker {
  ask(method: string, capability: string, params: unknown, key: string | undefined): Promise<unknown>;
}

/** What the context is made from: the request, and where its notifications go. */
export interface ContextRequest {
  readonly id: string | number;
  /** The request's `_meta`: the progress token and log level are read there. */
  readonly meta: Record<string, unknown>;
  readonly capabilities: Record<string, unknown>;
  readonly notify: (notification: { readonly method: string; readonly params: unknown }) => void;
  readonly signal: AbortSignal;
}

/** Whether a value has the shape of an answer to a question of this method. */
export function isAnswerTo(method: string, answer: unknown): boolean {
  if (!isRecord(answer)) return false;
  if (method === INPUT_METHODS.elicit.method)
    return answer.action === 'accept' || answer.action === 'decline' || answer.action === 'cancel';
  if (method === INPUT_METHODS.sample.method) return typeof answer.model === 'string' && 'content' in answer;
  return Array.isArray(answer.roots);
}

/** A URL elicitation needs `elicitation.url`; a form one, `elicitation.form` or the bare `elicitation: {}`. */
export function supportsMode(
  method: string,
  capabilities: Record<string, unknown>,
  params: unknown,
): boolean {
  if (method !== INPUT_METHODS.elicit.method) return true;
  const elicitation = capabilities.elicitation as Record<string, unknown>;
  const mode = (params as ElicitParams).mode ?? 'form';
  if (mode === 'url') return isRecord(elicitation.url);
  return isRecord(elicitation.form) || !isRecord(elicitation.url);
}

export function modernContext(
  { id, meta, signal, notify, capabilities }: ContextRequest,
  round: QuestionAsker,
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
    async progress(progress, total, message) {
      // Only for a request that asked, and only forward: progress must increase.
      if (progressToken === undefined || !(progress > lastProgress)) return;
      lastProgress = progress;
      send('notifications/progress', {
        progressToken,
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      });
    },
    async log(level, data, logger) {
      if (logLevel === undefined || LOGGING_LEVELS.indexOf(level) < LOGGING_LEVELS.indexOf(logLevel)) return;
      send('notifications/message', { level, data, ...(logger === undefined ? {} : { logger }) });
    },
    elicit: (params, options) =>
      round.ask(INPUT_METHODS.elicit.method, INPUT_METHODS.elicit.capability, params, options?.key) as never,
    sample: (params, options) =>
      round.ask(INPUT_METHODS.sample.method, INPUT_METHODS.sample.capability, params, options?.key) as never,
    listRoots: (options) =>
      round.ask(
        INPUT_METHODS.listRoots.method,
        INPUT_METHODS.listRoots.capability,
        undefined,
        options?.key,
      ) as never,
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
      const question = Object.values(INPUT_METHODS).find((input) => input.method === method);
      if (!question)
        return Promise.reject(new Error(`${method} is not a question a server may ask on ${MODERN_VERSION}`));
      return round.ask(question.method, question.capability, params, undefined);
    },
  };
  return context;
}
