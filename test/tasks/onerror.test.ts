import { afterEach, beforeEach, expect, type MockInstance, test, vi } from 'vitest';
import { localExecutor } from '../../src/tasks/local-executor.js';
import { memoryTaskStore } from '../../src/tasks/memory-store.js';
import {
  fromIoredis,
  fromNodeRedis,
  type IoredisClient,
  type NodeRedisClient,
  type RedisConnection,
} from '../../src/tasks/redis/connection.js';
import { redisTaskStore } from '../../src/tasks/redis/store.js';
import { redisStreamsExecutor } from '../../src/tasks/redis/streams-executor.js';
import type { NewTask } from '../../src/tasks/store.js';

/**
 * What goes wrong where nothing awaits it (a listener that throws, a run that fails in the
 * background, a connection that drops) reaches the `onerror` each store, executor and connection
 * is given, as an Error that says what failed with what was thrown as its `cause`; nothing reaches
 * the console. Without `onerror`, it is written to stderr, once per message (decision 0044). Fakes stand in for Redis: these are the
 * paths a healthy server never takes.
 */

const NEW_TASK: NewTask = {
  taskId: 'task-1',
  principal: 'alice',
  tool: 'search',
  args: {},
  capabilities: {},
  ttlMs: null,
  pollIntervalMs: 100,
  rerunnable: false,
};

let consoleError: MockInstance;
let consoleWarn: MockInstance;
let stderrWrite: MockInstance;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  stderrWrite = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** An `onerror` that keeps what it is given, and resolves `next` on each. */
function collector() {
  const errors: Error[] = [];
  let heard: (() => void) | undefined;
  return {
    errors,
    onerror: (error: Error): void => {
      errors.push(error);
      heard?.();
    },
    next: (): Promise<void> => new Promise((resolve) => (heard = resolve)),
  };
}

function expectReported(errors: readonly Error[], message: string, cause?: unknown): void {
  expect(errors.map((error) => error.message)).toContain(message);
  const error = errors.find((candidate) => candidate.message === message);
  expect(error).toBeInstanceOf(Error);
  if (cause !== undefined) expect(error?.cause).toBe(cause);
  expect(consoleError).not.toHaveBeenCalled();
  expect(consoleWarn).not.toHaveBeenCalled();
  expect(stderrWrite).not.toHaveBeenCalled();
}

/** A connection whose commands answer from `reply`, and whose channel messages are sent by `publish`. */
function fakeConnection(reply: (args: readonly (string | number)[]) => Promise<unknown>) {
  const channels = new Map<string, (message: string) => void>();
  const connection: RedisConnection = {
    command: reply,
    blocking: reply,
    subscribe: async (channel, onMessage) => {
      channels.set(channel, onMessage);
      return async () => {
        channels.delete(channel);
      };
    },
    close: async () => {},
  };
  const publish = (message: string): void => {
    for (const onMessage of channels.values()) onMessage(message);
  };
  return { connection, publish };
}

test('memoryTaskStore: a listener that throws reaches onerror, and the other listeners still hear', async () => {
  const { errors, onerror, next } = collector();
  const store = memoryTaskStore({ onerror });
  await store.create(NEW_TASK);
  const thrown = new Error('listener broke');
  const heard: string[] = [];
  await store.watch(['task-1'], () => {
    throw thrown;
  });
  await store.watch(['task-1'], (task) => heard.push(task.status));
  const reported = next();
  await store.cancel('task-1');
  await reported;
  expectReported(errors, '[toolprep] a listener of the task task-1 threw: listener broke', thrown);
  expect(heard).toEqual(['cancelled']);
});

test('memoryTaskStore without onerror: stderr, with the [toolprep] prefix, once per message', async () => {
  for (const store of [memoryTaskStore(), memoryTaskStore()]) {
    await store.create(NEW_TASK);
    await store.watch(['task-1'], () => {
      throw 'not an Error';
    });
    await store.cancel('task-1');
  }
  await vi.waitFor(() => expect(stderrWrite).toHaveBeenCalled());
  expect(stderrWrite.mock.calls).toEqual([
    ['[toolprep] a listener of the task task-1 threw: not an Error\n'],
  ]);
  expect(consoleError).not.toHaveBeenCalled();
});

test('localExecutor: a run that rejects reaches onerror', async () => {
  const { errors, onerror, next } = collector();
  const executor = localExecutor({ onerror });
  const thrown = new Error('store down');
  await executor.start(async () => {
    throw thrown;
  });
  const reported = next();
  await executor.submit('task-1');
  await reported;
  expectReported(errors, '[toolprep] the task task-1 failed to run: store down', thrown);
});

