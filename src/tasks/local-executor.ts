import { failureOf, logError } from '../shared/run/on-error.js';
import type { TaskExecutor, TaskReporting } from './store.js';

/**
 * Runs each task in this process, as soon as it is submitted: the default, for one node. A task
 * whose process dies is left as the store has it (its TTL ends it); across nodes, run tasks with
 * the Redis Streams executor, whose reaper fails or reruns them. A run that throws goes to
 * `onerror` (a handler's own error ends its task; this is a run that could not, its store down).
 */
export function localExecutor(options: TaskReporting = {}): TaskExecutor {
  const onerror = options.onerror ?? logError;
  let run: ((taskId: string, reaped: boolean) => Promise<void>) | undefined;
  let closed = false;
  return {
    async start(runTask) {
      run = runTask;
    },
    async submit(taskId) {
      if (!run) throw new Error('[toolprep] the task executor was not started');
      if (closed) throw new Error('[toolprep] the task executor is closed');
      const running = run;
      // Not awaited: the call answers with the task handle while the task runs.
      queueMicrotask(() => {
        running(taskId, false).catch((error) =>
          onerror(failureOf(`the task ${taskId} failed to run`, error)),
        );
      });
    },
    async close() {
      closed = true;
    },
  };
}
