// MCP tasks (the `io.modelcontextprotocol/tasks` extension of 2026-07-28): what a task costs over a
// plain call of the same tool on the same server, with each store: the memory store and the local
// executor, and the Redis store and the Redis Streams executor against a redis-server started
// here. Each server (bench/tasks-server.mjs) in a child process of its own, requests over loopback
// HTTP, the stores and the kinds of request interleaved round by round. Section 3d of
// `npm run bench`; alone: `node bench/run.mjs --only tasks` or `node bench/tasks.mjs [--quick]`
// (after `npm run build`).
import { fork } from 'node:child_process';
import { Agent } from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { startRedisServer } from '../scripts/local-servers.mjs';
import { requestHeaders, requestMeta } from '../scripts/mcp-2026-wire.mjs';
import { REPO } from './contracts.mjs';
import { postText } from './mcp-2026.mjs';

const TASKS = 'io.modelcontextprotocol/tasks';
const DECLARING = { extensions: { [TASKS]: {} } };
const PLAIN = {};
const LABELS = {
  memory: 'memory store, local executor',
  redis: 'Redis store, Redis Streams executor',
};

function startServer(kind, redisUrl) {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(REPO, 'bench/tasks-server.mjs'), [kind, ...(redisUrl ? [redisUrl] : [])], {
      execArgv: [],
      cwd: REPO,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.once('message', ({ port, tools }) => {
      if (!tools.includes('lookup')) reject(new Error(`the ${kind} server lists no lookup: ${tools}`));
      resolve({ kind, child, port, agent: new Agent({ keepAlive: true, maxSockets: 1 }) });
    });
    child.once('exit', (code) => reject(new Error(`the ${kind} server exited (${code}) before listening`)));
  });
}

function stopServer(server) {
  server.agent.destroy();
  server.child.disconnect();
}

/** The CPU milliseconds the server's process has used so far. */
function cpuOf(server) {
  return new Promise((resolve) => {
    server.child.once('message', ({ cpu }) => resolve((cpu.user + cpu.system) / 1000));
    server.child.send('cpu');
  });
}

let nextId = 0;

/**
 * One 2026-07-28 POST on a kept-alive connection, `Mcp-Name` set as the spec says (the tool's name,
 * or the task id): its status and body text.
 */
function post(server, method, params, capabilities, agent = server.agent) {
  const text = JSON.stringify({
    jsonrpc: '2.0',
    id: ++nextId,
    method,
    params: { _meta: requestMeta(capabilities), ...params },
  });
  return postText(
    server.port,
    agent,
    requestHeaders(method, params, { authorization: 'Bearer bench' }),
    text,
  );
}

