import { logError } from '../shared/run/on-error.js';
import {
  callListener,
  isTerminal,
  type NewTask,
  type TaskEnd,
  type TaskListener,
  type TaskRecord,
  type TaskReporting,
  type TaskStore,
} from './store.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A task as this store keeps it: the record, writable, with its questions in null-prototype objects. */
type StoredTask = Omit<Mutable<TaskRecord>, 'inputRequests' | 'inputResponses' | 'issuedKeys'> & {
  inputRequests: Record<string, unknown>;
  inputResponses: Record<string, unknown>;
  issuedKeys: string[];
};

interface Entry {
  readonly task: StoredTask;
  /** Epoch ms; Infinity without a TTL. */
  readonly expiresAt: number;
}

interface RepeatMapping {
  readonly taskId: string;
  readonly expiresAt: number;
}

/**
 * Tasks in this process's memory: the default store, for one node. Every method changes the state
 * synchronously, so each is atomic. A task past its TTL is gone; expired tasks and repeat keys are
 * swept on `create`, so memory stays bounded by the live ones. Records handed out are copies.
 */
export function memoryTaskStore(options: { now?: () => number } & TaskReporting = {}): TaskStore {
  const now = options.now ?? Date.now;
  const onerror = options.onerror ?? logError;
  const tasks = new Map<string, Entry>();
  const repeats = new Map<string, RepeatMapping>();
  const expiries = expiryQueue();
  const watchers = new Map<string, Set<{ readonly listener: TaskListener }>>();

  const live = (taskId: string): StoredTask | undefined => {
    const entry = tasks.get(taskId);
    if (entry === undefined) return undefined;
    if (now() < entry.expiresAt) return entry.task;
    tasks.delete(taskId);
    return undefined;
  };

  const transitioned = (task: StoredTask): void => {
    task.lastUpdatedAt = new Date(now()).toISOString();
    for (const watcher of watchers.get(task.taskId) ?? []) {
      const copy = structuredClone(task);
      queueMicrotask(() => callListener(watcher.listener, copy, onerror));
    }
  };

  const end = (task: StoredTask, status: TaskRecord['status'], statusMessage: string | undefined): void => {
    task.status = status;
    task.inputRequests = Object.create(null);
    if (statusMessage === undefined) delete task.statusMessage;
    else task.statusMessage = statusMessage;
  };

  const addRepeat = (key: string, taskId: string, expiresAt: number): void => {
    repeats.set(key, { taskId, expiresAt });
    expiries.add(expiresAt, () => {
      if (repeats.get(key)?.expiresAt === expiresAt) repeats.delete(key);
    });
  };

  const addTask = (task: StoredTask, expiresAt: number): void => {
    tasks.set(task.taskId, { task, expiresAt });
    if (expiresAt !== Number.POSITIVE_INFINITY)
      expiries.add(expiresAt, () => {
        if (tasks.get(task.taskId)?.expiresAt === expiresAt) tasks.delete(task.taskId);
      });
  };

  return {
    // In this process: it answers whenever the process does.
    health: async () => ({ ok: true }),

    async create(newTask: NewTask) {
      const time = now();
      expiries.sweep(time);
      const repeat = newTask.repeat;
      const mapping = repeat === undefined ? undefined : repeats.get(repeat.key);
      const repeated = mapping !== undefined && time < mapping.expiresAt ? live(mapping.taskId) : undefined;
      if (repeated !== undefined) return { task: structuredClone(repeated), created: false };
      // The same id again is a create retried: the task it made, not a second one.
      const retried = live(newTask.taskId);
      if (retried !== undefined) return { task: structuredClone(retried), created: false };
      const createdAt = new Date(time).toISOString();
      const task: StoredTask = {
        taskId: newTask.taskId,
        principal: newTask.principal,
        tool: newTask.tool,
        args: structuredClone(newTask.args),
        capabilities: structuredClone(newTask.capabilities),
        status: 'working',
        createdAt,
        lastUpdatedAt: createdAt,
        ttlMs: newTask.ttlMs,
        pollIntervalMs: newTask.pollIntervalMs,
        inputRequests: Object.create(null),
        inputResponses: Object.assign(Object.create(null), structuredClone(newTask.inputResponses ?? {})),
        issuedKeys: Object.keys(newTask.inputResponses ?? {}),
        rerunnable: newTask.rerunnable,
        attempts: 0,
      };
      addTask(task, newTask.ttlMs === null ? Number.POSITIVE_INFINITY : time + newTask.ttlMs);
      if (repeat !== undefined) addRepeat(repeat.key, task.taskId, time + repeat.windowMs);
      return { task: structuredClone(task), created: true };
    },

    async get(taskId) {
      const task = live(taskId);
      return task === undefined ? undefined : structuredClone(task);
    },

    async claim(taskId, runner, claimOptions) {
      const task = live(taskId);
      if (task === undefined || isTerminal(task.status)) return undefined;
      if (task.runner !== undefined && task.runner !== runner && !claimOptions?.takeOver) return undefined;
      task.status = 'working';
      task.runner = runner;
      task.attempts += 1;
      task.inputRequests = Object.create(null);
      transitioned(task);
      return structuredClone(task);
    },

    async ask(taskId, runner, requests) {
      const task = live(taskId);
      if (task === undefined || isTerminal(task.status) || task.runner !== runner) return false;
      const keys = Object.keys(requests);
      if (keys.some((key) => task.issuedKeys.includes(key))) return false;
      if (keys.length === 0) return true;
      for (const key of keys) {
        task.issuedKeys.push(key);
        task.inputRequests[key] = structuredClone(requests[key]);
      }
      task.status = 'input_required';
      transitioned(task);
      return true;
    },

    async answer(taskId, responses) {
      const task = live(taskId);
      if (task === undefined) return undefined;
      const kept = Object.keys(responses).filter((key) => Object.hasOwn(task.inputRequests, key));
      if (kept.length === 0) return structuredClone(task);
      for (const key of kept) {
        delete task.inputRequests[key];
        task.inputResponses[key] = structuredClone(responses[key]);
      }
      if (Object.keys(task.inputRequests).length === 0) task.status = 'working';
      transitioned(task);
      return structuredClone(task);
    },

    async settle(taskId, taskEnd: TaskEnd, runner) {
      const task = live(taskId);
      if (task === undefined || isTerminal(task.status)) return false;
      if (runner !== undefined && task.runner !== runner) return false;
      end(task, taskEnd.status, taskEnd.statusMessage);
      if (taskEnd.status === 'completed') task.result = structuredClone(taskEnd.result);
      else task.error = structuredClone(taskEnd.error);
      transitioned(task);
      return true;
    },

    async cancel(taskId, statusMessage) {
      const task = live(taskId);
      if (task === undefined) return undefined;
      if (!isTerminal(task.status)) {
        end(task, 'cancelled', statusMessage);
        transitioned(task);
      }
      return structuredClone(task);
    },

    async watch(taskIds, listener) {
      const added = taskIds.map((taskId) => {
        const watcher = { listener };
        const taskWatchers = watchers.get(taskId) ?? new Set();
        watchers.set(taskId, taskWatchers.add(watcher));
        return { taskId, watcher };
      });
      return async () => {
        for (const { taskId, watcher } of added) {
          const taskWatchers = watchers.get(taskId);
          taskWatchers?.delete(watcher);
          if (taskWatchers?.size === 0) watchers.delete(taskId);
        }
      };
    },
  };
}

