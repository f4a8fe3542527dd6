import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import {
  isTerminal,
  type NewTask,
  type TaskEnd,
  type TaskRecord,
  type TaskStatus,
  type TaskStore,
} from '../../src/tasks/store.js';
import { propertyRuns } from './property-runs.js';

/**
 * The contract of a `TaskStore`, as cases any store must pass: the state machine of MCP tasks
 * (working → input_required ↔ working → completed | cancelled | failed, never out of a terminal
 * state), input keys never asked twice, runs that lose a task unable to move it, the TTL.
 */

interface OpenedTaskStore {
  readonly store: TaskStore;
  /** Closes what opening the store made (clients, connections). */
  close(): Promise<void>;
}

export interface TaskStoreFactory {
  open(): Promise<OpenedTaskStore>;
  /** Whether the stores it opens share their tasks (Redis: one server), so cases across stores run. */
  readonly shared: boolean;
}

/** JSON a store must give back as it came: numbers of 17 digits, empty arrays, `__proto__` keys. */
const ARGS: Readonly<Record<string, unknown>> = JSON.parse(
  '{"query":"notes","limit":0.30000000000000004,"big":12345678901234568,"empty":[],' +
    '"nested":{"__proto__":{"polluted":true},"list":[[],{}],"nothing":null},"text":"é ☃ 😀 \\u0000 \\"q\\""}',
);

const RESULT = { content: [{ type: 'text', text: 'done' }] };
const ERROR = { code: -32603, message: 'the run stopped', data: { attempt: 1 } };
const COMPLETED: TaskEnd = { status: 'completed', result: RESULT };
const FAILED: TaskEnd = { status: 'failed', error: ERROR, statusMessage: 'the run stopped' };
const QUESTION = { method: 'elicitation/create', params: { message: 'Which one?', requestedSchema: {} } };

