/**
 * The state of MCP tasks (the `io.modelcontextprotocol/tasks` extension of 2026-07-28), as a store
 * keeps it. Every method is one atomic transition: a store shared by many nodes (Redis) makes each
 * a single script, so no two nodes ever see a task half moved. The serving decides what to ask for;
 * the store refuses what the state machine does not allow (a move out of a terminal state, an input
 * key used twice, a runner that no longer holds the task).
 */

import { failureOf, type OnError } from '../shared/run/on-error.js';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'cancelled' | 'failed';

export const TERMINAL_STATUSES: readonly TaskStatus[] = ['completed', 'cancelled', 'failed'];

export const isTerminal = (status: TaskStatus): boolean => TERMINAL_STATUSES.includes(status);

/** A JSON-RPC error, as a failed task carries it. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** A task as the store keeps it: plain JSON, the same on every node. */
export interface TaskRecord {
  /** Unguessable (128 random bits): over HTTP it is also what a balancer routes on (`Mcp-Name`). */
  readonly taskId: string;
  /** Who created it; only they may read, answer or cancel it. */
  readonly principal: string;
  readonly tool: string;
  /** The arguments as the plan repaired them and the contract's parsers accepted them. */
  readonly args: Readonly<Record<string, unknown>>;
  /** What the client declared it can do, on the call that created the task. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /** From creation; the store forgets the task (and answers "not found") once it has passed. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  /** The questions waiting for an answer, by key: `{ method, params }`. */
  readonly inputRequests: Readonly<Record<string, unknown>>;
  /** Every answer received, by key: a run asks its questions in order, and one answered is not asked again. */
  readonly inputResponses: Readonly<Record<string, unknown>>;
  /** Every key ever asked: a key is never used for a second question. */
  readonly issuedKeys: readonly string[];
  /** The `CallToolResult` of a completed task. */
  readonly result?: Readonly<Record<string, unknown>>;
  readonly error?: TaskError;
  /** Whether a task whose runner stopped may be run again from its arguments (the tool is idempotent). */
  readonly rerunnable: boolean;
  /** The run holding the task (set by `claim`): a run that lost it can no longer move it. */
  readonly runner?: string;
  /** How many runs have claimed it. */
  readonly attempts: number;
}

/** What `create` needs; the store sets the status (`working`), the times and the rest. */
export interface NewTask {
  readonly taskId: string;
  readonly principal: string;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  readonly rerunnable: boolean;
  /** Answers the call had before the task was made (its questions, asked first), by key: asked and answered. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /**
   * A repeated call's key (a digest of principal, tool and arguments) and for how long it holds:
   * within the window, `create` returns the task the first call made instead of another.
   */
  readonly repeat?: { readonly key: string; readonly windowMs: number };
}

/** How a run ends a task. */
export type TaskEnd =
  | {
      readonly status: 'completed';
      readonly result: Readonly<Record<string, unknown>>;
      readonly statusMessage?: string;
    }
  | { readonly status: 'failed'; readonly error: TaskError; readonly statusMessage: string };

/** Called with the task after each of its transitions, on whichever node made it. */
export type TaskListener = (task: TaskRecord) => void;

/**
 * Tells a listener of a task: one that throws must not stop the others, nor a store's message loop;
 * what it threw goes to `onerror`.
 */
export function callListener(listener: TaskListener, task: TaskRecord, onerror: OnError): void {
  try {
    listener(task);
  } catch (error) {
    onerror(failureOf(`a listener of the task ${task.taskId} threw`, error));
  }
}

/** What every task store and executor factory takes besides its own options. */
export interface TaskReporting {
  /**
   * Called with what goes wrong where no caller awaits it (a listener that threw, a background run
   * or read that failed), as the MCP SDK v2's `createMcpHandler` does: reporting only. Default:
   * stderr, once per message (decision 0044); give one to replace it.
   */
  readonly onerror?: OnError;
}

/** What a store's `health()` says: reachable, or why not. */
export type TaskStoreHealth = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * A store that could not do what a request asked in time, or whose backend failed: the message says
 * which store and what to check, the backend's own error is the `cause` (for the logs, not the
 * client). A request that meets it can be retried: the store may come back.
 */
export class TaskStoreUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TaskStoreUnavailableError';
  }
}

export interface TaskStore {
  /**
   * Creates the task, durably: once this resolves, `get` on any node finds it. With `repeat`, a
   * live task of the same key is returned instead (`created: false`), and nothing is created.
   */
  create(task: NewTask): Promise<{ readonly task: TaskRecord; readonly created: boolean }>;
  /** The task, or undefined when there is none (never created, or past its TTL). */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Gives the task to the run `runner`: `working`, `attempts` + 1, waiting questions dropped (the
   * run asks again; answered ones are kept). Refused (undefined) for a terminal task, or one another
   * run holds, unless `takeOver` (the run that held it stopped).
   */
  claim(
    taskId: string,
    runner: string,
    options?: { readonly takeOver?: boolean },
  ): Promise<TaskRecord | undefined>;
  /**
   * The run asks questions: `input_required`, with `requests` added to the waiting ones. Refused
   * (false) when the task is terminal, the run no longer holds it, or a key was asked before.
   */
  ask(taskId: string, runner: string, requests: Readonly<Record<string, unknown>>): Promise<boolean>;
  /**
   * The client's answers (`tasks/update`): those to waiting questions are kept, the rest ignored;
   * with none left waiting, back to `working`. Undefined when there is no such task.
   */
  answer(taskId: string, responses: Readonly<Record<string, unknown>>): Promise<TaskRecord | undefined>;
  /**
   * Ends the task: refused (false) when it is terminal already, or when `runner` is given and does
   * not hold it (a run taken over). Without `runner`: the reaper failing a task whose run stopped.
   */
  settle(taskId: string, end: TaskEnd, runner?: string): Promise<boolean>;
  /** `tasks/cancel`: `cancelled`, unless terminal already. Undefined when there is no such task. */
  cancel(taskId: string, statusMessage?: string): Promise<TaskRecord | undefined>;
  /**
   * Calls `listener` after every transition of these tasks, made on any node, until the returned
   * function is called. Resolves once listening has begun: a transition made after that is seen.
   */
  watch(taskIds: readonly string[], listener: TaskListener): Promise<() => Promise<void>>;
  /**
   * Whether the store can answer now, for a readiness probe: `{ ok: false, reason }` when it did
   * not answer in time (`timeoutMs`, default the store's own bound) or failed. Never throws.
   */
  health?(options?: { readonly timeoutMs?: number }): Promise<TaskStoreHealth>;
  /** Stops what the store runs (connections it made, timers). */
  close?(): Promise<void>;
}

/**
 * Runs tasks: where a created task's handler runs, apart from where the task is stored. `start`
 * is called once with the function that runs a task by id; `reaped` says that the run which held it
 * stopped (its node died), so the task is failed (claimed before, and not rerunnable) or run. That
 * function resolves once the task needs no more running (it ended in the store, or is gone), and
 * throws when it could not tell: an executor that can keep the task (Redis Streams) runs it again later.
 */
export interface TaskExecutor {
  start(run: (taskId: string, reaped: boolean) => Promise<void>): Promise<void>;
  /** Hands a task over to be run (on this node, or on whichever node takes it). */
  submit(taskId: string): Promise<void>;
  /** Stops taking tasks; runs under way are left to finish. */
  close(): Promise<void>;
}
