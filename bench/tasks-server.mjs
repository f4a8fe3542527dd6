// The server of `bench/tasks.mjs`, forked once per store: `node bench/tasks-server.mjs memory` (the
// memory store and the local executor) or `node bench/tasks-server.mjs redis <redis://…>` (the
// Redis store and the Redis Streams executor). It tells its parent its port, and answers 'cpu'
// with the CPU it has used so far.
import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { serveHttp } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import { z } from 'zod';

const [kind, redisUrl] = process.argv.slice(2);

const tools = {
  // A task for a client that declares the extension, an immediate result for any other.
  lookup: defineTool({
    description: 'Look a word up.',
    input: z.object({ word: z.string() }),
    task: 'optional',
  }),
  // The same tool with no task policy: never a task.
  lookupPlain: defineTool({
    description: 'Look a word up, never as a task.',
    input: z.object({ word: z.string() }),
  }),
};
const lookup = ({ word }) => `${word}: a word`;
const runtime = createToolRuntime(prepareToolSet(tools), { handlers: { lookup, lookup_plain: lookup } });

async function tasksOf() {
  if (kind === 'memory') {
    const { localExecutor, memoryTaskStore } = await import('toolprep/tasks');
    return { store: memoryTaskStore(), executor: localExecutor() };
  }
  if (kind === 'redis') {
    const { default: Redis } = await import('ioredis');
    const { fromIoredis, redisStreamsExecutor, redisTaskStore } = await import('toolprep/tasks/redis');
    const connection = fromIoredis(new Redis(redisUrl));
    return {
      store: redisTaskStore(connection),
      executor: redisStreamsExecutor(connection, { consumer: 'bench' }),
    };
  }
  throw new Error(`unknown store ${kind}: memory or redis`);
}

const server = await serveHttp(runtime, { name: 'bench-tasks', version: '1.0.0' }, 0, {
  tasks: await tasksOf(),
});
process.send({ port: server.address().port, tools: runtime.list().map((tool) => tool.name) });
process.on('message', (message) => {
  if (message === 'cpu') process.send({ cpu: process.cpuUsage() });
});
process.on('disconnect', () => process.exit(0));
