import { failureOf, logError, type OnError } from '../../shared/run/on-error.js';
import {
  callListener,
  type NewTask,
  type TaskListener,
  type TaskRecord,
  type TaskReporting,
  type TaskStatus,
  type TaskStore,
} from '../store.js';
import { type RedisConnection, replyPairs } from './connection.js';
import { deadline } from './deadline.js';
import { persistenceCheck, type RedisPersistence } from './persistence.js';
import {
  ANSWER_TASK,
  ASK_TASK,
  CANCEL_TASK,
  CLAIM_REPEAT,
  CLAIM_TASK,
  CREATE_TASK,
  SETTLE_TASK,
} from './scripts.js';

export interface RedisTaskStoreOptions extends TaskReporting {
  /** Prefix of every key and channel. Default `toolprep:`. */
  readonly prefix?: string;
  /**
   * How long a request waits on Redis before it is answered that the store is unavailable (and how
   * long `health()` waits for PING). Default 5000 ms.
   */
  readonly timeoutMs?: number;
  /**
   * What to do about Redis's persistence, read once at start (CONFIG GET appendonly and save, or
   * INFO persistence where CONFIG is refused): `warn` (the default) tells `onerror` once when tasks
   * would not survive a Redis restart, or that it could not tell; `require` refuses to create tasks
   * (and `health()` says why) unless Redis keeps an append-only file; `ignore` reads nothing.
   */
  readonly persistence?: RedisPersistence;
}

const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * Tasks in Redis (or Valkey), shared by every node: each transition is one script (scripts.ts),
 * each task's keys share the hash tag `{<taskId>}` so a Redis Cluster keeps them in one slot, the
 * TTL is Redis' own expiry, and every transition is published on the task's channel.
 *
 * The repeat key lives in a slot of its own (`{<repeatKey>}`), so `create` cannot be one script.
 * It creates the task first and only then maps the repeat key to it (SET NX in a script): a key
 * maps only to a task that exists, so whoever finds the mapping finds the task. The loser of a
 * race deletes the task it made (nobody has its id) and returns the winner's. A mapping whose
 * task has expired (its TTL shorter than the window) is replaced, compare-and-set.
 *
 * What a client's request waits on (`create`, `get`, `answer`, `cancel`, `watch`) is bounded by
 * `timeoutMs`: past it, or when Redis fails, the request gets a `TaskStoreUnavailableError` saying
 * what to check, never a hang nor the Redis client's own text. A run's own transitions (`claim`,
 * `ask`, `settle`) keep the Redis client's behaviour: no client waits on them, and a run's end
 * should outlast a short outage rather than be given up early.
 */
