import type { TaskPolicy } from '../../../manifest/prepared-tool.js';
import type { ToolRuntime } from '../../../runtime/runner.js';
import { canonicalJson } from '../../../shared/run/canonical-text.js';
import { failureOf, type OnError } from '../../../shared/run/on-error.js';
import { getOwn, setOwn } from '../../../shared/run/own-property.js';
import { localExecutor } from '../../../tasks/local-executor.js';
import { memoryTaskStore } from '../../../tasks/memory-store.js';
import {
  isTerminal,
  type TaskEnd,
  type TaskExecutor,
  type TaskRecord,
  type TaskStore,
} from '../../../tasks/store.js';
import type { Caller } from '../service/caller-views.js';
import { cannotAsk, modernContext } from '../service/context.js';
import {
  earlierAnswer,
  inputRequest,
  isAnswerTo,
  missingCapabilities,
  QUESTIONS,
  questionKeys,
} from '../service/questions.js';
import type { CallAnswer, ToolService } from '../service/tool-service.js';
import type { HeaderReader } from '../wire/envelope.js';

/**
 * MCP tasks (the `io.modelcontextprotocol/tasks` extension of 2026-07-28) over a `TaskStore`: a
 * call to a tool whose contract runs it as a task is checked (the plan, then the contract's parsers)
 * and stored with the arguments they accepted; the handle goes back once the store holds the task;
 * an executor runs it on whichever node takes it; `tasks/get`, `tasks/update` and `tasks/cancel`
 * are answered from the store on any node. A run hears of answers and cancellation from the store
 * too, so nothing of a task lives only in one process.
 */

export interface TaskServingOptions {
  /** Where tasks are kept. Default: in this process's memory (one node). */
  readonly store?: TaskStore;
  /** Where tasks run. Default: in this process, as soon as they are created. */
  readonly executor?: TaskExecutor;
  /**
   * Who is asking: a task is read, answered and cancelled only by the principal that created it.
   * Default: over HTTP with `auth`, the verified caller's subject; without it, a digest of the
   * `Authorization` header (`anonymous` without one); `stdio` over stdio. Give your own when
   * identity comes from elsewhere. `anonymous` is no identity: its calls are never taken for
   * another's repeat.
   */
  readonly principal?: (header: HeaderReader, caller: Caller | undefined) => string | Promise<string>;
}

/** A new call's outcome: the task made for it, or the answer a plain call gives (its arguments refused). */
type TaskCallOutcome =
  | { readonly task: Record<string, unknown> }
  | { readonly answer: CallAnswer }
  /** The policy's questions not answered yet, as the input requests to send before the task is made. */
  | { readonly questions: Record<string, unknown> }
  /** The client capabilities the questions need and the client did not declare. */
  | { readonly missing: Record<string, unknown> };

export interface McpTasks {
  principalOf(header: HeaderReader, caller: Caller | undefined): Promise<string>;
  create(call: {
    readonly name: string;
    readonly args: unknown;
    readonly capabilities: Record<string, unknown>;
    readonly principal: string;
    /** The answers the call carries (its retry of an input-required round), by key. */
    readonly answers: Readonly<Record<string, unknown>>;
  }): Promise<TaskCallOutcome>;
  /** The task as `tasks/get` returns it, or undefined: no such task for this principal. */
  get(taskId: string, principal: string): Promise<Record<string, unknown> | undefined>;
  /** `tasks/update`: false when there is no such task for this principal. */
  update(taskId: string, principal: string, responses: Record<string, unknown>): Promise<boolean>;
  /** `tasks/cancel`: false when there is no such task for this principal. */
  cancel(taskId: string, principal: string): Promise<boolean>;
  /**
   * `subscriptions/listen` for tasks: the ids of those this principal holds, and each of their
   * transitions (as `tasks/get` would return the task) to `onTask`, until `stop`.
   */
  listen(
    taskIds: readonly string[],
    principal: string,
    onTask: (task: Record<string, unknown>) => void,
  ): Promise<{ readonly agreed: readonly string[]; stop(): Promise<void> }>;
}

