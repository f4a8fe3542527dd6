// Servers the tests and the benchmarks start on this machine: a free loopback port, and Debian's
// redis-server on one (its append-only file in a temporary folder), for the Redis task store and executor.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const REDIS_SERVER = '/usr/bin/redis-server';
export const redisServerInstalled = existsSync(REDIS_SERVER);

/** A port that was free a moment ago (closed again before it is used: the server takes it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts redis-server and resolves once it answers PING; a port taken meanwhile is retried with
 * another. It keeps an append-only file in a folder of its own (as a Redis that keeps tasks should:
 * the task store warns otherwise), unless `appendonly: false`; `args` are more of its options.
 * `halt()` stops it and keeps its folder, `restart()` starts it again on the same port and folder,
 * `stop()` stops it for good.
 */
export async function startRedisServer({ appendonly = true, args = [] } = {}) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-redis-'));
    const options = [
      ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''],
      ...['--appendonly', appendonly ? 'yes' : 'no', ...args],
    ];
    let running;
    try {
      running = await launch(port, options);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      if (attempt === 3) throw error;
      continue;
    }
    return {
      port,
      url: `redis://127.0.0.1:${port}`,
      halt: () => running.stop(),
      restart: async () => {
        await running.stop();
        running = await launch(port, options);
      },
      stop: async () => {
        await running.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
}

async function launch(port, options) {
  const child = spawn(REDIS_SERVER, options, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode === null && (await answersPing(port))) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server did not start on port ${port}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { stop };
}

function answersPing(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    const done = (answered) => {
      socket.destroy();
      resolve(answered);
    };
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk;
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
    socket.once('error', () => done(false));
  });
}
