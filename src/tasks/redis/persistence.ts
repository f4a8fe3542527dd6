import { failureOf, type OnError } from '../../shared/run/on-error.js';
import { TaskStoreUnavailableError } from '../store.js';
import { type RedisConnection, replyPairs } from './connection.js';

/**
 * What the Redis task store does about Redis's persistence, read once at start: `warn` (tell
 * `onerror` once when tasks would not survive a Redis restart, or when that could not be read),
 * `require` (refuse to create tasks, and fail `health()`, unless Redis keeps an append-only file),
 * `ignore` (read nothing: a Redis that is meant to forget, or one checked elsewhere).
 */
export type RedisPersistence = 'warn' | 'require' | 'ignore';

/** What was read: `durable` undefined when Redis would not say (CONFIG and INFO refused, or unreachable). */
interface PersistenceFinding {
  readonly durable: boolean | undefined;
  readonly said: string;
}

const ADVICE =
  "turn on Redis's append-only file (appendonly yes), or give redisTaskStore persistence: 'ignore' if tasks are meant to be lost (docs/guide/tasks.md, the failure model)";

/**
 * The store's check of Redis's persistence. `required()` resolves when tasks may be created:
 * always, unless the mode is `require` and Redis does not keep an append-only file (a reading that
 * failed is tried again at the next call, so a Redis still starting is not refused for good).
 */
export function persistenceCheck(connection: RedisConnection, mode: RedisPersistence, onerror: OnError) {
  if (mode === 'ignore') return { required: async (): Promise<void> => {} };
  let reading: Promise<PersistenceFinding> | undefined;
  const read = (): Promise<PersistenceFinding> => {
    reading ??= readPersistence(connection).then((finding) => {
      if (finding.durable === undefined && mode === 'require') reading = undefined;
      return finding;
    });
    return reading;
  };
  if (mode === 'warn')
    read().then(
      (finding) => {
        if (finding.durable === false)
          onerror(
            new Error(
              `[toolprep] Redis does not keep the tasks through a restart (${finding.said}): tasks under way and their results would be lost, and clients told there is no such task; ${ADVICE}`,
            ),
          );
        if (finding.durable === undefined)
          onerror(
            new Error(
              `[toolprep] could not read whether Redis keeps the tasks through a restart (${finding.said}): they survive one only with its append-only file on (appendonly yes)`,
            ),
          );
      },
      (error: unknown) => onerror(failureOf("could not read Redis's persistence settings", error)),
    );
  return {
    required: async (): Promise<void> => {
      if (mode !== 'require') return;
      const finding = await read();
      if (finding.durable !== true)
        throw new TaskStoreUnavailableError(
          `[toolprep] the Redis task store creates no task: it was given persistence: 'require', and ${finding.durable === false ? 'Redis does not keep an append-only file' : 'whether Redis keeps an append-only file could not be read'} (${finding.said}); ${ADVICE}`,
        );
    },
  };
}

/** CONFIG GET first; a managed Redis that refuses CONFIG may still answer INFO persistence. */
async function readPersistence(connection: RedisConnection): Promise<PersistenceFinding> {
  let refused: unknown;
  try {
    const appendonly = configValue(await connection.command(['CONFIG', 'GET', 'appendonly']));
    const save = configValue(await connection.command(['CONFIG', 'GET', 'save']));
    if (appendonly === 'yes') return { durable: true, said: 'appendonly yes' };
    return {
      durable: false,
      said:
        save === '' || save === undefined
          ? 'appendonly no, save "": a restart loses every task'
          : `appendonly no, save "${save}": a restart loses what changed since the last snapshot`,
    };
  } catch (error) {
    refused = error;
  }
  const why = `CONFIG GET was refused: ${refused instanceof Error ? refused.message : String(refused)}`;
  try {
    const info = await connection.command(['INFO', 'persistence']);
    const aof = /^aof_enabled:(\d)/m.exec(String(info))?.[1];
    if (aof === '1') return { durable: true, said: 'INFO persistence: aof_enabled:1' };
    if (aof === '0')
      return { durable: false, said: `INFO persistence: aof_enabled:0, and ${why}: its snapshots unknown` };
  } catch {
    // Neither answered: said below, with the first refusal.
  }
  return { durable: undefined, said: `${why}, and INFO persistence did not say` };
}

/** The value of `CONFIG GET <one parameter>`: `[name, value]`, or a RESP3 map. */
function configValue(reply: unknown): string | undefined {
  const value = replyPairs(reply)[0]?.[1];
  return value === undefined || value === null ? undefined : String(value);
}
