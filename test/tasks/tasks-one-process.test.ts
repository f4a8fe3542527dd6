import type { AddressInfo } from 'node:net';
import { prepareToolSet } from '@toolprep/build';
import { serveHttp } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { handlers } from '../../fixtures/tasks/src/handlers.js';
import * as tools from '../../fixtures/tasks/src/tools.js';
import { post, type TaskDeployment, taskScenarios } from '../support/task-scenarios.js';

/**
 * The task scenarios in one process, with the defaults: the memory store and the local executor.
 * (The same scenarios across three nodes on Redis: test/tasks/tasks-cluster.test.ts.)
 */

let deployment: TaskDeployment;
let close: () => void;
beforeAll(async () => {
  const runtime = createToolRuntime(prepareToolSet(tools), { handlers });
  const server = await serveHttp(runtime, { name: 'tasks', version: '1.0.0' }, 0);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  deployment = { url, nodes: [url], runnerOf: async () => url };
  close = () => server.close();
});
afterAll(() => close?.());

describe('tasks in one process, in memory', () => {
  taskScenarios(() => deployment);
});

test('two anonymous callers making the same call get a task each, reached by its id alone', async () => {
  const { url } = deployment;
  const call = { name: 'deploy_release', arguments: { release: 'v-anonymous', waitMs: 0 } };
  const [first, second] = [
    await post(url, 'tools/call', call, { principal: '' }),
    await post(url, 'tools/call', call, { principal: '' }),
  ];
  const taskIds = [first, second].map((answer) => (answer.result as { taskId: string }).taskId);
  expect(first.result).toMatchObject({ resultType: 'task' });
  expect(second.result).toMatchObject({ resultType: 'task' });
  expect(taskIds[1]).not.toBe(taskIds[0]);
  // Its holder reads it by id; a caller with credentials is another principal and finds no task.
  const read = await post(url, 'tasks/get', { taskId: taskIds[0] }, { principal: '' });
  expect(read.result).toMatchObject({ taskId: taskIds[0] });
  const other = await post(url, 'tasks/get', { taskId: taskIds[0] }, { principal: 'alice' });
  expect(other.error).toMatchObject({ code: -32602 });
  for (const taskId of taskIds) await post(url, 'tasks/cancel', { taskId }, { principal: '' });
});