test('redisTaskStore: a listener that throws, and a message that is not a task, reach onerror', async () => {
  const { errors, onerror } = collector();
  const { connection, publish } = fakeConnection(async () => null);
  // Its persistence is not what is tested: a fake connection has none to read.
  const store = redisTaskStore(connection, { onerror, persistence: 'ignore' });
  const thrown = new Error('listener broke');
  await store.watch(['task-1'], () => {
    throw thrown;
  });
  const hash = { ...NEW_TASK, args: '{}', capabilities: '{}', status: 'working', createdAt: 0 };
  publish(JSON.stringify(Object.entries(hash).flat()));
  publish('{not json');
  expectReported(errors, '[toolprep] a listener of the task task-1 threw: listener broke', thrown);
  expect(errors[1]?.message).toMatch(
    /^\[toolprep\] a message on a task channel is not a task \(\{not json\): /,
  );
  expect(errors[1]?.cause).toBeInstanceOf(SyntaxError);
});

test('redisStreamsExecutor: a failed read, a run that throws and a failed acknowledgement reach onerror', async () => {
  const { errors, onerror } = collector();
  const readFailure = new Error('connection lost');
  const runFailure = new Error('handler store down');
  const ackFailure = new Error('XACK refused');
  let reads = 0;
  const { connection } = fakeConnection(async (args) => {
    if (args[0] === 'XREADGROUP') {
      reads += 1;
      if (reads === 1) throw readFailure;
      if (reads === 2)
        return [
          [
            'toolprep:tasks',
            [
              ['1-0', ['task', 'task-1']],
              ['2-0', ['task', 'task-2']],
            ],
          ],
        ];
      await new Promise((resolve) => setTimeout(resolve, 5));
      return null;
    }
    if (args[0] === 'XACK') throw ackFailure;
    return 'OK';
  });
  const executor = redisStreamsExecutor(connection, { consumer: 'a', blockMs: 5, onerror });
  // task-1's run throws (its entry is left pending), task-2's ends (its acknowledgement fails).
  await executor.start(async (taskId) => {
    if (taskId === 'task-1') throw runFailure;
  });
  await vi.waitFor(() => expect(errors).toHaveLength(3));
  await executor.close();
  expectReported(errors, '[toolprep] reading the task stream failed: connection lost', readFailure);
  expectReported(
    errors,
    '[toolprep] the run of the task task-1 threw (its stream entry is left for the reaper): handler store down',
    runFailure,
  );
  expectReported(errors, '[toolprep] could not acknowledge the stream entry 2-0: XACK refused', ackFailure);
});

test.each([
  ['fromIoredis', (client: FakeClient, onerror: (error: Error) => void) => fromIoredis(client, { onerror })],
  [
    'fromNodeRedis',
    (client: FakeClient, onerror: (error: Error) => void) => fromNodeRedis(client, { onerror }),
  ],
])('%s: an error on a connection it made reaches onerror', async (_name, adapt) => {
  const { errors, onerror } = collector();
  const client = fakeClient();
  const connection = adapt(client, onerror);
  await connection.subscribe('channel', () => {});
  const dropped = new Error('ECONNRESET');
  for (const duplicate of client.duplicates) duplicate.emitError(dropped);
  expect(client.duplicates).toHaveLength(1);
  expectReported(errors, '[toolprep] Redis connection error: ECONNRESET', dropped);
});

type FakeClient = IoredisClient & NodeRedisClient & { readonly duplicates: FakeDuplicate[] };
type FakeDuplicate = FakeClient & { emitError(error: unknown): void };

/** A client of either library's shape, whose duplicates can be made to emit 'error'. */
function fakeClient(): FakeClient {
  const duplicates: FakeDuplicate[] = [];
  const make = (): FakeDuplicate => {
    const errorListeners: ((error: unknown) => void)[] = [];
    const client: FakeDuplicate = {
      duplicates,
      call: async () => null,
      sendCommand: async () => null,
      duplicate: () => {
        const made = make();
        duplicates.push(made);
        return made;
      },
      connect: async () => client,
      subscribe: async () => null,
      unsubscribe: async () => null,
      on: (event: string, listener: (...args: never[]) => void) => {
        if (event === 'error') errorListeners.push(listener as (error: unknown) => void);
        return client;
      },
      quit: async () => 'OK',
      emitError: (error) => {
        for (const listener of errorListeners) listener(error);
      },
    };
    return client;
  };
  return make();
}