export function newTask(overrides: Partial<NewTask> = {}): NewTask {
  return {
    taskId: crypto.randomUUID(),
    principal: 'alice',
    tool: 'search',
    args: ARGS,
    capabilities: { elicitation: { form: {} } },
    ttlMs: 60_000,
    pollIntervalMs: 500,
    rerunnable: false,
    ...overrides,
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function describeTaskStore(name: string, factory: TaskStoreFactory): void {
  describe(name, () => {
    const opened: OpenedTaskStore[] = [];
    const open = async (): Promise<TaskStore> => {
      const store = await factory.open();
      opened.push(store);
      return store.store;
    };
    let store: TaskStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await Promise.all(opened.map((each) => each.close()));
    });
    const acrossStores = test.runIf(factory.shared);

    /** A created task, claimed by `runner` when given. */
    const created = async (runner?: string, overrides: Partial<NewTask> = {}): Promise<string> => {
      const { task } = await store.create(newTask(overrides));
      if (runner !== undefined) expect(await store.claim(task.taskId, runner)).toBeDefined();
      return task.taskId;
    };
    const found = async (taskId: string): Promise<TaskRecord> => {
      const task = await store.get(taskId);
      if (task === undefined) throw new Error(`no task ${taskId}`);
      return task;
    };

    describe('create and get', () => {
      test('get returns the record create made, its JSON exactly as it came', async () => {
        const input = newTask();
        const { task, created: made } = await store.create(input);
        expect(made).toBe(true);
        expect(task).toEqual({
          taskId: input.taskId,
          principal: 'alice',
          tool: 'search',
          args: ARGS,
          capabilities: { elicitation: { form: {} } },
          status: 'working',
          createdAt: task.createdAt,
          lastUpdatedAt: task.createdAt,
          ttlMs: 60_000,
          pollIntervalMs: 500,
          inputRequests: {},
          inputResponses: {},
          issuedKeys: [],
          rerunnable: false,
          attempts: 0,
        });
        expect(new Date(task.createdAt).toISOString()).toBe(task.createdAt);
        expect(Math.abs(Date.parse(task.createdAt) - Date.now())).toBeLessThan(5_000);
        const got = await found(input.taskId);
        expect(got).toEqual(task);
        expect(JSON.stringify(got.args)).toBe(JSON.stringify(ARGS));
        expect(Object.hasOwn(got.args.nested as object, '__proto__')).toBe(true);
      });

      test('without a TTL, ttlMs is null; rerunnable is kept', async () => {
        const { task } = await store.create(newTask({ ttlMs: null, rerunnable: true }));
        expect(await found(task.taskId)).toMatchObject({ ttlMs: null, rerunnable: true });
      });

      test('answers given before the task was made are kept, and their keys count as asked', async () => {
        const answer = { action: 'accept', content: { name: 'Alice' } };
        const { task } = await store.create(newTask({ inputResponses: { user_name: answer } }));
        expect(await found(task.taskId)).toMatchObject({
          status: 'working',
          inputResponses: { user_name: answer },
          issuedKeys: ['user_name'],
        });
        const runner = crypto.randomUUID();
        await store.claim(task.taskId, runner);
        expect(await store.ask(task.taskId, runner, { user_name: QUESTION })).toBe(false);
        expect(await store.ask(task.taskId, runner, { 'input-1': QUESTION })).toBe(true);
        expect(await found(task.taskId)).toMatchObject({ issuedKeys: ['user_name', 'input-1'] });
      });

      test('creating an id again (a create retried) returns the task first made', async () => {
        const input = newTask();
        const first = await store.create(input);
        expect(await store.create({ ...input, tool: 'other' })).toEqual({ task: first.task, created: false });
      });

      test('a task never created is not found, and nothing moves it', async () => {
        const taskId = crypto.randomUUID();
        expect(await store.get(taskId)).toBeUndefined();
        expect(await store.claim(taskId, 'run-1', { takeOver: true })).toBeUndefined();
        expect(await store.ask(taskId, 'run-1', { a: QUESTION })).toBe(false);
        expect(await store.answer(taskId, { a: 1 })).toBeUndefined();
        expect(await store.settle(taskId, COMPLETED)).toBe(false);
        expect(await store.cancel(taskId)).toBeUndefined();
        expect(await store.get(taskId)).toBeUndefined();
      });

      acrossStores('create is durable: another store finds the task as soon as create resolves', async () => {
        const other = await open();
        const { task } = await store.create(newTask());
        expect(await other.get(task.taskId)).toEqual(task);
      });
    });

    describe('repeat keys', () => {
      test('within the window, the task the first call made; after it, a new one', async () => {
        const key = crypto.randomUUID();
        const first = await store.create(newTask({ repeat: { key, windowMs: 300 } }));
        const repeatedInput = newTask({ repeat: { key, windowMs: 300 } });
        expect(await store.create(repeatedInput)).toEqual({ task: first.task, created: false });
        expect(await store.get(repeatedInput.taskId)).toBeUndefined();
        const otherKey = await store.create(newTask({ repeat: { key: crypto.randomUUID(), windowMs: 300 } }));
        expect(otherKey.created).toBe(true);
        await sleep(400);
        const afterWindow = await store.create(newTask({ repeat: { key, windowMs: 300 } }));
        expect(afterWindow.created).toBe(true);
        expect(afterWindow.task.taskId).not.toBe(first.task.taskId);
      });

      test('a repeat returns the task as it is now, settled too', async () => {
        const key = crypto.randomUUID();
        const { task } = await store.create(newTask({ repeat: { key, windowMs: 60_000 } }));
        await store.claim(task.taskId, 'run-1');
        await store.settle(task.taskId, COMPLETED, 'run-1');
        const repeated = await store.create(newTask({ repeat: { key, windowMs: 60_000 } }));
        expect(repeated).toEqual({ task: await found(task.taskId), created: false });
        expect(repeated.task.status).toBe('completed');
      });

      test('a repeat key whose task is past its TTL makes a new task, which the next repeat finds', async () => {
        const key = crypto.randomUUID();
        const first = await store.create(newTask({ ttlMs: 150, repeat: { key, windowMs: 60_000 } }));
        await sleep(250);
        const second = await store.create(newTask({ repeat: { key, windowMs: 60_000 } }));
        expect(second.created).toBe(true);
        expect(second.task.taskId).not.toBe(first.task.taskId);
        expect(await store.create(newTask({ repeat: { key, windowMs: 60_000 } }))).toEqual({
          task: second.task,
          created: false,
        });
      });

      test('repeated calls racing (on every store) make one task, and all get it', async () => {
        const stores = factory.shared ? [store, await open(), await open()] : [store];
        const key = crypto.randomUUID();
        const inputs = Array.from({ length: 9 }, () => newTask({ repeat: { key, windowMs: 60_000 } }));
        const results = await Promise.all(
          inputs.map((input, index) => (stores[index % stores.length] as TaskStore).create(input)),
        );
        const made = results.filter((result) => result.created);
        expect(made).toHaveLength(1);
        const winner = made[0]?.task.taskId;
        expect(results.map((result) => result.task.taskId)).toEqual(inputs.map(() => winner));
        for (const input of inputs)
          if (input.taskId !== winner) expect(await store.get(input.taskId)).toBeUndefined();
      });
    });

    describe('claim', () => {
      test('gives the task to a run: working, the runner, attempts + 1', async () => {
        const { task } = await store.create(newTask());
        const claimed = await store.claim(task.taskId, 'run-1');
        expect(claimed).toMatchObject({ status: 'working', runner: 'run-1', attempts: 1 });
        expect(Date.parse(claimed?.lastUpdatedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(task.createdAt));
        expect(await store.get(task.taskId)).toEqual(claimed);
      });

      test('is refused for a task another run holds, unless taking it over', async () => {
        const taskId = await created('run-1');
        expect(await store.claim(taskId, 'run-2')).toBeUndefined();
        expect(await found(taskId)).toMatchObject({ runner: 'run-1', attempts: 1 });
        expect(await store.claim(taskId, 'run-2', { takeOver: true })).toMatchObject({
          runner: 'run-2',
          attempts: 2,
        });
        expect(await store.claim(taskId, 'run-1')).toBeUndefined();
      });

      test.each([
        ['completed', (taskId: string) => store.settle(taskId, COMPLETED, 'run-1')],
        ['failed', (taskId: string) => store.settle(taskId, FAILED)],
        ['cancelled', (taskId: string) => store.cancel(taskId)],
      ])('is refused for a %s task, taking over or not', async (status, end) => {
        const taskId = await created('run-1');
        await end(taskId);
        expect(await store.claim(taskId, 'run-1')).toBeUndefined();
        expect(await store.claim(taskId, 'run-2', { takeOver: true })).toBeUndefined();
        expect(await found(taskId)).toMatchObject({ status, runner: 'run-1', attempts: 1 });
      });

      test('drops the waiting questions and keeps the answered ones', async () => {
        const taskId = await created('run-1');
        await store.ask(taskId, 'run-1', { a: QUESTION, b: QUESTION });
        await store.answer(taskId, { a: { action: 'accept' } });
        expect(await store.claim(taskId, 'run-2', { takeOver: true })).toMatchObject({
          status: 'working',
          inputRequests: {},
          inputResponses: { a: { action: 'accept' } },
          issuedKeys: ['a', 'b'],
          attempts: 2,
        });
      });
    });

    describe('ask', () => {
      test('input_required, the questions waiting in the order asked; more may be asked while waiting', async () => {
        const taskId = await created('run-1');
        expect(await store.ask(taskId, 'run-1', { first: QUESTION, second: { method: 'sampling' } })).toBe(
          true,
        );
        expect(await found(taskId)).toMatchObject({
          status: 'input_required',
          inputRequests: { first: QUESTION, second: { method: 'sampling' } },
          issuedKeys: ['first', 'second'],
        });
        expect(await store.ask(taskId, 'run-1', { third: QUESTION })).toBe(true);
        const task = await found(taskId);
        expect(Object.keys(task.inputRequests)).toEqual(['first', 'second', 'third']);
        expect(task.issuedKeys).toEqual(['first', 'second', 'third']);
      });

      test('refuses a key asked before, waiting or answered, and adds nothing of a refused batch', async () => {
        const taskId = await created('run-1');
        expect(await store.ask(taskId, 'run-1', { a: QUESTION })).toBe(true);
        expect(await store.ask(taskId, 'run-1', { a: QUESTION })).toBe(false);
        await store.answer(taskId, { a: 'yes' });
        expect(await store.ask(taskId, 'run-1', { a: QUESTION })).toBe(false);
        expect(await store.ask(taskId, 'run-1', { b: QUESTION, a: QUESTION })).toBe(false);
        expect(await found(taskId)).toMatchObject({
          status: 'working',
          issuedKeys: ['a'],
          inputRequests: {},
          inputResponses: { a: 'yes' },
        });
      });

      test('is refused for a run that does not hold the task, and for an unclaimed or terminal task', async () => {
        const unclaimed = await created();
        expect(await store.ask(unclaimed, 'run-1', { a: QUESTION })).toBe(false);
        const taskId = await created('run-1');
        expect(await store.ask(taskId, 'run-2', { a: QUESTION })).toBe(false);
        await store.claim(taskId, 'run-2', { takeOver: true });
        expect(await store.ask(taskId, 'run-1', { a: QUESTION })).toBe(false);
        await store.settle(taskId, COMPLETED, 'run-2');
        expect(await store.ask(taskId, 'run-2', { a: QUESTION })).toBe(false);
        expect((await found(taskId)).issuedKeys).toEqual([]);
      });
    });

    describe('answer', () => {
      test('keeps answers to waiting questions only; partial answers stay input_required', async () => {
        const taskId = await created('run-1');
        await store.ask(taskId, 'run-1', { a: QUESTION, b: QUESTION });
        expect(await store.answer(taskId, { a: 1, unasked: 2 })).toMatchObject({
          status: 'input_required',
          inputRequests: { b: QUESTION },
          inputResponses: { a: 1 },
        });
        const all = await store.answer(taskId, { a: 'again', b: { nested: [] } });
        expect(all).toMatchObject({
          status: 'working',
          inputRequests: {},
          inputResponses: { a: 1, b: { nested: [] } },
        });
        expect(await found(taskId)).toEqual(all);
      });

      test('an answer to no waiting question changes nothing', async () => {
        const taskId = await created('run-1');
        await store.ask(taskId, 'run-1', { a: QUESTION });
        const before = await found(taskId);
        await sleep(5);
        expect(await store.answer(taskId, { b: 1 })).toEqual(before);
        expect(await found(taskId)).toEqual(before);
      });

      test('an answer to a terminal task changes nothing', async () => {
        const taskId = await created('run-1');
        await store.ask(taskId, 'run-1', { a: QUESTION });
        await store.cancel(taskId);
        expect(await store.answer(taskId, { a: 1 })).toMatchObject({
          status: 'cancelled',
          inputResponses: {},
        });
      });
    });

    describe('settle', () => {
      test('completes with the result, once', async () => {
        const taskId = await created('run-1');
        expect(await store.settle(taskId, { ...COMPLETED, statusMessage: 'all done' }, 'run-1')).toBe(true);
        expect(await store.settle(taskId, FAILED, 'run-1')).toBe(false);
        expect(await store.settle(taskId, FAILED)).toBe(false);
        const task = await found(taskId);
        expect(task).toMatchObject({
          status: 'completed',
          result: RESULT,
          statusMessage: 'all done',
        });
        expect(task.error).toBeUndefined();
      });

      test('fails with the error and its message', async () => {
        const taskId = await created('run-1');
        expect(await store.settle(taskId, FAILED, 'run-1')).toBe(true);
        const task = await found(taskId);
        expect(task).toMatchObject({
          status: 'failed',
          error: ERROR,
          statusMessage: 'the run stopped',
        });
        expect(task.result).toBeUndefined();
      });

      test('is refused for a run that lost the task (taken over)', async () => {
        const taskId = await created('run-1');
        await store.claim(taskId, 'run-2', { takeOver: true });
        expect(await store.settle(taskId, COMPLETED, 'run-1')).toBe(false);
        expect((await found(taskId)).status).toBe('working');
        expect(await store.settle(taskId, COMPLETED, 'run-2')).toBe(true);
      });

      test('without a runner (the reaper) ends the task, waiting questions dropped', async () => {
        const taskId = await created('run-1');
        await store.ask(taskId, 'run-1', { a: QUESTION });
        expect(await store.settle(taskId, FAILED)).toBe(true);
        expect(await found(taskId)).toMatchObject({ status: 'failed', inputRequests: {}, issuedKeys: ['a'] });
      });
    });

    describe('cancel', () => {
      test('from working: cancelled, with the message; nothing moves it after', async () => {
        const taskId = await created('run-1');
        expect(await store.cancel(taskId, 'the user stopped it')).toMatchObject({
          status: 'cancelled',
          statusMessage: 'the user stopped it',
        });
        expect(await store.settle(taskId, COMPLETED, 'run-1')).toBe(false);
        expect(await store.claim(taskId, 'run-1', { takeOver: true })).toBeUndefined();
        expect((await found(taskId)).status).toBe('cancelled');
      });

      test('from input_required: cancelled, the waiting questions dropped', async () => {
        const taskId = await created('run-1');
        await store.ask(taskId, 'run-1', { a: QUESTION });
        const task = await store.cancel(taskId);
        expect(task).toMatchObject({ status: 'cancelled', inputRequests: {}, issuedKeys: ['a'] });
        expect(task?.statusMessage).toBeUndefined();
      });

      test('leaves a completed task as it is', async () => {
        const taskId = await created('run-1');
        await store.settle(taskId, COMPLETED, 'run-1');
        const completed = await found(taskId);
        expect(await store.cancel(taskId, 'too late')).toEqual(completed);
        expect(await found(taskId)).toEqual(completed);
      });
    });

    test('a task past its TTL is gone, whatever moved it meanwhile', async () => {
      const taskId = await created('run-1', { ttlMs: 300 });
      await store.ask(taskId, 'run-1', { a: QUESTION });
      expect(await store.get(taskId)).toBeDefined();
      await sleep(450);
      expect(await store.get(taskId)).toBeUndefined();
      expect(await store.claim(taskId, 'run-1', { takeOver: true })).toBeUndefined();
      expect(await store.ask(taskId, 'run-1', { b: QUESTION })).toBe(false);
      expect(await store.answer(taskId, { a: 1 })).toBeUndefined();
      expect(await store.settle(taskId, COMPLETED)).toBe(false);
      expect(await store.cancel(taskId)).toBeUndefined();
    });

    describe('watch', () => {
      test('sees every transition of the watched tasks in order, and nothing after unwatch', async () => {
        const taskId = await created();
        const otherId = await created();
        const seen: TaskRecord[] = [];
        const unwatch = await store.watch([taskId, otherId], (task) => seen.push(task));
        await store.claim(taskId, 'run-1');
        await store.ask(taskId, 'run-1', { a: QUESTION });
        await store.answer(taskId, { unasked: 1 });
        await store.answer(taskId, { a: 1 });
        await store.settle(taskId, COMPLETED, 'run-1');
        await store.cancel(otherId);
        await vi.waitFor(() => expect(seen).toHaveLength(5));
        expect(seen.map((task) => [task.taskId, task.status])).toEqual([
          [taskId, 'working'],
          [taskId, 'input_required'],
          [taskId, 'working'],
          [taskId, 'completed'],
          [otherId, 'cancelled'],
        ]);
        expect(seen[1]?.inputRequests).toEqual({ a: QUESTION });
        expect(seen[3]).toEqual(await found(taskId));
        await unwatch();
        const laterId = await created();
        const stillWatching: TaskRecord[] = [];
        const unwatchLater = await store.watch([laterId], (task) => stillWatching.push(task));
        // Published before the watched one's: had unwatch not worked, it would arrive first.
        await store.claim(otherId, 'run-1');
        await store.claim(laterId, 'run-1');
        await vi.waitFor(() => expect(stillWatching).toHaveLength(1));
        await unwatchLater();
        expect(seen).toHaveLength(5);
      });

      acrossStores('sees the transitions another store makes', async () => {
        const other = await open();
        const taskId = await created();
        const seen: TaskStatus[] = [];
        const unwatch = await other.watch([taskId], (task) => seen.push(task.status));
        await store.claim(taskId, 'run-1');
        await store.ask(taskId, 'run-1', { a: QUESTION });
        await store.answer(taskId, { a: 1 });
        await store.settle(taskId, FAILED, 'run-1');
        await vi.waitFor(() => expect(seen).toHaveLength(4));
        expect(seen).toEqual(['working', 'input_required', 'working', 'failed']);
        await unwatch();
      });
    });

    test('records handed out, and what was handed in, are copies', async () => {
      const input = newTask({ args: { list: [1] } });
      const { task } = await store.create(input);
      (input.args.list as number[]).push(2);
      (task as { status: string }).status = 'failed';
      (task.args.list as number[]).push(3);
      expect(await found(task.taskId)).toMatchObject({ status: 'working', args: { list: [1] } });
      const seen: TaskRecord[] = [];
      const unwatch = await store.watch([task.taskId], (record) => {
        (record as { status: string }).status = 'failed';
        (record.issuedKeys as string[]).push('x');
        seen.push(record);
      });
      await store.claim(task.taskId, 'run-1');
      const question = { method: 'elicitation/create', params: { message: 'Which?' } };
      await store.ask(task.taskId, 'run-1', { a: question });
      question.params.message = 'changed';
      await vi.waitFor(() => expect(seen).toHaveLength(2));
      await unwatch();
      const got = await found(task.taskId);
      expect(got).toMatchObject({ status: 'input_required', issuedKeys: ['a'] });
      expect(got.inputRequests).toEqual({
        a: { method: 'elicitation/create', params: { message: 'Which?' } },
      });
      (got.inputRequests as Record<string, unknown>).b = QUESTION;
      expect(Object.keys((await found(task.taskId)).inputRequests)).toEqual(['a']);
    });

    test('input keys such as __proto__ and constructor are keys like any other', async () => {
      const taskId = await created('run-1');
      const requests = JSON.parse(
        '{"__proto__":{"method":"elicitation/create"},"constructor":{"method":"x"}}',
      );
      expect(await store.ask(taskId, 'run-1', requests)).toBe(true);
      const asked = await found(taskId);
      expect(Object.hasOwn(asked.inputRequests, '__proto__')).toBe(true);
      expect(Object.getPrototypeOf(asked.inputRequests)).not.toEqual({ method: 'elicitation/create' });
      expect(asked.issuedKeys).toEqual(['__proto__', 'constructor']);
      const answered = await store.answer(taskId, JSON.parse('{"__proto__":"yes"}'));
      expect(Object.hasOwn(answered?.inputResponses ?? {}, '__proto__')).toBe(true);
      expect(Object.getOwnPropertyDescriptor(answered?.inputResponses, '__proto__')?.value).toBe('yes');
      expect(answered).toMatchObject({ status: 'input_required' });
      expect(Object.keys(answered?.inputRequests ?? {})).toEqual(['constructor']);
      expect(({} as Record<string, unknown>).method).toBeUndefined();
    });

    test('random transitions never leave a terminal state and never reuse a key (against a model)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 20 }), async (operations) => {
          const taskId = await created();
          const model: Model = { status: 'working', attempts: 0, waiting: [], answered: [], issued: [] };
          for (const step of operations) {
            const before = model.status;
            expect(await perform(store, taskId, step)).toEqual(expectedOutcome(model, step));
            const task = await found(taskId);
            expect({
              status: task.status,
              runner: task.runner,
              attempts: task.attempts,
              issued: task.issuedKeys,
              waiting: Object.keys(task.inputRequests).sort(),
              answered: Object.keys(task.inputResponses).sort(),
            }).toEqual({
              ...model,
              waiting: [...model.waiting].sort(),
              answered: [...model.answered].sort(),
            });
            if (isTerminal(before)) expect(task.status).toBe(before);
            expect(new Set(task.issuedKeys).size).toBe(task.issuedKeys.length);
          }
        }),
        { numRuns: propertyRuns(100) },
      );
    });
  });
}

