import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/**
 * The page side of test/surfaces/mcp-browser.test.ts, bundled for the browser with esbuild: the
 * official MCP clients as a web page runs them, each listing the tools and calling one — the SDK
 * v1 client in a 2025 session, the SDK v2 client pinned to 2026-07-28 — and a 2026-07-28 call
 * with its `Mcp-Param-*` header sent by hand. What fails comes back as the error's text, since a
 * refused request is what some cases expect.
 */

export interface PageOutcome {
  readonly version?: string | undefined;
  readonly session?: string | undefined;
  readonly tools?: readonly string[];
  readonly text?: string | undefined;
  /** What calling the tool that mirrors an argument into a header gave the client. */
  readonly mirrored?: string | undefined;
  readonly error?: string;
}

export interface PageClients {
  session2025(url: string): Promise<PageOutcome>;
  stateless2026(url: string): Promise<PageOutcome>;
  mirroredCall(url: string): Promise<PageOutcome>;
}

const MODERN = '2026-07-28';

const info = { name: 'page', version: '1.0.0' };

/** The text of a call result's first content block (the v1 client types its result as a union). */
function textOf(result: unknown): string | undefined {
  return (result as { content?: { text?: string }[] }).content?.[0]?.text;
}

async function outcome(run: () => Promise<PageOutcome>): Promise<PageOutcome> {
  try {
    return await run();
  } catch (error) {
    return { error: String(error) };
  }
}

const clients: PageClients = {
  session2025: (url) =>
    outcome(async () => {
      const client = new LegacyClient(info);
      const transport = new LegacyTransport(new URL(url));
      await client.connect(transport);
      const { tools } = await client.listTools();
      const result = await client.callTool({ name: 'count_notes', arguments: { folder: 'inbox' } });
      const session = transport.sessionId;
      await transport.terminateSession();
      await client.close();
      return {
        version: transport.protocolVersion,
        session,
        tools: tools.map((tool) => tool.name),
        text: textOf(result),
      };
    }),
  stateless2026: (url) =>
    outcome(async () => {
      const client = new Client(info, { versionNegotiation: { mode: { pin: MODERN } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const version = client.getNegotiatedProtocolVersion();
      const { tools } = await client.listTools();
      const result = await client.callTool({ name: 'count_notes', arguments: { folder: 'inbox' } });
      const mirrored = await client
        .callTool({ name: 'deploy', arguments: { region: 'eu-west' } })
        .then(textOf, (error: unknown) => String(error));
      await client.close();
      return { version, tools: tools.map((tool) => tool.name), text: textOf(result), mirrored };
    }),
  mirroredCall: (url) =>
    outcome(async () => {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN,
          'mcp-method': 'tools/call',
          'mcp-name': 'deploy',
          'mcp-param-region': 'eu-west',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'deploy',
            arguments: { region: 'eu-west' },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': MODERN,
              'io.modelcontextprotocol/clientCapabilities': {},
              'io.modelcontextprotocol/clientInfo': info,
            },
          },
        }),
      });
      const { result } = (await response.json()) as { result: { content?: unknown } };
      return { text: textOf(result) };
    }),
};

(globalThis as unknown as { mcp: PageClients }).mcp = clients;
