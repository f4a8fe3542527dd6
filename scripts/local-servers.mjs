// Servers the tests and the benchmarks start on this machine: a free loopback port, and Debian's
// redis-server on one (keeping nothing on disk), for the Redis task store and executor.
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

/** Starts redis-server and resolves once it answers PING; a port taken meanwhile is retried with another. */
export async function startRedisServer() {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePort();
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

async function startOnFreePort() {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-redis-'));
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
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
  return { port, url: `redis://127.0.0.1:${port}`, stop };
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