/** The result of an answer, or a thrown error saying what came instead. */
function resultOf(answer, what) {
  const message = answer.status === 200 ? JSON.parse(answer.text) : undefined;
  if (!message?.result) throw new Error(`${what}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
  return message.result;
}

/** A CallToolResult whose text is the lookup's answer for `word`. */
function checkToolResult(result, word, what) {
  if (result?.isError || result?.content?.[0]?.text !== `${word}: a word`)
    throw new Error(`${what}: not the lookup of ${word}: ${JSON.stringify(result).slice(0, 300)}`);
}

const call = (word, name = 'lookup') => ({ name, arguments: { word } });

/**
 * A plain call: `lookup` from a client that does not declare the extension, so an immediate
 * result; or `lookup_plain`, the same tool with no task policy.
 */
async function plainCall(server, word, name) {
  const started = performance.now();
  const answer = await post(server, 'tools/call', call(word, name), PLAIN);
  const ms = performance.now() - started;
  return {
    ms,
    check: () => {
      const result = resultOf(answer, `${server.kind} plain call`);
      if (result.resultType !== 'complete')
        throw new Error(`${server.kind} plain call: not a complete result: ${answer.text.slice(0, 300)}`);
      checkToolResult(result, word, `${server.kind} plain call`);
    },
  };
}

/**
 * A task: `lookup` from a declaring client (the handle), then `tasks/get` back to back until one
 * shows it completed. The times of the handle, of the first `tasks/get`, and from the call to the
 * `tasks/get` that showed it completed; and the number of `tasks/get` that took.
 */
async function task(server, word) {
  const started = performance.now();
  const handle = await post(server, 'tools/call', call(word), DECLARING);
  const handled = performance.now();
  const taskId = JSON.parse(handle.text).result?.taskId;
  if (typeof taskId !== 'string')
    throw new Error(
      `${server.kind} task: no task handle: HTTP ${handle.status} ${handle.text.slice(0, 300)}`,
    );
  const polls = [];
  let firstMs;
  for (;;) {
    const poll = await post(server, 'tasks/get', { taskId }, DECLARING);
    firstMs ??= performance.now() - handled;
    polls.push(poll);
    const status = poll.status === 200 ? JSON.parse(poll.text).result?.status : undefined;
    if (status !== 'working') break;
    if (performance.now() - started > 10_000)
      throw new Error(`${server.kind} task ${taskId} still ${status} after 10 s`);
  }
  const doneMs = performance.now() - started;
  return {
    handleMs: handled - started,
    firstMs,
    doneMs,
    polls: polls.length,
    firstCompleted: polls.length === 1,
    taskId,
    check: () => {
      const handleResult = resultOf(handle, `${server.kind} task handle`);
      if (handleResult.resultType !== 'task')
        throw new Error(
          `${server.kind} task: the call was not answered with a task: ${handle.text.slice(0, 300)}`,
        );
      polls.forEach((poll, index) => {
        const got = resultOf(poll, `${server.kind} tasks/get of ${taskId}`);
        if (got.taskId !== taskId)
          throw new Error(`${server.kind} tasks/get answered for ${got.taskId}, not ${taskId}`);
        const last = index === polls.length - 1;
        if (!last && got.status !== 'working')
          throw new Error(`${server.kind} tasks/get: status ${got.status} before completion`);
        if (last) {
          if (got.status !== 'completed')
            throw new Error(`${server.kind} task ${taskId} ended ${got.status}: ${poll.text.slice(0, 300)}`);
          checkToolResult(got.result, word, `${server.kind} task ${taskId}`);
        }
      });
    },
  };
}

/** Median, min and max of a list of numbers. */
function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted[sorted.length - 1] };
}
const num = (x) => x.toFixed(x < 10 ? 2 : 1);
const ms = ({ median, min, max }) => `${num(median)} (${num(min)}–${num(max)})`;

/**
 * `tasks/get` of one completed task, `inFlight` at a time on as many connections, for `seconds`
 * after a warm-up: polls per second, and the server's CPU per poll. Every answer is checked after.
 */
async function pollRate(server, word, { inFlight, seconds, warmupSeconds }) {
  const made = await task(server, word);
  made.check();
  const { taskId } = made;
  const agent = new Agent({ keepAlive: true, maxSockets: inFlight });
  try {
    const hammer = async (forMs, answers) => {
      const until = performance.now() + forMs;
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (performance.now() < until)
            answers.push(await post(server, 'tasks/get', { taskId }, DECLARING, agent));
        }),
      );
    };
    await hammer(warmupSeconds * 1000, []);
    const answers = [];
    const cpuBefore = await cpuOf(server);
    const clientBefore = process.cpuUsage();
    const started = performance.now();
    await hammer(seconds * 1000, answers);
    const elapsed = performance.now() - started;
    const clientCpu = process.cpuUsage(clientBefore);
    const cpuAfter = await cpuOf(server);
    for (const answer of answers) {
      const got = resultOf(answer, `${server.kind} tasks/get of ${taskId}`);
      if (got.taskId !== taskId || got.status !== 'completed')
        throw new Error(`${server.kind} poll of ${taskId}: not completed: ${answer.text.slice(0, 300)}`);
      checkToolResult(got.result, word, `${server.kind} poll of ${taskId}`);
    }
    return {
      perSecond: (answers.length * 1000) / elapsed,
      cpuPerPoll: (cpuAfter - cpuBefore) / answers.length,
      clientShare: (clientCpu.user + clientCpu.system) / 1000 / elapsed,
      polls: answers.length,
    };
  } finally {
    agent.destroy();
  }
}

export async function benchmarkTasks({ quick }) {
  const options = quick
    ? { warmup: 10, runs: 40, budgetMs: 30_000, seconds: 1, warmupSeconds: 0.25 }
    : { warmup: 30, runs: 200, budgetMs: 120_000, seconds: 3, warmupSeconds: 0.5 };
  const inFlight = 16;
  const redis = await startRedisServer();
  const servers = [];
  try {
    servers.push(await startServer('memory'));
    servers.push(await startServer('redis', redis.url));
    // Each task its own word: the repeat window (equal calls within 60 s) never answers with an earlier task.
    let counter = 0;
    const word = () => `w${++counter}`;
    const measured = Object.fromEntries(
      servers.map((server) => [
        server.kind,
        { plain: [], never: [], handle: [], first: [], done: [], polls: [], firstCompleted: 0 },
      ]),
    );
    // One round: a plain call, a call of the tool with no task policy, and a task on each server,
    // the order reversed every other round.
    const steps = servers.flatMap((server) => [
      ['plain', server],
      ['never', server],
      ['task', server],
    ]);
    const round = async (index, record) => {
      const order = index % 2 === 0 ? steps : [...steps].reverse();
      const checks = [];
      for (const [kind, server] of order) {
        const into = measured[server.kind];
        if (kind === 'task') {
          const made = await task(server, word());
          checks.push(made.check);
          if (record) {
            into.handle.push(made.handleMs);
            into.first.push(made.firstMs);
            into.done.push(made.doneMs);
            into.polls.push(made.polls);
            if (made.firstCompleted) into.firstCompleted++;
          }
        } else {
          const plain = await plainCall(server, word(), kind === 'plain' ? 'lookup' : 'lookup_plain');
          checks.push(plain.check);
          if (record) into[kind].push(plain.ms);
        }
      }
      // After the clock: every answer is what it should be.
      for (const check of checks) check();
    };
    for (let index = 0; index < options.warmup; index++) await round(index, false);
    const deadline = performance.now() + options.budgetMs;
    let rounds = 0;
    while (rounds < options.runs && performance.now() < deadline) await round(rounds++, true);
    const rates = {};
    for (const server of servers)
      rates[server.kind] = await pollRate(server, word(), {
        inFlight,
        seconds: options.seconds,
        warmupSeconds: options.warmupSeconds,
      });

    const rows = servers.map(({ kind }) => {
      const m = measured[kind];
      const plain = stats(m.plain);
      const done = stats(m.done);
      const polls = stats(m.polls);
      const rate = rates[kind];
      return `| ${LABELS[kind]} | ${ms(plain)} | ${ms(stats(m.never))} | ${ms(stats(m.handle))} | ${ms(stats(m.first))} | ${ms(done)} | ${polls.median} (${polls.min}–${polls.max}); completed at the first: ${m.firstCompleted} of ${m.done.length} | **${(done.median / plain.median).toFixed(1)}×** | ${Math.round(rate.perSecond).toLocaleString('en-US')} (server CPU ${(rate.cpuPerPoll * 1000).toFixed(0)} µs per poll; the client ${Math.round(rate.clientShare * 100)}% of a core) | ${m.done.length} |`;
    });
    return [
      `Over loopback HTTP, each server in a child process of its own (bench/tasks-server.mjs), serving \`lookup\` (\`task: 'optional'\`, a handler that returns its text at once) and \`lookup_plain\` (the same, with no task policy) with the memory store and the local executor, or with the Redis store and the Redis Streams executor on ioredis against a redis-server started for the run (a free port, no persistence). A plain call is \`tools/call\` of \`lookup\` from a client that does not declare the extension (an immediate result), beside the same call of \`lookup_plain\`, the same tool with no task policy; a task is the same call from a client that does (the handle), then \`tasks/get\` back to back, no sleep, until one shows \`completed\` ("call → completed" is from the call to that answer). Every answer is checked after the clock (the plain result, the handle, each poll \`working\` until the last, \`completed\` with the lookup's text); each call has its own word, so the 60 s repeat window never answers with an earlier task. Milliseconds as the client sees them, on one kept-alive connection per server, median (min–max) over ${rounds} rounds after ${options.warmup} of warm-up, each round a plain call, a call of \`lookup_plain\` and a task on each server, the order reversed every other round. Polls per second: \`tasks/get\` of one completed task, ${inFlight} in flight on ${inFlight} kept-alive connections, for ${options.seconds} s after ${options.warmupSeconds} s of warm-up, one store after the other; the client, the server and redis-server share the machine's cores.`,
      '',
      `| store and executor | plain call ms | the same tool with no task policy | task: \`tools/call\` → handle | first \`tasks/get\` | call → \`completed\` | \`tasks/get\` per task | task ÷ plain call | \`tasks/get\` per second, ${inFlight} in flight | tasks |`,
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
    ].join('\n');
  } finally {
    for (const server of servers) stopServer(server);
    await redis.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${await benchmarkTasks({ quick: process.argv.includes('--quick') })}\n`);
}
