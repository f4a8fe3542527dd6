import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import type { ToolRuntime } from '../../../runtime/runner.js';
import { failureOf, logError } from '../../../shared/run/on-error.js';
import type { McpServerInfo } from '../service/tool-service.js';
import { httpExchange } from './http-exchange.js';
import type { McpHttpOptions } from './http-options.js';
import { addHeaders, type HttpPort, whenAborted } from './http-port.js';

/**
 * A Node request handler for MCP over Streamable HTTP, in both protocol eras. A 2026-07-28 request
 * is answered by toolprep on its own (nothing is kept between requests, so any number of processes
 * serve behind a load balancer). A 2025 request is the SDK's: stateless by default, a fresh server
 * per request (`initialize`, `ping` and `tools/list` answered from the prepared bytes when toolprep
 * makes the server), or with `sessions`, a server per client session. A request whose `Host` or
 * `Origin` is not allowed is refused with 403, and a body over `maxBodyBytes` with 413, unread. A
 * browser on an allowed origin gets its preflight answered and CORS headers on every answer. Give
 * `parsedBody` when a framework has read the body already (Express's `express.json()`).
 */
export function createMcpHttpHandler(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: McpHttpOptions = {},
): (request: IncomingMessage, response: ServerResponse, parsedBody?: unknown) => Promise<void> {
  const exchange = httpExchange(runtime, info, options, {
    legacy: () => import('./legacy-exchange.js'),
    // Node resolves jose when the first token comes, so `auth.issuer` alone is enough here.
    jwtVerifier: () => import('./jwt-verifier.js'),
  });
  return async (request, response, parsedBody) => {
    await exchange(nodePort(request, response), parsedBody);
  };
}

/** The exchange's port on Node's `http`: the response closing before it is finished is the client going. */
function nodePort(request: IncomingMessage, response: ServerResponse): HttpPort<Promise<void>> {
  let controller: AbortController | undefined;
  const view = {
    method: request.method ?? '',
    host: headerOf(request, 'host') ?? '',
    path: (request.url ?? '/').split('?')[0] as string,
    header: (name: string) => headerOf(request, name),
  };
  const port: HttpPort<Promise<void>> = {
    request: view,
    get signal() {
      if (!controller) {
        const made = new AbortController();
        controller = made;
        // Closed before the answer was finished: the client went away.
        response.once('close', () => {
          if (!response.writableFinished) made.abort();
        });
      }
      return controller.signal;
    },
    readBody: (maxBytes) => readBody(request, maxBytes),
    asRequest: (body) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers))
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      return new Request(`http://${view.host}${request.url ?? '/'}`, {
        method: view.method,
        headers,
        ...(body === undefined || view.method === 'GET' || view.method === 'HEAD' ? {} : { body }),
        signal: port.signal,
      });
    },
    async reply(status, headers, body) {
      // Only a failure after a stream began finds its headers sent: the stream is ended.
      if (response.headersSent) {
        response.end();
        return;
      }
      // A body over the limit is left unread: the connection closes once the answer is out.
      response.writeHead(status, status === 413 ? { ...headers, connection: 'close' } : headers);
      response.end(body ?? undefined);
    },
    stream(headers) {
      response.writeHead(200, headers);
      return {
        send: (event) => void response.write(event),
        end: () => void response.end(),
        reply: Promise.resolve(),
      };
    },
    async relay(answer, added) {
      const headers = new Headers(answer.headers);
      if (added) addHeaders(headers, added);
      response.writeHead(answer.status, Object.fromEntries(headers));
      if (answer.body) {
        const reader = answer.body.getReader();
        // The client going cancels the answer's stream: a listen stream, a 2025 session's GET.
        whenAborted(port.signal, () => void reader.cancel().catch(() => {}));
        for (;;) {
          const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (done) break;
          // A client that went never drains: its close ends the wait, and the cancelled read the loop.
          if (!response.write(value))
            await new Promise((resolve) => {
              response.once('drain', resolve);
              response.once('close', resolve);
            });
        }
      }
      response.end();
    },
  };
  return port;
}

function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * A request's body as text, or undefined when it is over `maxBytes`: a declared length over it is
 * refused before anything is read, and a stream that outgrows it is left unread from there on.
 */
async function readBody(request: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  if (Number(request.headers['content-length']) > maxBytes) return undefined;
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request) {
    length += (chunk as Buffer).length;
    if (length > maxBytes) {
      request.pause();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Listens for MCP over Streamable HTTP on `port` (0 for any free port), at every path. */
export async function serveHttp(
  runtime: ToolRuntime,
  info: McpServerInfo,
  port: number,
  options: McpHttpOptions = {},
): Promise<HttpServer> {
  const handle = createMcpHttpHandler(runtime, info, options);
  const onerror = options.onerror ?? logError;
  // Imported here: loading node:http costs a stdio server 5 ms at start-up.
  const { createServer } = await import('node:http');
  // The exchange answers its own failures; what is left is a socket that broke under it.
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      onerror(failureOf('an MCP response could not be written', error));
      response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}