const RUNNERS = ['run-1', 'run-2'] as const;
const KEYS = ['a', 'b', 'c', '__proto__', 'constructor'] as const;

type Operation =
  | { readonly kind: 'claim'; readonly runner: string; readonly takeOver: boolean }
  | { readonly kind: 'ask'; readonly runner: string; readonly keys: readonly string[] }
  | { readonly kind: 'answer'; readonly keys: readonly string[] }
  | { readonly kind: 'settle'; readonly runner: string | undefined; readonly end: TaskEnd }
  | { readonly kind: 'cancel' };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('claim' as const),
      runner: fc.constantFrom(...RUNNERS),
      takeOver: fc.boolean(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('ask' as const),
      runner: fc.constantFrom(...RUNNERS),
      keys: fc.uniqueArray(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('answer' as const),
      keys: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      runner: fc.option(fc.constantFrom(...RUNNERS), { nil: undefined }),
      end: fc.constantFrom(COMPLETED, FAILED),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'cancel' as const }) },
);

/** The reference model: what a task's state is after each operation. */
interface Model {
  status: TaskStatus;
  runner?: string;
  attempts: number;
  waiting: string[];
  answered: string[];
  issued: string[];
}

const byKey = (keys: readonly string[], value: (key: string) => unknown): Record<string, unknown> =>
  Object.fromEntries(keys.map((key) => [key, value(key)]));

