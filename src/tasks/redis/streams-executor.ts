import { failureOf, logError } from '../../shared/run/on-error.js';
import type { TaskExecutor, TaskReporting } from '../store.js';
import { type RedisConnection, replyPairs } from './connection.js';
import { deadline } from './deadline.js';

export interface RedisStreamsExecutorOptions extends TaskReporting {
  /** This node's name in the consumer group: unique per node, and the same after a restart. */
  readonly consumer: string;
  readonly stream?: string;
  readonly group?: string;
  /** How long a run may go without a heartbeat before another node takes it as stopped (ms). */
  readonly leaseMs?: number;
  readonly heartbeatMs?: number;
  readonly reapEveryMs?: number;
  /** How many tasks this node runs at once. */
  readonly concurrency?: number;
  /** How long (ms) one read waits for tasks: also how long `close` may wait for the read under way. Default 1000. */
  readonly blockMs?: number;
  /**
   * How long `submit` (queuing a task a client's call waits on) waits on Redis before the call is
   * answered that the task store is unavailable. Default 5000 ms, as `redisTaskStore`'s.
   */
  readonly timeoutMs?: number;
}

/** How many stale entries one reaper pass claims (XAUTOCLAIM's COUNT, our choice). */
const REAP_COUNT = 10;

/**
 * Runs tasks from a Redis stream read by a consumer group: each task goes to one node. A run under
 * way heartbeats (XCLAIM to itself, which resets the entry's idle time); an entry idle longer than
 * the lease belongs to a node that stopped, and the reaper of another node claims it (XAUTOCLAIM)
 * and runs it with `reaped`. An entry is acknowledged and deleted once its run resolved (its task
 * ended in the store); a run that threw leaves it pending, and a reaper runs it again.
 *
 * Idle times go on growing while Redis is unreachable, and heartbeats cannot reset them: right
 * after an outage every run looks stopped. So the reaper waits one lease after this node last
 * failed to reach Redis, or waited on it longer than a heartbeat, before it reaps: by then every
 * live node has heartbeated again. A reap whose answer itself came that late runs nothing (the
 * entries' holders take them back with their next heartbeat; a stopped holder's are reaped later).
 */
