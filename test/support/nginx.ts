import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../scripts/local-servers.mjs';

/**
 * Debian's nginx as a round-robin balancer in front of server processes, for the tests that run
 * several nodes (no affinity: each request goes to the next node). Undefined when nginx is not
 * installed: those tests are skipped, or fail under CI (`needs('nginx')`, test/support/services.ts).
 */
export const NGINX = ['/usr/sbin/nginx', 'nginx'].find(
  (command) => spawnSync(command, ['-v'], { stdio: 'ignore' }).status === 0,
);

/**
 * Every path inside `dir`, so it runs as any user without touching /etc or /var. Each answer says
 * which node gave it (`X-Upstream`). A POST is passed on to the next node when one is down
 * (`non_idempotent`): a refused connection never reached a node, and a killed node must not turn
 * the calls that would have gone to it into 502s.
 */
function nginxConfig(dir: string, port: number, upstreams: readonly number[]): string {
  return `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  log_format calls '$http_mcp_method $http_mcp_name $upstream_addr $status';
  access_log ${dir}/access.log calls;
  upstream nodes {
${upstreams.map((upstream) => `    server 127.0.0.1:${upstream};`).join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://nodes;
      proxy_http_version 1.1;
      proxy_buffering off;
      proxy_next_upstream error timeout non_idempotent;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/**
 * Starts nginx in `dir` before the nodes listening on `upstreams`, and waits until it answers
 * through one of them. Its process goes into `started`, for the caller's afterAll to stop.
 */
export async function startNginx(
  dir: string,
  upstreams: readonly number[],
  started: ChildProcess[],
): Promise<string> {
  if (!NGINX) throw new Error('nginx is not installed (apt-get install nginx)');
  const port = await freePort();
  writeFileSync(path.join(dir, 'nginx.conf'), nginxConfig(dir, port, upstreams));
  let errors = '';
  const nginx = spawn(
    NGINX,
    ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  started.push(nginx);
  nginx.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString('utf8');
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited (${nginx.exitCode}):\n${errors}`);
    try {
      // Any HTTP answer from a node will do: a bare GET proves the proxying, not the protocol.
      const response = await fetch(`${url}/mcp`);
      if (response.headers.get('x-upstream')) return url;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`nginx did not answer in 10 s:\n${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Stops a process the test started (SIGTERM), unless it has exited already. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