/** Runs the operation on the store; what it returned, reduced to accepted or not. */
async function perform(store: TaskStore, taskId: string, step: Operation): Promise<boolean> {
  switch (step.kind) {
    case 'claim':
      return (await store.claim(taskId, step.runner, { takeOver: step.takeOver })) !== undefined;
    case 'ask':
      return store.ask(
        taskId,
        step.runner,
        byKey(step.keys, () => QUESTION),
      );
    case 'answer':
      return (
        (await store.answer(
          taskId,
          byKey(step.keys, (key) => ({ action: 'accept', key })),
        )) !== undefined
      );
    case 'settle':
      return store.settle(taskId, step.end, step.runner);
    case 'cancel':
      return (await store.cancel(taskId)) !== undefined;
  }
}

/** Applies the operation to the model; whether the store should accept it. */
function expectedOutcome(model: Model, step: Operation): boolean {
  const terminal = isTerminal(model.status);
  const end = (status: TaskStatus): void => {
    model.status = status;
    model.waiting = [];
  };
  switch (step.kind) {
    case 'claim': {
      const accepted =
        !terminal && (model.runner === undefined || model.runner === step.runner || step.takeOver);
      if (accepted) {
        model.status = 'working';
        model.runner = step.runner;
        model.attempts += 1;
        model.waiting = [];
      }
      return accepted;
    }
    case 'ask': {
      const accepted =
        !terminal && model.runner === step.runner && step.keys.every((key) => !model.issued.includes(key));
      if (accepted) {
        model.status = 'input_required';
        model.issued.push(...step.keys);
        model.waiting.push(...step.keys);
      }
      return accepted;
    }
    case 'answer': {
      const kept = step.keys.filter((key) => model.waiting.includes(key));
      if (kept.length > 0) {
        model.waiting = model.waiting.filter((key) => !kept.includes(key));
        model.answered.push(...kept);
        if (model.waiting.length === 0) model.status = 'working';
      }
      return true;
    }
    case 'settle': {
      const accepted = !terminal && (step.runner === undefined || model.runner === step.runner);
      if (accepted) end(step.end.status);
      return accepted;
    }
    case 'cancel':
      if (!terminal) end('cancelled');
      return true;
  }
}