export function redisStreamsExecutor(
  connection: RedisConnection,
  options: RedisStreamsExecutorOptions,
): TaskExecutor {
  const { consumer } = options;
  const stream = options.stream ?? 'toolprep:tasks';
  const group = options.group ?? 'toolprep';
  const leaseMs = options.leaseMs ?? 30_000;
  const heartbeatMs = options.heartbeatMs ?? leaseMs / 3;
  const reapEveryMs = options.reapEveryMs ?? leaseMs / 2;
  const concurrency = options.concurrency ?? 4;
  const blockMs = options.blockMs ?? 1000;
  const onerror = options.onerror ?? logError;
  const bounded = deadline(options.timeoutMs ?? 5_000, onerror, "redisStreamsExecutor's timeoutMs");

  /** Until when the reaper holds off: one lease after Redis was last unreachable from here. */
  let graceUntil = 0;
  const unreachable = (): void => {
    graceUntil = Date.now() + leaseMs;
  };
  /** A command on this node's connection: a failure, or an answer later than `expectedMs` + a heartbeat, starts a grace. */
  const timed = async <T>(
    expectedMs: number,
    command: () => Promise<T>,
  ): Promise<{ reply: T; late: boolean }> => {
    const sentAt = Date.now();
    try {
      const reply = await command();
      const late = Date.now() - sentAt > expectedMs + heartbeatMs;
      if (late) unreachable();
      return { reply, late };
    } catch (error) {
      unreachable();
      throw error;
    }
  };

  /** The runs under way, by stream entry id. */
  const underWay = new Map<string, Promise<void>>();
  let closing = false;
  let wake: (() => void) | undefined;
  const changed = (): void => {
    wake?.();
    wake = undefined;
  };
  const nextChange = (): Promise<void> => new Promise((resolve) => (wake = resolve));
  let heartbeat: ReturnType<typeof setTimeout> | undefined;
  let reapTimer: ReturnType<typeof setTimeout> | undefined;
  let reaping: Promise<void> = Promise.resolve();
  let reading: Promise<void> | undefined;

  const ensureGroup = async (): Promise<void> => {
    try {
      // From the stream's start: tasks submitted before any node started are run too.
      await connection.command(['XGROUP', 'CREATE', stream, group, '0', 'MKSTREAM']);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('BUSYGROUP'))) throw error;
    }
  };

  const beat = async (): Promise<void> => {
    const entryIds = [...underWay.keys()];
    if (entryIds.length > 0) {
      try {
        await timed(0, () =>
          connection.command(['XCLAIM', stream, group, consumer, 0, ...entryIds, 'JUSTID']),
        );
      } catch (error) {
        // A missed heartbeat costs nothing until the lease runs out; then another node reaps the
        // run, which is right if this node cannot reach Redis. Reported: a reaped run may run twice.
        onerror(failureOf(`the heartbeat failed (runs under way: ${entryIds.length})`, error));
      }
    }
    heartbeat = undefined;
    keepBeating();
  };
  const keepBeating = (): void => {
    if (heartbeat === undefined && underWay.size > 0) heartbeat = setTimeout(beat, heartbeatMs);
  };

  const finish = async (entryId: string): Promise<void> => {
    try {
      await timed(0, () => connection.command(['XACK', stream, group, entryId]));
      // One group reads the stream: an acknowledged entry is of no more use to anyone.
      await timed(0, () => connection.command(['XDEL', stream, entryId]));
    } catch (error) {
      // Left pending: its task has ended, so the run that reaps it finds nothing to do and acknowledges it.
      onerror(failureOf(`could not acknowledge the stream entry ${entryId}`, error));
    }
  };

  const begin = (
    run: (taskId: string, reaped: boolean) => Promise<void>,
    entryId: string,
    fields: unknown,
    reaped: boolean,
  ): void => {
    if (underWay.has(entryId)) return;
    const taskId = replyPairs(fields).find(([field]) => field === 'task')?.[1];
    const settled = (async () => {
      if (typeof taskId === 'string') {
        try {
          await run(taskId, reaped);
        } catch (error) {
          onerror(
            failureOf(`the run of the task ${taskId} threw (its stream entry is left for the reaper)`, error),
          );
          return;
        }
      }
      await finish(entryId);
    })().finally(() => {
      underWay.delete(entryId);
      changed();
    });
    underWay.set(entryId, settled);
    keepBeating();
  };

  const read = async (run: (taskId: string, reaped: boolean) => Promise<void>): Promise<void> => {
    while (!closing) {
      const free = concurrency - underWay.size;
      if (free <= 0) {
        await nextChange();
        continue;
      }
      let reply: unknown;
      try {
        ({ reply } = await timed(blockMs, () =>
          connection.blocking([
            'XREADGROUP',
            'GROUP',
            group,
            consumer,
            'COUNT',
            free,
            'BLOCK',
            blockMs,
            'STREAMS',
            stream,
            '>',
          ]),
        ));
      } catch (error) {
        if (closing) break;
        if (error instanceof Error && error.message.startsWith('NOGROUP'))
          await ensureGroup().catch((failed) =>
            onerror(
              failureOf(`could not create the consumer group again (the stream ${stream} lost it)`, failed),
            ),
          );
        else onerror(failureOf('reading the task stream failed', error));
        await new Promise((resolve) => setTimeout(resolve, blockMs));
        continue;
      }
      // Entries read are this node's now, closing or not: run them rather than leave them to be reaped.
      for (const [, entries] of replyPairs(reply))
        for (const [entryId, fields] of entriesOf(entries)) begin(run, entryId, fields, false);
    }
  };

  const reap = async (run: (taskId: string, reaped: boolean) => Promise<void>): Promise<void> => {
    const free = Math.min(REAP_COUNT, concurrency - underWay.size);
    if (free > 0 && Date.now() >= graceUntil) {
      try {
        const { reply, late } = await timed(0, () =>
          connection.command(['XAUTOCLAIM', stream, group, consumer, leaseMs, '0-0', 'COUNT', free]),
        );
        const [, entries] = Array.isArray(reply) && !late ? reply : [];
        for (const [entryId, fields] of entriesOf(entries)) begin(run, entryId, fields, true);
      } catch (error) {
        onerror(failureOf('reaping stopped runs failed', error));
      }
    }
    if (!closing) reapTimer = setTimeout(() => (reaping = reap(run)), reapEveryMs);
  };

  return {
    async start(run) {
      if (reading !== undefined) throw new Error('[toolprep] the executor was started already');
      await ensureGroup();
      reading = read(run);
      reapTimer = setTimeout(() => (reaping = reap(run)), reapEveryMs);
    },

    async submit(taskId) {
      await bounded(
        `queue the task ${taskId}`,
        () => connection.command(['XADD', stream, '*', 'task', taskId]),
        // Queued after the caller was told it failed: taken off the stream again (not yet read, mostly).
        async (entryId) => {
          if (typeof entryId === 'string') await connection.command(['XDEL', stream, entryId]);
        },
      );
    },

    async close() {
      closing = true;
      clearTimeout(reapTimer);
      changed();
      await Promise.all([reading, reaping]);
    },
  };
}

/** A stream's entries as `[id, fields]`; fields are null for an entry deleted while pending (Redis 6.2). */
function entriesOf(entries: unknown): [string, unknown][] {
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry: unknown) =>
    Array.isArray(entry) && typeof entry[0] === 'string' ? [[entry[0], entry[1]] as [string, unknown]] : [],
  );
}
