/**
 * Calling a tool that may run as an MCP task (the `io.modelcontextprotocol/tasks` extension of
 * 2026-07-28), from a client: `tools/call` declaring the extension; a task handle followed with
 * `tasks/get` at the interval the server asks for; the task's questions (and a call's
 * input-required round) answered through the client's own functions; `tasks/cancel` when the
 * caller's signal aborts. The protocol only: the transport (HTTP, or anything else) is given.
 */

import { isRecord } from '../../shared/run/is-record.js';
import type { Json, RpcError, TaskTransport } from './http.js';

const PROTOCOL_VERSION = '2026-07-28';
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** How long between polls when the server suggests nothing. */
const DEFAULT_POLL_INTERVAL_MS = 1_000;

/** What a tool call returns: a `CallToolResult` (content, `structuredContent`, `isError` for a tool's own error). */
export type ToolResult = { readonly [key: string]: Json };

/** A task as `tasks/get` answers it (and the handle `tools/call` returns). */
export interface TaskState {
  readonly taskId: string;
  readonly status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  readonly statusMessage?: string;
  readonly pollIntervalMs?: number;
  readonly ttlMs?: number | null;
  readonly inputRequests?: { readonly [key: string]: Json };
  readonly result?: ToolResult;
  readonly error?: RpcError;
}

/** Where a question comes from: its key, the task asking it (none for a call's input-required round). */
export interface QuestionContext {
  readonly key: string;
  readonly taskId?: string;
  readonly signal?: AbortSignal;
}

/** An answer to `elicitation/create`. */
export type ElicitAnswer = {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: { readonly [key: string]: string | number | boolean | readonly string[] };
};

/** An answer to `roots/list`. */
export type RootsAnswer = { readonly roots: readonly { readonly uri: string; readonly name?: string }[] };

/**
 * The client's answers to the server's questions, by kind. Each one given is declared to the
 * server (elicitation in form mode, sampling, roots); a tool that asks what is not given is told
 * by the server that the client cannot answer it.
 */
export interface TaskAnswers {
  /** `elicitation/create`: the question's params (`message`, `requestedSchema`). */
  readonly elicitation?: (
    params: { readonly [key: string]: Json },
    context: QuestionContext,
  ) => ElicitAnswer | Promise<ElicitAnswer>;
  /** `sampling/createMessage`: the params; answer a `CreateMessageResult` (`role`, `content`, `model`). */
  readonly sampling?: (
    params: { readonly [key: string]: Json },
    context: QuestionContext,
  ) => ToolResult | Promise<ToolResult>;
  /** `roots/list`. */
  readonly roots?: (context: QuestionContext) => RootsAnswer | Promise<RootsAnswer>;
}

export interface TaskClientOptions {
  /** Who the client is: sent in every request's `_meta`. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  readonly answers?: TaskAnswers;
}

export interface TaskCallOptions {
  /** Aborting it cancels the task (`tasks/cancel`) and rejects the call with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Called with the task's handle and with each state polled: for a progress display. */
  readonly onTask?: (task: TaskState) => void;
}

export interface TaskClient {
  /**
   * Calls a tool and resolves with its result, whether the server answers at once or with a task
   * (followed until it ends). A tool's own error is a result (`isError: true`); a failed or
   * cancelled task, or a refused request, rejects with a `TaskCallError`.
   */
  callTool(
    name: string,
    args?: { readonly [key: string]: Json },
    options?: TaskCallOptions,
  ): Promise<ToolResult>;
}

/** A call that did not end with a result: its task failed or was cancelled, or a request was refused. */
export class TaskCallError extends Error {
  readonly tool: string;
  /** The task, once there was one. */
  readonly taskId: string | undefined;
  /** `failed`, `cancelled` (not by this call's signal), or `refused` (a request answered with an error). */
  readonly status: 'failed' | 'cancelled' | 'refused';
  /** The JSON-RPC error of a failed task or a refused request. */
  readonly error: RpcError | undefined;

  constructor(
    message: string,
    details: { tool: string; taskId?: string; status: TaskCallError['status']; error?: RpcError },
  ) {
    super(message);
    this.name = 'TaskCallError';
    this.tool = details.tool;
    this.taskId = details.taskId;
    this.status = details.status;
    this.error = details.error;
  }
}

/** The server's questions, by method: which answer function takes each, and what declaring it says. */
const QUESTION_KINDS = {
  'elicitation/create': { answer: 'elicitation', capability: { elicitation: { form: {} } } },
  'sampling/createMessage': { answer: 'sampling', capability: { sampling: {} } },
  'roots/list': { answer: 'roots', capability: { roots: {} } },
} as const;

