import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { fromIoredis, fromNodeRedis, type RedisConnection } from '../../src/tasks/redis/connection.js';
import {
  type RedisStreamsExecutorOptions,
  redisStreamsExecutor,
} from '../../src/tasks/redis/streams-executor.js';
import type { TaskExecutor } from '../../src/tasks/store.js';
import { type RedisServer, startRedisServer } from '../support/redis.js';
import { needs } from '../support/services.js';

/**
 * Two nodes (consumers a and b) on one stream, on a real redis-server: each task runs once; a run
 * whose node died is reaped by the other; a run that heartbeats is not, however long it takes.
 */

interface Node {
  readonly connection: RedisConnection;
  /** Closes the adapter's connections and the client, gracefully. */
  close(): Promise<void>;
  /** The node dies: its connections drop, nothing more reaches Redis from it. */
  kill(): Promise<void>;
}

const CLIENTS: Record<string, (url: string) => Promise<Node>> = {
  ioredis: async (url) => {
    const client = new Redis(url);
    const connection = fromIoredis(client);
    return {
      connection,
      close: async () => {
        await connection.close();
        await client.quit();
      },
      kill: async () => {
        await connection.close();
        client.disconnect();
      },
    };
  },
  'node-redis': async (url) => {
    const client = createClient({ url });
    await client.connect();
    const connection = fromNodeRedis(client);
    return {
      connection,
      close: async () => {
        await connection.close();
        await client.close();
      },
      kill: async () => {
        await connection.close();
        client.destroy();
      },
    };
  },
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

needs('redis-server').describe('redisStreamsExecutor on redis-server', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe.each(Object.keys(CLIENTS))('through %s', (through) => {
    // Undone after each test: the executors (each close waits out its read), then the nodes.
    let executors: TaskExecutor[] = [];
    let nodes: (() => Promise<void>)[] = [];
    afterEach(async () => {
      await Promise.all(executors.map((each) => each.close()));
      await Promise.all(nodes.map((close) => close()));
      executors = [];
      nodes = [];
    });
    const node = async (): Promise<Node> => {
      const opened = await (CLIENTS[through] as (url: string) => Promise<Node>)(server.url);
      let closed = false;
      nodes.push(async () => {
        if (!closed) await opened.close();
      });
      return {
        ...opened,
        close: async () => {
          closed = true;
          await opened.close();
        },
        kill: () => {
          closed = true;
          return opened.kill();
        },
      };
    };
    const executor = (on: Node, options: RedisStreamsExecutorOptions): TaskExecutor => {
      // Short reads: each close waits for the read under way.
      const made = redisStreamsExecutor(on.connection, { blockMs: 100, ...options });
      executors.push(made);
      return made;
    };
    const pending = (on: Node, stream: string) =>
      on.connection.command(['XPENDING', stream, 'toolprep', '-', '+', 10]);

    test('a submitted task runs exactly once, on one of the two nodes', async () => {
      const stream = `tasks:${crypto.randomUUID()}`;
      const [nodeA, nodeB] = [await node(), await node()];
      const runs: { consumer: string; taskId: string; reaped: boolean }[] = [];
      const recorder = (consumer: string) => async (taskId: string, reaped: boolean) => {
        runs.push({ consumer, taskId, reaped });
        await sleep(20);
      };
      const a = executor(nodeA, { consumer: 'a', stream, leaseMs: 300 });
      const b = executor(nodeB, { consumer: 'b', stream, leaseMs: 300 });
      await a.start(recorder('a'));
      await b.start(recorder('b'));
      const taskIds = Array.from({ length: 12 }, () => crypto.randomUUID());
      for (const [index, taskId] of taskIds.entries()) await (index % 2 === 0 ? a : b).submit(taskId);
      await vi.waitFor(() => expect(runs).toHaveLength(taskIds.length), { timeout: 5_000 });
      // Longer than the lease: had an entry stayed pending, a reaper would have run it again.
      await sleep(700);
      expect(runs.map((run) => run.taskId).sort()).toEqual([...taskIds].sort());
      expect(runs.every((run) => !run.reaped)).toBe(true);
      expect(await pending(nodeA, stream)).toEqual([]);
      expect(await nodeA.connection.command(['XLEN', stream])).toBe(0);
    });

    test('a task submitted before any node started runs once one starts', async () => {
      const stream = `tasks:${crypto.randomUUID()}`;
      const nodeA = await node();
      const a = executor(nodeA, { consumer: 'a', stream });
      await a.submit('early');
      const runs: string[] = [];
      await a.start(async (taskId) => {
        runs.push(taskId);
      });
      await vi.waitFor(() => expect(runs).toEqual(['early']), { timeout: 3_000 });
    });

    test('the run of a node that died is reaped by the other node, with reaped: true', async () => {
      const stream = `tasks:${crypto.randomUUID()}`;
      const [nodeA, nodeB] = [await node(), await node()];
      const a = executor(nodeA, { consumer: 'a', stream, leaseMs: 300 });
      let onA: string | undefined;
      await a.start(async (taskId) => {
        onA = taskId;
        await new Promise(() => {});
      });
      await a.submit('doomed');
      await vi.waitFor(() => expect(onA).toBe('doomed'), { timeout: 3_000 });
      // The node dies with its run under way: its loops stop, its connections (heartbeats) drop.
      await a.close();
      await nodeA.kill();
      const onB: [string, boolean][] = [];
      const b = executor(nodeB, { consumer: 'b', stream, leaseMs: 300 });
      await b.start(async (taskId, reaped) => {
        onB.push([taskId, reaped]);
      });
      await vi.waitFor(() => expect(onB).toEqual([['doomed', true]]), { timeout: 3_000 });
      await vi.waitFor(async () => expect(await pending(nodeB, stream)).toEqual([]));
    });

    test('heartbeats keep a run longer than the lease from being reaped', async () => {
      const stream = `tasks:${crypto.randomUUID()}`;
      const [nodeA, nodeB] = [await node(), await node()];
      const runs: [string, string, boolean][] = [];
      // a's own reaper would also reset its entry's idle time: only the heartbeat may, here.
      const a = executor(nodeA, { consumer: 'a', stream, leaseMs: 300, reapEveryMs: 60_000 });
      let finished = false;
      await a.start(async (taskId, reaped) => {
        runs.push(['a', taskId, reaped]);
        await sleep(1_200);
        finished = true;
      });
      await a.submit('long');
      await vi.waitFor(() => expect(runs).toHaveLength(1), { timeout: 3_000 });
      const b = executor(nodeB, { consumer: 'b', stream, leaseMs: 300 });
      await b.start(async (taskId, reaped) => {
        runs.push(['b', taskId, reaped]);
      });
      await vi.waitFor(() => expect(finished).toBe(true), { timeout: 3_000 });
      await vi.waitFor(async () => expect(await pending(nodeA, stream)).toEqual([]));
      expect(runs).toEqual([['a', 'long', false]]);
    });

    test('a run that throws reaches onerror with its task id, is left pending, and is run again by the reaper', async () => {
      const stream = `tasks:${crypto.randomUUID()}`;
      const nodeA = await node();
      const reported: Error[] = [];
      const runs: boolean[] = [];
      const a = executor(nodeA, {
        consumer: 'a',
        stream,
        leaseMs: 200,
        onerror: (error) => reported.push(error),
      });
      // The first run could not tell whether its task ended (its store was down); the second can.
      await a.start(async (_taskId, reaped) => {
        runs.push(reaped);
        if (runs.length === 1) throw new Error('the store broke');
      });
      await a.submit('broken');
      await vi.waitFor(() => expect(runs).toEqual([false, true]), { timeout: 3_000 });
      expect(reported.map((error) => error.message)).toContain(
        '[toolprep] the run of the task broken threw (its stream entry is left for the reaper): the store broke',
      );
      await vi.waitFor(async () => expect(await pending(nodeA, stream)).toEqual([]));
      await sleep(400);
      expect(runs).toEqual([false, true]);
    });

    test('close stops taking tasks and waits for its loops; the runs under way finish and are acknowledged', async () => {
      const stream = `tasks:${crypto.randomUUID()}`;
      const [nodeA, nodeB] = [await node(), await node()];
      const a = executor(nodeA, { consumer: 'a', stream, leaseMs: 300 });
      const runs: string[] = [];
      let release: () => void = () => {};
      await a.start(async (taskId) => {
        runs.push(taskId);
        await new Promise<void>((resolve) => (release = resolve));
      });
      await a.submit('under way');
      await vi.waitFor(() => expect(runs).toEqual(['under way']), { timeout: 3_000 });
      const closedAt = Date.now();
      await a.close();
      expect(Date.now() - closedAt).toBeLessThan(1_500);
      await a.submit('after close');
      await sleep(700);
      expect(runs).toEqual(['under way']);
      release();
      const pendingOnA = async () =>
        ((await pending(nodeA, stream)) as unknown[][])
          .map((entry) => entry[1])
          .filter((owner) => owner === 'a');
      await vi.waitFor(async () => expect(await pendingOnA()).toEqual([]));
      // Another node takes the task a no longer takes.
      const onB: string[] = [];
      const b = executor(nodeB, { consumer: 'b', stream, leaseMs: 300 });
      await b.start(async (taskId) => {
        onB.push(taskId);
      });
      await vi.waitFor(() => expect(onB).toEqual(['after close']), { timeout: 3_000 });
    });
  });
});
