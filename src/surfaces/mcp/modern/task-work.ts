import type { TaskPolicy } from '../../../manifest/prepared-tool.js';
import type { OnError } from '../../../shared/run/on-error.js';
import { TaskStoreUnavailableError } from '../../../tasks/store.js';
import { boundCall, gatherAnswers } from '../service/asking-call.js';
import type { Caller } from '../service/caller-views.js';
import { missingCapabilityError } from '../service/questions.js';
import { type HeaderReader, META } from '../wire/envelope.js';
import { ERRORS, errorAnswer, type Id, type WireAnswer } from '../wire/jsonrpc.js';
import { missingCapabilityAnswer, type ServingKit } from './method-table.js';
import { mcpTasks } from './task-service.js';

/**
 * The work of the tasks extension's rows once their requests passed the checks (task-methods.ts):
 * making a task of a call, reading, answering and cancelling one, and a listen stream. Loaded, with
 * the task service and its store, as the serving starts when some tool runs as a task.
 */

/** The methods of the tasks extension about one task. */
export type TaskMethod = 'tasks/get' | 'tasks/update' | 'tasks/cancel';

export interface TaskWork {
  /** A `tools/call` of a tool that runs as a task, from a client that declared the extension. */
  create(
    id: Id,
    name: string,
    params: Record<string, unknown>,
    capabilities: Record<string, unknown>,
    asker: TaskAsker,
  ): Promise<WireAnswer>;
  /** `tasks/get`, `tasks/update` (its `inputResponses` checked) or `tasks/cancel`. */
  act(
    method: TaskMethod,
    id: Id,
    taskId: string,
    params: Record<string, unknown>,
    asker: TaskAsker,
  ): Promise<WireAnswer>;
  /** A `subscriptions/listen` stream until `signal` aborts. */
  listen(
    id: Id,
    taskIds: readonly string[],
    asker: TaskAsker,
    notify: (message: string) => void,
    signal: AbortSignal,
  ): Promise<WireAnswer>;
}

/** Who asks about tasks: the request's headers, and the caller `auth` verified. */
interface TaskAsker {
  readonly header: HeaderReader;
  readonly caller?: Caller;
}

export function taskWork(kit: ServingKit, policies: ReadonlyMap<string, TaskPolicy>): TaskWork {
  const tasks = mcpTasks(kit.runtime, policies, kit.service, {
    ...kit.options.tasks,
    onerror: kit.onerror,
  });
  const unknownTask = (id: Id, taskId: string): WireAnswer =>
    errorAnswer(
      id,
      ERRORS.invalidArgument,
      `Failed to retrieve task: no task ${JSON.stringify(taskId)} (never created, expired, or another's)`,
    );

  const work: TaskWork = {
    async create(id, name, params, capabilities, { header, caller }) {
      const args = params.arguments ?? {};
      // Questions asked before the task is made come back with the retry, as any input-required round.
      const call = boundCall(name, args, caller);
      const gathered = await gatherAnswers(kit.states, call, params.requestState, params.inputResponses);
      if ('invalid' in gathered) return errorAnswer(id, ERRORS.invalidParams, gathered.invalid);
      const outcome = await tasks.create({
        name,
        args,
        capabilities,
        principal: await tasks.principalOf(header, caller),
        answers: gathered.answers,
      });
      if ('answer' in outcome)
        return 'result' in outcome.answer
          ? kit.complete(id, outcome.answer.result)
          : kit.callError(id, outcome.answer.error);
      if ('missing' in outcome) return missingCapabilityAnswer(id, missingCapabilityError(outcome.missing));
      if ('questions' in outcome)
        return kit.resultOf(id, 'input_required', {
          inputRequests: outcome.questions,
          requestState: await kit.states.sign(call, gathered.answers),
        });
      return kit.resultOf(id, 'task', outcome.task);
    },

    async act(method, id, taskId, params, { header, caller }) {
      const principal = await tasks.principalOf(header, caller);
      let found: object | undefined;
      if (method === 'tasks/get') found = await tasks.get(taskId, principal);
      else if (method === 'tasks/update')
        found = (await tasks.update(taskId, principal, params.inputResponses as Record<string, unknown>))
          ? {}
          : undefined;
      else found = (await tasks.cancel(taskId, principal)) ? {} : undefined;
      return found ? kit.complete(id, found) : unknownTask(id, taskId);
    },

    async listen(id, taskIds, { header, caller }, notify, signal) {
      const streamMeta = { [META.subscriptionId]: id };
      const send = (method: string, sent: Record<string, unknown>) =>
        notify(JSON.stringify({ jsonrpc: '2.0', method, params: { ...sent, _meta: streamMeta } }));
      const subscription =
        taskIds.length > 0
          ? await tasks.listen(taskIds, await tasks.principalOf(header, caller), (task) =>
              send('notifications/tasks', task),
            )
          : undefined;
      send('notifications/subscriptions/acknowledged', {
        notifications: subscription ? { taskIds: subscription.agreed } : {},
      });
      await new Promise((resolve) => {
        if (signal.aborted) resolve(undefined);
        signal.addEventListener('abort', resolve, { once: true });
      });
      await subscription?.stop();
      return kit.complete(id, { _meta: streamMeta });
    },
  };
  const unavailable = storeUnavailable(kit.onerror);
  return {
    create: (id, ...rest) => work.create(id, ...rest).catch(unavailable(id)),
    act: (method, id, ...rest) => work.act(method, id, ...rest).catch(unavailable(id)),
    listen: (id, ...rest) => work.listen(id, ...rest).catch(unavailable(id)),
  };
}

/** How long a client is told to wait (`Retry-After`, in seconds) before it sends again a request the task store could not serve. */
const TASK_STORE_RETRY_AFTER_S = 5;

/**
 * The answer to a request the task store could not serve in time (`TaskStoreUnavailableError`):
 * at once, with the request's id, saying that the store is unavailable and when to retry (HTTP 503
 * with `Retry-After`); what the store said, with its client's error, goes to `onerror` (the log),
 * not to the client. Any other failure is thrown on, an internal error.
 */
function storeUnavailable(onerror: OnError) {
  return (id: Id) =>
    (error: unknown): WireAnswer => {
      if (!(error instanceof TaskStoreUnavailableError)) throw error;
      onerror(error);
      return {
        ...errorAnswer(
          id,
          ERRORS.unavailable,
          `Task store unavailable: the server could not reach the store that keeps its tasks; retry in ${TASK_STORE_RETRY_AFTER_S} s`,
          { retryAfterSeconds: TASK_STORE_RETRY_AFTER_S },
        ),
        headers: { 'retry-after': String(TASK_STORE_RETRY_AFTER_S) },
      };
    };
}
