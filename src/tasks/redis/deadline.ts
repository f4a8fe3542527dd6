import { failureOf, type OnError } from '../../shared/run/on-error.js';
import { TaskStoreUnavailableError } from '../store.js';

/** What a `TaskStoreUnavailableError` of the Redis store tells to check. */
const CHECK =
  "check that Redis is running and reachable from this node at the address its client was given, and the Redis client's errors in this process's log";

/**
 * Bounds what a request waits on Redis: `operation`'s value, or a `TaskStoreUnavailableError` once
 * `timeoutMs` has passed or when it fails, saying what to check, with the Redis client's error as
 * its `cause` only (its text is no business of the MCP client's). The operation cannot be called
 * back (the Redis client keeps it queued while it reconnects): what it does after its deadline is
 * given to `late`, to undo what nobody will hear of.
 */
export function deadline(timeoutMs: number, onerror: OnError, setting = "redisTaskStore's timeoutMs") {
  return <T>(
    what: string,
    operation: () => Promise<T>,
    late?: (value: T) => Promise<unknown>,
    wait: number = timeoutMs,
  ): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        reject(
          new TaskStoreUnavailableError(
            `[toolprep] the Redis task store did not ${what} within ${wait} ms: ${CHECK} (the wait is ${setting})`,
          ),
        );
      }, wait);
      operation().then(
        (value) => {
          clearTimeout(timer);
          if (!timedOut) resolve(value);
          else late?.(value).catch((error) => onerror(failureOf(`could not undo a late ${what}`, error)));
        },
        (error: unknown) => {
          clearTimeout(timer);
          if (timedOut) return;
          // The store's own refusal says what to do already.
          if (error instanceof TaskStoreUnavailableError) reject(error);
          else
            reject(
              new TaskStoreUnavailableError(
                `[toolprep] the Redis task store could not ${what}: ${CHECK} (what the Redis client said is this error's cause)`,
                { cause: error },
              ),
            );
        },
      );
    });
}