/** The tasks of a runtime whose contracts run the tools of `policies` as tasks. */
export function mcpTasks(
  runtime: ToolRuntime,
  policies: ReadonlyMap<string, TaskPolicy>,
  service: ToolService,
  options: TaskServingOptions & { readonly onerror: OnError },
): McpTasks {
  // Whether a task whose node died may be run again: its tool is marked idempotent.
  const rerunnable = new Set(
    runtime
      .list()
      .filter((tool) => tool.annotations?.idempotentHint === true)
      .map((tool) => tool.name),
  );
  const store = options.store ?? memoryTaskStore({ onerror: options.onerror });
  const executor = options.executor ?? localExecutor({ onerror: options.onerror });
  const principalOf = options.principal ?? defaultPrincipal;
  const owned = async (taskId: string, principal: string) => {
    const task = typeof taskId === 'string' ? await store.get(taskId) : undefined;
    // Another principal's task is not found, rather than refused: its existence is not told.
    return task && task.principal === principal ? task : undefined;
  };

  /** Ends a run's task as the call ended: a result (a tool error too) completes it; a protocol error fails it. */
  const endOf = (name: string, outcome: Awaited<ReturnType<ToolRuntime['call']>>): TaskEnd => {
    const answer = service.answer(name, outcome);
    if ('result' in answer) return { status: 'completed', result: answer.result };
    return { status: 'failed', error: answer.error, statusMessage: answer.error.message };
  };

  /**
   * Runs a task the executor handed over. Resolves once the task needs no more running (it ended
   * in the store, or is gone); throws only when the store could not be read at first, so the
   * executor keeps the task for a later run. Once claimed, every store step is retried until it
   * lands or the task's TTL has passed: a result is never dropped for an outage shorter than that.
   */
  const runTask = async (taskId: string, reaped: boolean): Promise<void> => {
    const found = await store.get(taskId);
    if (!found || isTerminal(found.status)) return;
    const expiresAt = found.ttlMs === null ? undefined : Date.parse(found.createdAt) + found.ttlMs;
    const persist = <T>(what: string, step: () => Promise<T>) =>
      untilStored(`${what} the task ${taskId}`, step, expiresAt, options.onerror);
    // Claimed before: its handler may have run, and a tool not marked idempotent is not run again.
    // A task never claimed (its entry read but never run, or lost to an outage) is run now.
    if (reaped && !found.rerunnable && found.attempts > 0) {
      const message =
        'The node running this task stopped before it ended; the tool is not marked idempotent, so it was not run again';
      await persist('fail', () =>
        store.settle(taskId, { status: 'failed', error: { code: -32603, message }, statusMessage: message }),
      );
      return;
    }
    const runner = `${crypto.randomUUID()}`;
    // Retried by the same runner: a claim whose answer was lost is claimed again, not refused.
    const claimed = await persist('claim', () => store.claim(taskId, runner, { takeOver: reaped }));
    if (claimed === EXPIRED || !claimed) return;
    const controller = new AbortController();
    const run = taskRun(store, claimed, runner, controller.signal);
    const stopWatching = await persist('watch', () =>
      store.watch([taskId], (task) => {
        if (task.status === 'cancelled') controller.abort(new Error('The task was cancelled'));
        run.heard(task);
      }),
    );
    if (stopWatching === EXPIRED) return;
    try {
      // An answer that came while the watch began is read here (one heard later comes by the watch).
      const current = await store.get(taskId).catch(() => undefined);
      if (current) run.heard(current);
      const context = {
        ...modernContext(
          {
            id: taskId,
            meta: {},
            capabilities: { ...claimed.capabilities },
            notify: () => {},
            signal: controller.signal,
          },
          run,
        ),
        taskId,
      };
      const outcome = await runtime.call(claimed.tool, claimed.args, context);
      // A cancelled task keeps its status: the store refuses the move out of it.
      const end = endOf(claimed.tool, outcome);
      if ((await persist('store the end of', () => store.settle(taskId, end, runner))) === EXPIRED)
        options.onerror(
          new Error(
            `[toolprep] the ${end.status === 'completed' ? 'result' : 'error'} of the task ${taskId} (${claimed.tool}) could not be stored before its TTL ran out: it is lost, and the task is gone as any task past its TTL`,
          ),
        );
    } finally {
      run.close();
      await stopWatching();
    }
  };
  const started = executor.start(runTask);
  started.catch((error) => options.onerror(failureOf('the task executor did not start', error)));

  return {
    principalOf: async (header, caller) => principalOf(header, caller),
    async create({ name, args, capabilities, principal, answers }) {
      const policy = policies.get(name) as TaskPolicy;
      const checked = await runtime.check(name, args, { era: 'modern', clientCapabilities: capabilities });
      if (!checked.ok) return { answer: service.answer(name, checked) };
      // The policy's questions, asked before the task is made; their answers go in with it.
      const asked = Object.entries(policy.questions ?? {});
      const given: Record<string, unknown> = {};
      const waiting: Record<string, unknown> = {};
      const missing =
        asked.length > 0
          ? missingCapabilities(capabilities, QUESTIONS.elicit.method, { mode: 'form' })
          : undefined;
      if (missing) return { missing };
      for (const [key, question] of asked) {
        const answer = getOwn(answers, key);
        if (isAnswerTo(QUESTIONS.elicit.method, answer)) setOwn(given, key, answer);
        else setOwn(waiting, key, inputRequest(QUESTIONS.elicit.method, { mode: 'form', ...question }));
      }
      if (Object.keys(waiting).length > 0) return { questions: waiting };
      // Anonymous callers are not one caller: a repeat would hand one the task (and the result) of another.
      const repeat =
        policy.repeatWindowMs > 0 && principal !== ANONYMOUS
          ? {
              key: await sha256Hex(canonicalJson([principal, name, checked.value])),
              windowMs: policy.repeatWindowMs,
            }
          : undefined;
      const { task, created } = await store.create({
        taskId: crypto.randomUUID(),
        principal,
        tool: name,
        args: checked.value,
        capabilities,
        ttlMs: policy.ttlMs,
        pollIntervalMs: policy.pollIntervalMs,
        rerunnable: rerunnable.has(name),
        ...(asked.length > 0 ? { inputResponses: given } : {}),
        ...(repeat ? { repeat } : {}),
      });
      // A repeat of a call whose task was never claimed is queued again: its first queuing may
      // have failed (the caller was answered that the store was unavailable). Queued twice, it
      // still runs once: the second run's claim is refused.
      if (created || (task.status === 'working' && task.attempts === 0)) {
        await started;
        await executor.submit(task.taskId);
      }
      return { task: wireTask(task) };
    },
    async get(taskId, principal) {
      const task = await owned(taskId, principal);
      return task && wireTask(task);
    },
    async update(taskId, principal, responses) {
      if (!(await owned(taskId, principal))) return false;
      await store.answer(taskId, responses);
      return true;
    },
    async cancel(taskId, principal) {
      if (!(await owned(taskId, principal))) return false;
      await store.cancel(taskId, 'Cancelled by the client');
      return true;
    },
    async listen(taskIds, principal, onTask) {
      const held = await Promise.all(
        taskIds.map(async (taskId) => ((await owned(taskId, principal)) ? taskId : undefined)),
      );
      const agreed = held.filter((taskId): taskId is string => taskId !== undefined);
      const stop =
        agreed.length > 0 ? await store.watch(agreed, (task) => onTask(wireTask(task))) : async () => {};
      return { agreed, stop };
    },
  };
}

