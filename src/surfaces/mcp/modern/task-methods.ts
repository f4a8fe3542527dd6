import { isRecord } from '../../../shared/run/is-record.js';
import { gatherAnswers } from '../service/asking-call.js';
import { missingCapabilityError } from '../service/questions.js';
import type { BoundCall } from '../service/request-state.js';
import { declaresExtension, type HeaderReader, META, TASKS_EXTENSION } from '../wire/envelope.js';
import { ERRORS, errorAnswer, type Id, type WireAnswer } from '../wire/jsonrpc.js';
import {
  type MethodRow,
  type MethodTable,
  missingCapabilityAnswer,
  type ServingKit,
} from './method-table.js';
import type { McpTasks } from './task-service.js';

/**
 * The tasks extension (`io.modelcontextprotocol/tasks`) as rows of the method table: `tasks/get`,
 * `tasks/update`, `tasks/cancel` and `subscriptions/listen`, and a `tools/call` that makes a task
 * of a call to a tool whose contract runs it as one. For a runtime none of whose tools run as
 * tasks, the `tasks/*` methods are still toolprep's, answered `-32601`; otherwise the task service
 * (and the store behind it) loads at start.
 */
/** The methods of the tasks extension about one task. */
const TASK_METHODS = ['tasks/get', 'tasks/update', 'tasks/cancel'] as const;

export function installTaskMethods(table: MethodTable, kit: ServingKit): void {
  const policies = new Map(
    kit.runtime.list().flatMap((tool) => (tool.task ? [[tool.name, tool.task] as const] : [])),
  );
  if (policies.size === 0) {
    for (const method of TASK_METHODS)
      table.set(method, {
        alwaysOurs: true,
        answer: ({ id }) =>
          errorAnswer(id, ERRORS.methodNotFound, `Method not found: ${method} (no tool runs as a task)`),
      });
    return;
  }
  const loaded: Promise<McpTasks> = import('./task-service.js').then(({ mcpTasks }) =>
    mcpTasks(kit.runtime, policies, kit.service, { ...kit.options.tasks, onerror: kit.onerror }),
  );
  kit.capabilities.extensions = { [TASKS_EXTENSION]: {} };

  const missingTasks = (id: Id, why: string): WireAnswer =>
    missingCapabilityAnswer(id, {
      code: ERRORS.missingCapability.code,
      message: `Missing required client capability: ${why}`,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
  const unknownTask = (id: Id, taskId: string): WireAnswer =>
    errorAnswer(
      id,
      ERRORS.invalidArgument,
      `Failed to retrieve task: no task ${JSON.stringify(taskId)} (never created, expired, or another's)`,
    );

  const plainCall = table.get('tools/call') as MethodRow;
  table.set('tools/call', {
    ...plainCall,
    answer: (request) => {
      const { id, params, meta, capabilities, header } = request;
      const name = params.name;
      const policy = typeof name === 'string' ? policies.get(name) : undefined;
      if (!policy) return plainCall.answer(request);
      const declared = declaresExtension(meta, TASKS_EXTENSION);
      if (!declared) {
        if (policy.support === 'required') return missingTasks(id, `Tool "${name}" runs only as a task`);
        return plainCall.answer(request);
      }
      return {
        notifies: false,
        run: () => createTask(id, name as string, params, capabilities, header),
      };
    },
  });

  const createTask = async (
    id: Id,
    name: string,
    params: Record<string, unknown>,
    capabilities: Record<string, unknown>,
    header: HeaderReader,
  ): Promise<WireAnswer> => {
    const args = params.arguments ?? {};
    // Questions asked before the task is made come back with the retry, as any input-required round.
    const call: BoundCall = { method: 'tools/call', name, args };
    const gathered = await gatherAnswers(kit.states, call, params.requestState, params.inputResponses);
    if ('invalid' in gathered) return errorAnswer(id, ERRORS.invalidParams, gathered.invalid);
    const tasks = await loaded;
    const outcome = await tasks.create({
      name,
      args,
      capabilities,
      principal: await tasks.principalOf(header),
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
  };

  const taskRow = (
    method: string,
    check: (params: Record<string, unknown>) => string | undefined,
    act: (
      tasks: McpTasks,
      taskId: string,
      principal: string,
      params: Record<string, unknown>,
    ) => Promise<object | undefined>,
  ): MethodRow => ({
    alwaysOurs: true,
    answer: ({ id, params, meta, header }) => {
      if (!declaresExtension(meta, TASKS_EXTENSION))
        return missingTasks(id, `${method} is a method of the tasks extension`);
      const { taskId } = params;
      if (typeof taskId !== 'string')
        return errorAnswer(id, ERRORS.invalidParams, `${method} needs a taskId`);
      const refused = check(params);
      if (refused) return errorAnswer(id, ERRORS.invalidParams, refused);
      return {
        notifies: false,
        run: async () => {
          const tasks = await loaded;
          const found = await act(tasks, taskId, await tasks.principalOf(header), params);
          return found ? kit.complete(id, found) : unknownTask(id, taskId);
        },
      };
    },
  });
  const noCheck = () => undefined;
  table.set(
    'tasks/get',
    taskRow('tasks/get', noCheck, (tasks, taskId, principal) => tasks.get(taskId, principal)),
  );
  table.set(
    'tasks/update',
    taskRow(
      'tasks/update',
      (params) =>
        isRecord(params.inputResponses)
          ? undefined
          : 'tasks/update needs inputResponses, an object keyed by input request',
      async (tasks, taskId, principal, params) =>
        (await tasks.update(taskId, principal, params.inputResponses as Record<string, unknown>))
          ? {}
          : undefined,
    ),
  );
  table.set(
    'tasks/cancel',
    taskRow('tasks/cancel', noCheck, async (tasks, taskId, principal) =>
      (await tasks.cancel(taskId, principal)) ? {} : undefined,
    ),
  );

  /**
   * A `subscriptions/listen` stream: acknowledged with the task ids this caller holds (toolprep's
   * lists never change, so no list notifications are agreed), then each of their transitions, until
   * the client closes it.
   */
  table.set('subscriptions/listen', {
    answer: ({ id, params, meta, header }) => {
      const { notifications } = params;
      if (!isRecord(notifications))
        return errorAnswer(
          id,
          ERRORS.invalidParams,
          'subscriptions/listen needs notifications, the filter of what to send',
        );
      const { taskIds } = notifications;
      if (
        taskIds !== undefined &&
        !(Array.isArray(taskIds) && taskIds.every((taskId) => typeof taskId === 'string'))
      )
        return errorAnswer(id, ERRORS.invalidParams, 'notifications.taskIds must be a list of task ids');
      if (taskIds !== undefined && !declaresExtension(meta, TASKS_EXTENSION))
        return missingTasks(id, 'Task notifications are part of the tasks extension');
      return {
        notifies: true,
        run: async (notify, signal) => {
          const streamMeta = { [META.subscriptionId]: id };
          const send = (method: string, sent: Record<string, unknown>) =>
            notify(JSON.stringify({ jsonrpc: '2.0', method, params: { ...sent, _meta: streamMeta } }));
          const tasks = await loaded;
          const held = (taskIds as string[] | undefined) ?? [];
          const subscription =
            held.length > 0
              ? await tasks.listen(held, await tasks.principalOf(header), (task) =>
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
    },
  });
}
