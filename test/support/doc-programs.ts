import { type ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { PageSnippets, Snippet } from './doc-snippets.js';
import { importsOf } from './layering.js';

/**
 * How a block that is a program is run, and what shows that it works:
 * - `exits`: it runs to its end, with exit code 0;
 * - `stdio-server` (it calls `serveStdio`): the official MCP client lists its tools over stdio;
 * - `http-server` (`serveHttp`, `.listen(`, `Deno.serve`, `Bun.serve`): the client lists its tools
 *   over HTTP, under the host the page's `allowedHosts` names (its port, 3000 or 8000, is
 *   replaced by a free one, so that runs in parallel never meet);
 * - `fetch-module` (it exports a fetch handler: `export default { fetch }`, a Hono app, route
 *   handlers `POST`/`GET`): Node imports it and the client lists its tools through the handler.
 * A block that another block of its page imports is a module, and a config (`*.config.*`) is read
 * by its tool (`toolprep generate` reads `toolprep.config.ts`): neither is run on its own.
 */
export type ProgramKind = 'exits' | 'stdio-server' | 'http-server' | 'fetch-module';

export interface Program {
  readonly snippet: Snippet;
  readonly kind: ProgramKind;
}

export function kindOf(code: string): ProgramKind {
  if (/\bserveStdio\(/.test(code)) return 'stdio-server';
  if (/\b(?:serveHttp\(|Deno\.serve\(|Bun\.serve\()|\.listen\(/.test(code)) return 'http-server';
  if (/^export (?:default\b|const (?:POST|GET|fetch)\b)/m.test(code)) return 'fetch-module';
  return 'exits';
}

const withoutExtension = (file: string): string => file.replace(/\.(?:[mc]?[jt]s|tsx)$/, '');

/** The page's own blocks that are programs; `base` are the files its project holds beside them. */
export function programsOf(page: PageSnippets, base: readonly Snippet[]): Program[] {
  const imported = new Set(
    [...base, ...page.snippets].flatMap((snippet) =>
      importsOf(snippet.code)
        .map(({ specifier }) => specifier)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => withoutExtension(path.posix.join(path.posix.dirname(snippet.file), specifier))),
    ),
  );
  return page.snippets
    .filter((snippet) => !imported.has(withoutExtension(snippet.file)))
    .filter((snippet) => !/(?:^|[./])config\.[mc]?[jt]s$/.test(snippet.file))
    .map((snippet) => ({ snippet, kind: kindOf(snippet.code) }));
}

/** What a program's run gave: its tools (for a server or a handler), or its output. */
export interface Outcome {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly tools?: readonly string[];
}

export interface RunOptions {
  readonly projectDir: string;
  /** The command that runs it: `[program, ...arguments]`, in its page's folder. */
  readonly command: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** For an `http-server`: the port it was given, and the host its page allows. */
  readonly port?: number;
  readonly host?: string;
  readonly timeoutMs?: number;
}

/** Runs a program as its kind says, and says what came of it. */
export async function runProgram(program: Program, folder: string, options: RunOptions): Promise<Outcome> {
  const cwd = path.join(options.projectDir, folder);
  const [command = '', ...args] = options.command;
  const env = { ...process.env, ...options.env, NO_COLOR: '1' };
  if (program.kind === 'stdio-server') {
    const client = new Client({ name: 'docs-snippets', version: '1.0.0' });
    const transport = new StdioClientTransport({ command, args, cwd, env, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      return { status: 0, stdout: '', stderr, tools: tools.map((tool) => tool.name) };
    } catch (error) {
      return { status: null, stdout: '', stderr: `${stderr}\n${(error as Error).message}` };
    } finally {
      await client.close();
    }
  }
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collect(child);
  const ended = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const deadline = timeout(options.timeoutMs ?? 30_000);
  if (program.kind !== 'http-server') {
    const status = await Promise.race([ended, deadline.promise]).finally(deadline.cancel);
    if (status === 'timeout') child.kill();
    const { stdout, stderr } = output();
    // The exercising script prints the tools on its last line.
    const last = stdout.trim().split('\n').at(-1);
    const listed = program.kind === 'fetch-module' && last ? (JSON.parse(last) as string[]) : null;
    return {
      status: status === 'timeout' ? null : status,
      stdout,
      stderr: status === 'timeout' ? `${stderr}\n(timed out)` : stderr,
      ...(listed ? { tools: listed } : {}),
    };
  }
  const stop = new AbortController();
  try {
    const tools = await Promise.race([
      listOverHttp(options.port ?? 0, options.host ?? '127.0.0.1', stop.signal),
      ended.then((status) => Promise.reject(new Error(`exited with ${status} before it answered`))),
      deadline.promise.then(() => Promise.reject(new Error('did not answer in time'))),
    ]);
    return { status: 0, ...output(), tools };
  } catch (error) {
    return { status: null, ...output(), stderr: `${output().stderr}\n${(error as Error).message}` };
  } finally {
    stop.abort();
    deadline.cancel();
    child.kill();
  }
}

function collect(child: ChildProcess): () => { stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  return () => ({ stdout, stderr });
}

function timeout(ms: number): { promise: Promise<'timeout'>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/** Lists a server's tools with the official client, retrying until the server listens. */
async function listOverHttp(port: number, host: string, signal: AbortSignal): Promise<string[]> {
  while (!signal.aborted) {
    const client = new Client({ name: 'docs-snippets', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://${host}:${port}/mcp`), {
          fetch: loopbackFetch(port),
        }),
      );
      const { tools } = await client.listTools();
      return tools.map((tool) => tool.name);
    } catch (error) {
      if (!/ECONNREFUSED/.test(String((error as Error).cause ?? error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.close();
    }
  }
  throw new Error('stopped before the server answered');
}

/**
 * A `fetch` that sends every request to 127.0.0.1:`port` with the URL's own `Host` (Node's
 * `fetch` sends the URL's host and no other), so that a server that allows only its public host
 * can be reached on loopback.
 */
function loopbackFetch(port: number): typeof fetch {
  return (input, init) =>
    new Promise((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const headers = Object.fromEntries(new Headers(init?.headers));
      const sent = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: init?.method ?? 'GET',
          path: `${url.pathname}${url.search}`,
          headers: { ...headers, host: url.host },
          ...(init?.signal ? { signal: init.signal } : {}),
        },
        (response) => {
          const status = response.statusCode ?? 500;
          const body = status === 204 || status === 304 ? null : (Readable.toWeb(response) as ReadableStream);
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers))
            if (value !== undefined) responseHeaders.set(name, String(value));
          resolve(new Response(body, { status, headers: responseHeaders }));
        },
      );
      sent.on('error', reject);
      sent.end(typeof init?.body === 'string' ? init.body : undefined);
    });
}

/**
 * The script that exercises a `fetch-module` in Node: imports it, picks its handler for each
 * request (`POST`, `GET`… by method, else the default export's `fetch`), and prints the tools the
 * official client lists through it, under the host the page allows.
 */
export const FETCH_MODULE_SCRIPT = `import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [file, host] = process.argv.slice(2);
const module = await import(pathToFileURL(file).href);
const handle = (request) => (module[request.method] ?? module.default.fetch)(request);
const client = new Client({ name: 'docs-snippets', version: '1.0.0' });
await client.connect(
  new StreamableHTTPClientTransport(new URL(\`http://\${host}/mcp\`), { fetch: (url, init) => handle(new Request(url, init)) }),
);
const { tools } = await client.listTools();
await client.close();
console.log(JSON.stringify(tools.map((tool) => tool.name)));
`;