/** What `untilStored` gives when the task's TTL passed before the store took the step. */
const EXPIRED = Symbol('expired');

/** How a run's retries of a store step are spaced: from the first, doubling, to at most the last (ms). */
const RETRY_FIRST_MS = 250;
const RETRY_MOST_MS = 5_000;

/**
 * `step`, retried until it lands (each failure to `onerror`, which writes one per cause by
 * default), or `EXPIRED` once `expiresAt` (epoch ms; undefined: never) would pass before the next try.
 */
async function untilStored<T>(
  what: string,
  step: () => Promise<T>,
  expiresAt: number | undefined,
  onerror: OnError,
): Promise<T | typeof EXPIRED> {
  for (let wait = RETRY_FIRST_MS; ; wait = Math.min(wait * 2, RETRY_MOST_MS)) {
    try {
      return await step();
    } catch (error) {
      onerror(failureOf(`could not ${what} (retrying until it lands or its TTL has passed)`, error));
      if (expiresAt !== undefined && Date.now() + wait > expiresAt) return EXPIRED;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** A task as `tasks/get` returns it and `notifications/tasks` carries it: what its status shows. */
function wireTask(task: TaskRecord): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
    ...(task.status === 'input_required' ? { inputRequests: task.inputRequests } : {}),
    // The call's result as 2026-07-28 carries it, its discriminator included.
    ...(task.status === 'completed' ? { result: { resultType: 'complete', ...task.result } } : {}),
    ...(task.status === 'failed' ? { error: task.error } : {}),
  };
}

interface TaskRun {
  ask(method: string, params: unknown, key: string | undefined): Promise<unknown>;
  /** A transition of the task, from the store: answers to waiting questions are handed over. */
  heard(task: TaskRecord): void;
  /** The run is over: questions still waiting are rejected. */
  close(): void;
}

/**
 * The questions of one run of a task's handler. They are keyed by their place in the run
 * (`input-1`, `input-2`…) or the handler's own key: a question answered before (by an earlier run
 * of the same task) is answered at once; one asked by a run that stopped and never answered is
 * asked again under a new key, since a key is never used twice. Questions asked together go to the
 * store in one transition.
 */
function taskRun(store: TaskStore, claimed: TaskRecord, runner: string, signal: AbortSignal): TaskRun {
  let latest = claimed;
  const keyOf = questionKeys();
  const waiting = new Map<
    string,
    { method: string; resolve(answer: unknown): void; reject(error: unknown): void }
  >();
  let batch: Record<string, unknown> | undefined;
  const abandon = (error: unknown) => {
    for (const question of waiting.values()) question.reject(error);
    waiting.clear();
  };
  signal.addEventListener('abort', () => abandon(signal.reason), { once: true });
  return {
    ask(method, params, named) {
      let key = keyOf(named);
      const earlier = earlierAnswer(latest.inputResponses, key, method);
      if (earlier) return Promise.resolve(earlier.answer);
      if (signal.aborted) return Promise.reject(signal.reason);
      // The capabilities declared when the task was created: a question they do not cover fails the
      // task with -32021, as the same call would be answered on 2026-07-28.
      const missing = missingCapabilities(latest.capabilities as Record<string, unknown>, method, params);
      if (missing) return Promise.reject(cannotAsk(missing));
      if (latest.issuedKeys.includes(key)) key = `${key}.${latest.attempts}`;
      return new Promise((resolve, reject) => {
        waiting.set(key, { method, resolve, reject });
        if (!batch) {
          batch = {};
          setTimeout(() => {
            const requests = batch as Record<string, unknown>;
            batch = undefined;
            store.ask(latest.taskId, runner, requests).then((asked) => {
              if (!asked)
                abandon(new Error('The task can no longer ask: it ended, or another run took it over'));
            }, abandon);
          }, 0);
        }
        batch[key] = inputRequest(method, params);
      });
    },
    heard(task) {
      latest = task;
      for (const [key, question] of waiting) {
        if (!Object.hasOwn(task.inputResponses, key)) continue;
        const answer = task.inputResponses[key];
        if (!isAnswerTo(question.method, answer)) continue;
        waiting.delete(key);
        question.resolve(answer);
      }
    },
    close: () => abandon(new Error('The task run ended')),
  };
}

/** The principal of a caller with no identity: its tasks are reached by their unguessable id alone. */
const ANONYMOUS = 'anonymous';

/** The digests of the credentials seen lately: a client polls with the same header many times a second. */
const principals = new Map<string, string>();

async function defaultPrincipal(header: HeaderReader, caller: Caller | undefined): Promise<string> {
  if (caller) return `subject:${caller.subject}`;
  if (!header) return 'stdio';
  const authorization = header('authorization');
  if (authorization === undefined) return ANONYMOUS;
  let principal = principals.get(authorization);
  if (principal === undefined) {
    principal = `authorization:${await sha256Hex(authorization)}`;
    // Bounded: an unbounded cache of credentials would grow with every caller.
    if (principals.size >= 1_024) principals.clear();
    principals.set(authorization, principal);
  }
  return principal;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