export function redisTaskStore(connection: RedisConnection, options: RedisTaskStoreOptions = {}): TaskStore {
  const prefix = options.prefix ?? 'toolprep:';
  const onerror = options.onerror ?? logError;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const taskKey = (taskId: string): string => `${prefix}{${taskId}}:task`;
  const channelOf = (taskId: string): string => `${prefix}{${taskId}}:events`;
  const repeatKey = (key: string): string => `${prefix}{${key}}:repeat`;
  const runScript = scriptRunner(connection);
  const transition = (script: string, taskId: string, args: readonly (string | number)[]) =>
    runScript(script, taskKey(taskId), [channelOf(taskId), ...args]);

  const watch = watchOn(connection, channelOf, onerror);
  const read = async (taskId: string): Promise<TaskRecord | undefined> =>
    recordOf(await connection.command(['HGETALL', taskKey(taskId)]));

  const createTask = async (task: NewTask): Promise<{ task: TaskRecord; created: boolean }> => {
    const fields: (string | number)[] = [
      'taskId',
      task.taskId,
      'principal',
      task.principal,
      'tool',
      task.tool,
      'args',
      JSON.stringify(task.args),
      'capabilities',
      JSON.stringify(task.capabilities),
      'pollIntervalMs',
      task.pollIntervalMs,
      'rerunnable',
      task.rerunnable ? '1' : '0',
    ];
    if (task.ttlMs !== null) fields.push('ttlMs', task.ttlMs);
    // Answers given before the task was made: their keys count as asked, in their order.
    const answered = Object.entries(task.inputResponses ?? {});
    for (const [index, [key, response]] of answered.entries())
      fields.push(`${ISSUED}${key}`, index + 1, `${RESPONSE}${key}`, JSON.stringify(response));
    if (answered.length > 0) fields.push('issuedCount', answered.length);
    const reply = await transition(CREATE_TASK, task.taskId, [task.ttlMs ?? '', ...fields]);
    const [created, record] = Array.isArray(reply) ? reply : [];
    return { task: existing(recordOf(record), task.taskId), created: created === 1 };
  };

  const create = async (task: NewTask): Promise<{ task: TaskRecord; created: boolean }> => {
    const repeat = task.repeat;
    if (repeat === undefined) return createTask(task);
    let mapped = await connection.command(['GET', repeatKey(repeat.key)]);
    if (typeof mapped === 'string') {
      const live = await read(mapped);
      if (live !== undefined) return { task: live, created: false };
    }
    const made = await createTask(task);
    if (!made.created) return made;
    for (;;) {
      const stale = typeof mapped === 'string' ? mapped : '';
      mapped = await runScript(CLAIM_REPEAT, repeatKey(repeat.key), [task.taskId, repeat.windowMs, stale]);
      if (typeof mapped !== 'string' || mapped === task.taskId) return made;
      const live = await read(mapped);
      if (live !== undefined) {
        await connection.command(['DEL', taskKey(task.taskId)]);
        return { task: live, created: false };
      }
    }
  };

  const bounded = deadline(timeoutMs, onerror);
  const persistence = persistenceCheck(connection, options.persistence ?? 'warn', onerror);

  return {
    get: (taskId) => bounded(`read the task ${taskId}`, () => read(taskId)),

    create: (task) =>
      bounded(
        `create a task of ${task.tool}`,
        async () => {
          await persistence.required();
          return create(task);
        },
        // Made after the client was told it failed: nobody has its id, so it is deleted (a repeat
        // key that maps to it is replaced by the next call, as for an expired task).
        async (made) => {
          if (made.created) await connection.command(['DEL', taskKey(made.task.taskId)]);
        },
      ),

    async health(healthOptions) {
      try {
        await bounded(
          'answer PING',
          async () => {
            await connection.command(['PING']);
            await persistence.required();
          },
          undefined,
          healthOptions?.timeoutMs,
        );
        return { ok: true };
      } catch (error) {
        return { ok: false, reason: (error as Error).message };
      }
    },

    async claim(taskId, runner, claimOptions) {
      return recordOf(await transition(CLAIM_TASK, taskId, [runner, claimOptions?.takeOver ? '1' : '0']));
    },

    async ask(taskId, runner, requests) {
      const pairs = Object.entries(requests).flatMap(([key, value]) => [key, JSON.stringify(value)]);
      return (await transition(ASK_TASK, taskId, [runner, ...pairs])) === 1;
    },

    answer(taskId, responses) {
      const pairs = Object.entries(responses).flatMap(([key, value]) => [key, JSON.stringify(value)]);
      return bounded(`answer the task ${taskId}`, async () =>
        recordOf(await transition(ANSWER_TASK, taskId, pairs)),
      );
    },

    async settle(taskId, end, runner) {
      const [field, value] = end.status === 'completed' ? ['result', end.result] : ['error', end.error];
      const message = end.statusMessage === undefined ? ['0', ''] : ['1', end.statusMessage];
      const holder = runner === undefined ? ['0', ''] : ['1', runner];
      const reply = await transition(SETTLE_TASK, taskId, [
        ...holder,
        end.status,
        field,
        JSON.stringify(value),
        ...message,
      ]);
      return reply === 1;
    },

    cancel(taskId, statusMessage) {
      const message = statusMessage === undefined ? ['0', ''] : ['1', statusMessage];
      return bounded(`cancel the task ${taskId}`, async () =>
        recordOf(await transition(CANCEL_TASK, taskId, message)),
      );
    },

    watch(taskIds, listener) {
      // Subscribed after the deadline: nobody holds the unwatch, so it is called here.
      return bounded(
        `watch ${taskIds.length === 1 ? `the task ${taskIds[0]}` : `${taskIds.length} tasks`}`,
        () => watch(taskIds, listener),
        (unwatch) => unwatch(),
      );
    },
  };
}

