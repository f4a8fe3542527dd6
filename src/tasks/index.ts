/**
 * `toolprep/tasks`: where MCP tasks are kept and run. The default, in one process, is the memory
 * store and the local executor; give `serveHttp` (option `tasks`) a shared store and executor to
 * serve tasks across nodes (`toolprep/tasks/redis`).
 */
export { localExecutor } from './local-executor.js';
export { memoryTaskStore } from './memory-store.js';
export type {
  NewTask,
  TaskEnd,
  TaskError,
  TaskExecutor,
  TaskListener,
  TaskRecord,
  TaskStatus,
  TaskStore,
  TaskStoreHealth,
} from './store.js';
export { isTerminal, TaskStoreUnavailableError, TERMINAL_STATUSES } from './store.js';
