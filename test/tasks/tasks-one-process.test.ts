import type { AddressInfo } from 'node:net';
import { prepareToolSet } from '@toolprep/build';
import { serveHttp } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import { afterAll, beforeAll, describe } from 'vitest';
import { handlers } from '../../fixtures/tasks/src/handlers.js';
import * as tools from '../../fixtures/tasks/src/tools.js';
import { type TaskDeployment, taskScenarios } from '../support/task-scenarios.js';

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
