import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type FixtureProject, mcpServerProject } from '../support/fixture-project.js';

/**
 * One stdio server for both eras: the SDK v2 client negotiates 2026-07-28 with it (each request
 * answered on its own, no SDK loaded), the v1 client starts a 2025 session, and a handler asks its
 * question the same way in both. The line reader refuses what is too long at once and goes on.
 */

const LIST = 'paths is a list written as text — pass the array itself, not JSON written as text';
const SERVER = `import { serveStdio } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import { tools } from './toolprep.gen.js';
const handlers = Object.fromEntries(tools.prepared.map((tool) => [tool.name, () => tool.name + ' done']));
handlers.tag_notes = ({ notes }) => 'tagged ' + notes.map((note) => note.title).join(', ');
// One question, asked the same way on both eras.
handlers.search = async ({ query }, context) => {
  const answer = await context.elicit({
    message: 'Which ' + query + '?',
    requestedSchema: { type: 'object', properties: { pick: { type: 'string' } } },
  });
  return context.era + ': picked ' + answer.content?.pick;
};
await serveStdio(createToolRuntime(tools, { handlers }), { name: 'both-eras', version: '1.0.0' }, { maxMessageBytes: Number(process.env.MAX_BYTES ?? 10485760) });`;

let project: FixtureProject;
let server: string;
beforeAll(async () => {
  project = await mcpServerProject('project', { 'both-eras': SERVER });
  server = path.join(project.dir, 'out/both-eras.js');
}, 120_000);
afterAll(() => project?.remove());

async function exercise(client: Client | ClientV1, era: 'modern' | 'legacy'): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toContain('tag_notes');
  expect(
    await client.callTool({
      name: 'tag_notes',
      arguments: { notes: JSON.stringify([{ title: 'a', tags: ['x'] }]) },
    }),
  ).toMatchObject({ content: [{ type: 'text', text: 'tagged a' }] });
  expect(await client.callTool({ name: 'delete_files', arguments: { paths: '["a","b"]' } })).toMatchObject({
    isError: true,
    content: [{ text: LIST }],
  });
  expect(await client.callTool({ name: 'search', arguments: { query: 'note' } })).toMatchObject({
    content: [{ text: `${era}: picked the first` }],
  });
}

describe('over stdio', () => {
  test('the SDK v2 client negotiates 2026-07-28, lists, calls (repaired, refused) and answers a question', async () => {
    const client = new Client(
      { name: 'test', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { pick: 'the first' },
    }));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [server] }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      await exercise(client, 'modern');
    } finally {
      await client.close();
    }
  });

  test('the SDK v1 client starts a 2025 session on the same server, and is asked the same question', async () => {
    const client = new ClientV1({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { pick: 'the first' },
    }));
    await client.connect(new StdioClientTransportV1({ command: process.execPath, args: [server] }));
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'both-eras' });
      await exercise(client, 'legacy');
    } finally {
      await client.close();
    }
  });

  test('a line over the limit is refused as soon as it is too long, and the next request is answered', async () => {
    const child = spawn(process.execPath, [server], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines: string[] = [];
    let buffered = '';
    const answered = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        const parts = buffered.split('\n');
        buffered = parts.pop() ?? '';
        lines.push(...parts);
        if (lines.length >= 2) resolve();
      });
    });
    // 20 MB of one line, in chunks, never ended by a newline until after the refusal.
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"');
    for (let written = 0; written < 20; written++) child.stdin.write(chunk);
    child.stdin.write('"}}\n');
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: meta } })}\n`,
    );
    await answered;
    child.kill();
    expect(JSON.parse(lines[0] as string)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: a message must not exceed 10485760 bytes' },
    });
    expect(JSON.parse(lines[1] as string)).toMatchObject({ id: 2, result: { resultType: 'complete' } });
  });
});
