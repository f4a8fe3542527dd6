import type { TaskExecutor } from './store.js';

/**
 * Runs each task in this process, as soon as it is submitted: the default, for one node. A task
 * whose process dies is left as the store has it (its TTL ends it); across nodes, run tasks with
 * the Redis Streams executor, whose reaper fails or reruns them.
 */
export function localExecutor(): TaskExecutor {
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
          console.error(`[toolprep] task ${taskId} failed to run:`, error),
        );
      });
    },
    async close() {
      closed = true;
    },
  };
}
