import { isRecord } from '../../../shared/run/is-record.js';
import { toolListOf } from '../service/views.js';
import { declaresExtension, TASKS_EXTENSION } from '../wire/envelope.js';
import { ERRORS, errorAnswer, type Id, type WireAnswer } from '../wire/jsonrpc.js';
import {
  type MethodRow,
  type MethodTable,
  missingCapabilityAnswer,
  type ServingKit,
} from './method-table.js';
import type { TaskMethod, TaskWork } from './task-work.js';

/**
 * The tasks extension (`io.modelcontextprotocol/tasks`) as rows of the method table: `tasks/get`,
 * `tasks/update`, `tasks/cancel` and `subscriptions/listen`, and a `tools/call` that makes a task
 * of a call to a tool whose contract runs it as one. A request is checked here, at once (so a
 * refusal keeps its HTTP status); its work is in task-work.ts, which loads with the task service
 * and its store as the serving starts. For a runtime none of whose tools run as tasks, only the
 * `tasks/*` methods are installed, answered `-32601`, and nothing else loads.
 */
const TASK_METHODS: readonly TaskMethod[] = ['tasks/get', 'tasks/update', 'tasks/cancel'];

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
  const work: Promise<TaskWork> = import('./task-work.js').then(({ taskWork }) => taskWork(kit, policies));
  kit.capabilities.extensions = { [TASKS_EXTENSION]: {} };

  const missingTasks = (id: Id, why: string): WireAnswer =>
    missingCapabilityAnswer(id, {
      code: ERRORS.missingCapability.code,
      message: `Missing required client capability: ${why}`,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });

  const plainCall = table.get('tools/call') as MethodRow;
  table.set('tools/call', {
    ...plainCall,
    answer: (request) => {
      const { id, params, meta, capabilities } = request;
      const name = params.name;
      // A task tool the caller may not see (its scopes, or an app-only one when it renders no view)
      // is the plain call's to refuse, as an unknown tool; most calls are of no task tool at all.
      const policy = typeof name === 'string' ? policies.get(name) : undefined;
      if (!policy || !toolListOf(request.view, capabilities).listed.has(name as string))
        return plainCall.answer(request);
      if (!declaresExtension(meta, TASKS_EXTENSION)) {
        if (policy.support === 'required') return missingTasks(id, `Tool "${name}" runs only as a task`);
        return plainCall.answer(request);
      }
      return {
        notifies: false,
        run: async () => (await work).create(id, name as string, params, capabilities, request),
      };
    },
  });

  for (const method of TASK_METHODS)
    table.set(method, {
      alwaysOurs: true,
      answer: (request) => {
        const { id, params, meta } = request;
        if (!declaresExtension(meta, TASKS_EXTENSION))
          return missingTasks(id, `${method} is a method of the tasks extension`);
        const { taskId } = params;
        if (typeof taskId !== 'string')
          return errorAnswer(id, ERRORS.invalidParams, `${method} needs a taskId`);
        if (method === 'tasks/update' && !isRecord(params.inputResponses))
          return errorAnswer(
            id,
            ERRORS.invalidParams,
            'tasks/update needs inputResponses, an object keyed by input request',
          );
        return {
          notifies: false,
          run: async () => (await work).act(method, id, taskId, params, request),
        };
      },
    });

  /**
   * A `subscriptions/listen` stream: acknowledged with the task ids this caller holds (toolprep's
   * lists never change, so no list notifications are agreed), then each of their transitions, until
   * the client closes it.
   */
  table.set('subscriptions/listen', {
    answer: (request) => {
      const { id, params, meta } = request;
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
        run: async (notify, signal) =>
          (await work).listen(id, (taskIds as string[] | undefined) ?? [], request, notify, signal),
      };
    },
  });
}