/**
 * What expires when, earliest first (a binary heap): a sweep touches only what has expired. Each
 * entry forgets its item, unless the item was replaced since.
 */
function expiryQueue() {
  const heap: { readonly at: number; readonly forget: () => void }[] = [];
  const before = (a: number, b: number): boolean => (heap[a]?.at ?? 0) < (heap[b]?.at ?? 0);
  const swap = (a: number, b: number): void => {
    [heap[a], heap[b]] = [heap[b] as (typeof heap)[number], heap[a] as (typeof heap)[number]];
  };
  return {
    add(at: number, forget: () => void): void {
      heap.push({ at, forget });
      for (let index = heap.length - 1; index > 0; ) {
        const parent = (index - 1) >> 1;
        if (!before(index, parent)) break;
        swap(index, parent);
        index = parent;
      }
    },
    sweep(time: number): void {
      while (heap.length > 0 && (heap[0]?.at ?? 0) <= time) {
        heap[0]?.forget();
        const last = heap.pop() as (typeof heap)[number];
        if (heap.length === 0) break;
        heap[0] = last;
        for (let index = 0; ; ) {
          const left = 2 * index + 1;
          const smallest =
            left + 1 < heap.length && before(left + 1, left) ? left + 1 : left < heap.length ? left : index;
          if (smallest === index || !before(smallest, index)) break;
          swap(index, smallest);
          index = smallest;
        }
      }
    },
  };
}