/** A client of one server, through `transport` (`streamableHttp(url)`, or one of your own). */
export function createTaskClient(transport: TaskTransport, options: TaskClientOptions = {}): TaskClient {
  const answers = options.answers ?? {};
  const capabilities: Record<string, Json> = { extensions: { [TASKS_EXTENSION]: {} } };
  for (const kind of Object.values(QUESTION_KINDS))
    if (answers[kind.answer] !== undefined) Object.assign(capabilities, kind.capability);
  const meta = {
    'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    ...(options.clientInfo ? { 'io.modelcontextprotocol/clientInfo': { ...options.clientInfo } } : {}),
  };

  /** One request; its result, or a `TaskCallError` saying who refused what. */
  const request = async (
    method: string,
    params: { readonly [key: string]: Json },
    tool: string,
    signal: AbortSignal | undefined,
  ): Promise<{ readonly [key: string]: Json }> => {
    const answer = await transport(
      { method, params: { ...params, _meta: meta } },
      signal ? { signal } : undefined,
    );
    const taskId = typeof params.taskId === 'string' ? params.taskId : undefined;
    if (answer.kind === 'error')
      throw new TaskCallError(
        `[toolprep] ${method} for "${tool}"${taskId ? ` (task ${taskId})` : ''} was refused: ${answer.error.message} (${answer.error.code})`,
        { tool, status: 'refused', error: answer.error, ...(taskId ? { taskId } : {}) },
      );
    if (!isRecord(answer.result))
      throw new Error(`[toolprep] ${method} for "${tool}" was answered with no result object`);
    return answer.result as { readonly [key: string]: Json };
  };

  /** Answers every question of `requests` not in `answered`, by key. */
  const answerAll = async (
    requests: { readonly [key: string]: Json },
    answered: ReadonlySet<string>,
    context: { tool: string; taskId?: string; signal?: AbortSignal },
  ): Promise<Record<string, Json>> => {
    const responses: Record<string, Json> = {};
    for (const [key, question] of Object.entries(requests)) {
      if (answered.has(key)) continue;
      const method = isRecord(question) && typeof question.method === 'string' ? question.method : '';
      const params = (isRecord(question) && isRecord(question.params) ? question.params : {}) as {
        readonly [key: string]: Json;
      };
      const kind = Object.hasOwn(QUESTION_KINDS, method)
        ? QUESTION_KINDS[method as keyof typeof QUESTION_KINDS]
        : undefined;
      const questionContext = {
        key,
        ...(context.taskId ? { taskId: context.taskId } : {}),
        ...(context.signal ? { signal: context.signal } : {}),
      };
      if (kind?.answer === 'elicitation' && answers.elicitation)
        responses[key] = await answers.elicitation(params, questionContext);
      else if (kind?.answer === 'sampling' && answers.sampling)
        responses[key] = await answers.sampling(params, questionContext);
      else if (kind?.answer === 'roots' && answers.roots)
        responses[key] = await answers.roots(questionContext);
      else
        throw new TaskCallError(
          `[toolprep] "${context.tool}" asked ${JSON.stringify(method)} (input ${key}), which this client does not answer: give createTaskClient's answers.${kind?.answer ?? '…'}`,
          { tool: context.tool, status: 'refused', ...(context.taskId ? { taskId: context.taskId } : {}) },
        );
    }
    return responses;
  };

  /** Polls a task until it ends, answering its questions; the result of a completed task. */
  const follow = async (
    tool: string,
    handle: TaskState,
    callOptions: TaskCallOptions,
  ): Promise<ToolResult> => {
    const { signal, onTask } = callOptions;
    const { taskId } = handle;
    const answered = new Set<string>();
    let task = handle;
    for (;;) {
      onTask?.(task);
      if (task.status === 'completed') return withoutResultType(task.result ?? {});
      if (task.status === 'failed')
        throw new TaskCallError(
          `[toolprep] the task ${taskId} of "${tool}" failed: ${task.error?.message ?? task.statusMessage ?? 'no reason given'}${task.error ? ` (${task.error.code})` : ''}`,
          { tool, taskId, status: 'failed', ...(task.error ? { error: task.error } : {}) },
        );
      if (task.status === 'cancelled')
        throw new TaskCallError(
          `[toolprep] the task ${taskId} of "${tool}" was cancelled${task.statusMessage ? `: ${task.statusMessage}` : ''}`,
          { tool, taskId, status: 'cancelled' },
        );
      if (task.status === 'input_required' && task.inputRequests) {
        const context = { tool, taskId, ...(signal ? { signal } : {}) };
        const responses = await answerAll(task.inputRequests, answered, context);
        if (Object.keys(responses).length > 0) {
          await request('tasks/update', { taskId, inputResponses: responses }, tool, signal);
          for (const key of Object.keys(responses)) answered.add(key);
        }
      }
      await pause(task.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, signal);
      task = (await request('tasks/get', { taskId }, tool, signal)) as unknown as TaskState;
    }
  };

  return {
    async callTool(name, args = {}, callOptions = {}) {
      const { signal } = callOptions;
      signal?.throwIfAborted();
      let params: { readonly [key: string]: Json } = { name, arguments: args };
      for (;;) {
        const result = await request('tools/call', params, name, signal);
        if (result.resultType === 'input_required') {
          // Questions the server asks before it makes the task (or runs the tool): answered, then the call again.
          const requests = isRecord(result.inputRequests) ? result.inputRequests : {};
          const context = { tool: name, ...(signal ? { signal } : {}) };
          const inputResponses = await answerAll(requests as { [key: string]: Json }, new Set(), context);
          params = {
            name,
            arguments: args,
            inputResponses,
            ...(result.requestState === undefined ? {} : { requestState: result.requestState }),
          };
          continue;
        }
        if (result.resultType !== 'task') return withoutResultType(result);
        const handle = result as unknown as TaskState;
        try {
          return await follow(name, handle, callOptions);
        } catch (error) {
          if (error instanceof TaskCallError && error.status !== 'refused') throw error;
          // The caller gave up, or the task cannot go on (a question this client does not answer): cancel it.
          if (signal?.aborted || (error instanceof TaskCallError && error.error === undefined))
            await transport({
              method: 'tasks/cancel',
              params: { taskId: handle.taskId, _meta: meta },
            }).catch(() => undefined);
          if (signal?.aborted) throw signal.reason;
          throw error;
        }
      }
    },
  };
}

/** The result as a `CallToolResult`: 2026-07-28's discriminator taken off. */
function withoutResultType(result: ToolResult): ToolResult {
  const { resultType: _resultType, ...rest } = result;
  return rest;
}

/** Waits `ms`, or until the signal aborts (then rejects with its reason). */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}