/** Subscribes `listener` to the tasks' channels; resolves with the unwatch once every one is subscribed. */
function watchOn(connection: RedisConnection, channelOf: (taskId: string) => string, onerror: OnError) {
  return async (taskIds: readonly string[], listener: TaskListener): Promise<() => Promise<void>> => {
    // Called from the client's message event, where nothing awaits it: a failure is reported.
    const deliver = (message: string): void => {
      let task: TaskRecord | undefined;
      try {
        task = recordOf(JSON.parse(message));
      } catch (error) {
        onerror(failureOf(`a message on a task channel is not a task (${message.slice(0, 80)})`, error));
        return;
      }
      if (task !== undefined) callListener(listener, task, onerror);
    };
    const subscriptions = await Promise.allSettled(
      taskIds.map((taskId) => connection.subscribe(channelOf(taskId), deliver)),
    );
    const unsubscribes = subscriptions.flatMap((outcome) =>
      outcome.status === 'fulfilled' ? [outcome.value] : [],
    );
    const unwatch = async (): Promise<void> => {
      await Promise.all(unsubscribes.map((unsubscribe) => unsubscribe()));
    };
    const failure = subscriptions.find((outcome) => outcome.status === 'rejected');
    if (failure !== undefined) {
      await unwatch();
      throw failure.reason;
    }
    return unwatch;
  };
}

function existing(record: TaskRecord | undefined, taskId: string): TaskRecord {
  if (record === undefined) throw new Error(`[toolprep] Redis returned no fields for the task ${taskId}`);
  return record;
}

/**
 * Runs a script by its SHA-1 (EVALSHA), sending its text (EVAL, which also caches it) only when
 * the node does not have it yet: after a restart, a failover, or on another node of a cluster.
 */
function scriptRunner(connection: RedisConnection) {
  const digests = new Map<string, Promise<string>>();
  return async (script: string, key: string, args: readonly (string | number)[]): Promise<unknown> => {
    let digest = digests.get(script);
    if (digest === undefined) {
      digest = sha1Hex(script);
      digests.set(script, digest);
    }
    try {
      return await connection.command(['EVALSHA', await digest, 1, key, ...args]);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      return connection.command(['EVAL', script, 1, key, ...args]);
    }
  };
}

async function sha1Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const ISSUED = 'issued:';
const REQUEST = 'request:';
const RESPONSE = 'response:';

/** The record a task's hash fields (HGETALL, or a script's reply) describe; undefined for none. */
function recordOf(reply: unknown): TaskRecord | undefined {
  const fields = new Map<string, string>();
  const issueOrder = new Map<string, number>();
  const requests: [string, unknown][] = [];
  const responses: [string, unknown][] = [];
  for (const [field, value] of replyPairs(reply)) {
    const text = String(value);
    if (field.startsWith(ISSUED)) issueOrder.set(field.slice(ISSUED.length), Number(text));
    else if (field.startsWith(REQUEST)) requests.push([field.slice(REQUEST.length), JSON.parse(text)]);
    else if (field.startsWith(RESPONSE)) responses.push([field.slice(RESPONSE.length), JSON.parse(text)]);
    else fields.set(field, text);
  }
  const taskId = fields.get('taskId');
  if (taskId === undefined) return undefined;
  const byIssue = (a: readonly [string, unknown], b: readonly [string, unknown]): number =>
    (issueOrder.get(a[0]) ?? 0) - (issueOrder.get(b[0]) ?? 0);
  const text = (field: string): string => fields.get(field) ?? '';
  const json = (field: string): unknown => JSON.parse(text(field));
  const optional = (field: string, value: (text: string) => unknown): Record<string, unknown> => {
    const found = fields.get(field);
    return found === undefined ? {} : { [field]: value(found) };
  };
  return {
    taskId,
    principal: text('principal'),
    tool: text('tool'),
    args: json('args') as TaskRecord['args'],
    capabilities: json('capabilities') as TaskRecord['capabilities'],
    status: text('status') as TaskStatus,
    ...optional('statusMessage', (found) => found),
    createdAt: new Date(Number(text('createdAt'))).toISOString(),
    lastUpdatedAt: new Date(Number(text('lastUpdatedAt'))).toISOString(),
    ttlMs: fields.has('ttlMs') ? Number(text('ttlMs')) : null,
    pollIntervalMs: Number(text('pollIntervalMs')),
    // Object.fromEntries defines own properties: a key such as `__proto__` stays a key.
    inputRequests: Object.fromEntries(requests.sort(byIssue)),
    inputResponses: Object.fromEntries(responses.sort(byIssue)),
    issuedKeys: [...issueOrder.entries()].sort((a, b) => a[1] - b[1]).map(([key]) => key),
    ...optional('result', (found) => JSON.parse(found)),
    ...optional('error', (found) => JSON.parse(found)),
    rerunnable: text('rerunnable') === '1',
    ...optional('runner', (found) => found),
    attempts: Number(text('attempts')),
  };
}
