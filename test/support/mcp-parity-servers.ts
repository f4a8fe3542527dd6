import { randomUUID } from 'node:crypto';
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/server';

/**
 * The user's own servers of the MCP parity table: an SDK v2 `McpServer` and an SDK v1 one, each
 * with a resource and prompts of its own beside the tools toolprep attaches, and the plain
 * `node:http` shells the user would put them in.
 */

/** Prompts the user's application adds while it runs (its prompt list changes). */
export const addedPrompts: string[] = [];

/** The user's SDK v2 server, made per request (as `createMcpHandler` asks), without the tools. */
export function userV2Server(): McpServer {
  const server = new McpServer({ name: 'user-v2', version: '2.0.0' });
  server.registerResource('readme', 'notes://readme', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, text: 'Notes, tagged.' }],
  }));
  for (const name of ['summarise', ...addedPrompts])
    server.registerPrompt(name, { description: `The ${name} prompt.` }, () => ({
      messages: [{ role: 'user', content: { type: 'text', text: name } }],
    }));
  return server;
}

/** The user's SDK v1 server, without the tools. */
export function userV1Server(): McpServerV1 {
  const server = new McpServerV1({ name: 'user-v1', version: '1.0.0' });
  server.registerPrompt('summarise', { description: 'Summarise the notes.' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'Summarise my notes.' } }],
  }));
  return server;
}

interface Listening {
  readonly url: string;
  close(): Promise<void>;
}

/** Listens on a loopback port with a Node request handler. */
export async function listen(
  handle: (request: IncomingMessage, response: ServerResponse) => unknown,
): Promise<Listening> {
  const http: HttpServer = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/**
 * An SDK v1 server served the SDK's own way, with sessions: a transport per session, kept by its
 * id (the SDK's README example), the server made for each new session.
 */
export function v1SessionHandler(
  makeServer: () => { connect(transport: StreamableHTTPServerTransport): Promise<void> },
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  return async (request, response) => {
    const session = request.headers['mcp-session-id'];
    const known = typeof session === 'string' ? transports.get(session) : undefined;
    if (known) return known.handleRequest(request, response);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
    };
    await makeServer().connect(transport);
    await transport.handleRequest(request, response);
  };
}
