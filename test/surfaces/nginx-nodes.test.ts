import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { requestHeaders, requestMeta, VERSION } from '../../scripts/mcp-2026-wire.mjs';
import { type FixtureProject, mcpServerProject } from '../support/fixture-project.js';
import { startNginx, stopProcess } from '../support/nginx.js';
import { needs } from '../support/services.js';

/**
 * MCP 2026-07-28 holds nothing between requests: behind a real nginx doing round robin over three
 * server processes that share one requestState key, every node lists the same bytes, and a
 * question asked by one node is answered on another. A node with another key refuses the state.
 */

const STATE_KEY = 'the key every node behind the balancer shares, 32+ characters';
const OTHER_KEY = 'a key of another deployment, also thirty-two characters';

// nginx forwards `Host: nodes` (the upstream's name); direct calls come with a loopback host.
const SERVER = `import { serveHttp } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import { tools } from './toolprep.gen.js';
const node = process.env.NODE_ID;
const handlers = Object.fromEntries(tools.prepared.map((tool) => [tool.name, () => 'node ' + node + ': ' + tool.name]));
handlers.tag_notes = ({ notes }) => 'node ' + node + ': tagged ' + notes.map((note) => note.title).join(', ');
handlers.search = async ({ query }, context) => {
  const answer = await context.elicit({
    message: 'Which ' + query + '?',
    requestedSchema: { type: 'object', properties: { pick: { type: 'string' } } },
  });
  return 'node ' + node + ': picked ' + answer.content?.pick;
};
const server = await serveHttp(createToolRuntime(tools, { handlers }), { name: 'nodes', version: '1.0.0' }, Number(process.env.PORT), {
  requestState: { key: process.env.STATE_KEY },
  allowedHosts: ['nodes', '127.0.0.1', 'localhost'],
});
console.log('listening on ' + server.address().port + ' as node ' + node);`;

interface Node {
  readonly id: string;
  readonly port: number;
}

// Every process this file starts, so that afterAll stops them even when beforeAll failed halfway.
const started: ChildProcess[] = [];

/** Starts one server process and waits for the port it got. */
function startNode(server: string, id: string, key: string): Promise<Node> {
  const child = spawn(process.execPath, [server], {
    env: { ...process.env, PORT: '0', NODE_ID: id, STATE_KEY: key },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const listening = /listening on (\d+) as node (\S+)/.exec(output);
      if (listening) resolve({ id: listening[2] as string, port: Number(listening[1]) });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) =>
      reject(new Error(`node ${id} exited (${code}) before listening:\n${output}`)),
    );
  });
}

const meta = (capabilities: Record<string, unknown> = {}) => requestMeta(capabilities);

interface Answer {
  readonly status: number;
  /** The node's address as nginx saw it (`127.0.0.1:port`), or the node's own for a direct call. */
  readonly upstream: string;
  readonly text: string;
  readonly body: { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

/** One POST as a 2026-07-28 client sends it, to `base` (nginx or one node). */
async function post(base: string, method: string, params: Record<string, unknown>): Promise<Answer> {
  const response = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: requestHeaders(method, params),
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { _meta: meta(), ...params } }),
  });
  const text = await response.text();
  return {
    status: response.status,
    upstream: response.headers.get('x-upstream') ?? new URL(base).host,
    text,
    body: JSON.parse(text),
  };
}

let project: FixtureProject | undefined;
let dir: string | undefined;
let nodes: Node[] = [];
let outsider: Node | undefined;
let balancer: string;
const direct = (node: Node) => `http://127.0.0.1:${node.port}`;

needs('nginx').describe('behind nginx, round robin over three nodes sharing one key', () => {
  beforeAll(async () => {
    project = await mcpServerProject('project', { nodes: SERVER });
    const server = path.join(project.dir, 'out/nodes.js');
    nodes = await Promise.all(['a', 'b', 'c'].map((id) => startNode(server, id, STATE_KEY)));
    outsider = await startNode(server, 'd', OTHER_KEY);

    dir = mkdtempSync(path.join(tmpdir(), 'toolprep-nginx-'));
    balancer = await startNginx(
      dir,
      nodes.map((node) => node.port),
      started,
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all(started.map(stopProcess));
    if (dir) rmSync(dir, { recursive: true, force: true });
    project?.remove();
  });

  const nodeAt = (upstream: string) => nodes.find((node) => upstream === `127.0.0.1:${node.port}`)?.id;

  test('every node lists the same bytes, through nginx and directly', async () => {
    const answers: Answer[] = [];
    for (let round = 0; round < 6; round++) answers.push(await post(balancer, 'tools/list', {}));
    expect(new Set(answers.map((answer) => nodeAt(answer.upstream)))).toEqual(new Set(['a', 'b', 'c']));
    const first = answers[0] as Answer;
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({
      resultType: 'complete',
      tools: expect.arrayContaining([expect.objectContaining({ name: 'search' })]),
    });
    for (const answer of answers) expect(answer.text).toBe(first.text);
    for (const node of nodes) expect((await post(direct(node), 'tools/list', {})).text).toBe(first.text);
  });

  test('a question asked by one node is answered on another, and the call completes there', async () => {
    const call = { name: 'search', arguments: { query: 'note' }, _meta: meta({ elicitation: { form: {} } }) };
    const asked = await post(balancer, 'tools/call', call);
    const result = asked.body.result as {
      resultType: string;
      inputRequests: Record<string, { method: string }>;
      requestState: string;
    };
    expect(result.resultType).toBe('input_required');
    expect(Object.values(result.inputRequests)).toMatchObject([{ method: 'elicitation/create' }]);
    const inputResponses = Object.fromEntries(
      Object.keys(result.inputRequests).map((key) => [key, { action: 'accept', content: { pick: 'x' } }]),
    );
    const retry = { ...call, inputResponses, requestState: result.requestState };
    // Round robin sends the next request to the next node; retry until one other than the asker answers.
    let answered = await post(balancer, 'tools/call', retry);
    for (let tries = 1; answered.upstream === asked.upstream && tries < 6; tries++)
      answered = await post(balancer, 'tools/call', retry);
    expect(answered.upstream).not.toBe(asked.upstream);
    const answerer = nodeAt(answered.upstream);
    expect(answerer).toBeDefined();
    expect(answered.body.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: `node ${answerer}: picked x` }],
    });

    // The same state also completes on every node addressed directly.
    for (const node of nodes)
      expect((await post(direct(node), 'tools/call', retry)).body.result).toMatchObject({
        content: [{ text: `node ${node.id}: picked x` }],
      });
  });

  test('the SDK v2 client, through nginx, lists, calls and answers a question asked by another node', async () => {
    const client = new Client(
      { name: 'test', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: VERSION } } },
    );
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { pick: 'x' },
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(`${balancer}/mcp`)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(VERSION);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('tag_notes');
      expect(
        await client.callTool({ name: 'tag_notes', arguments: { notes: [{ title: 'a', tags: ['x'] }] } }),
      ).toMatchObject({ content: [{ text: expect.stringMatching(/^node [abc]: tagged a$/) }] });
      const searched = await client.callTool({ name: 'search', arguments: { query: 'q' } });
      expect(searched).toMatchObject({
        content: [{ text: expect.stringMatching(/^node [abc]: picked x$/) }],
      });
    } finally {
      await client.close();
    }
    // nginx's log of the client's two search requests: the question and the retry, on two nodes.
    const searches = readFileSync(path.join(dir as string, 'access.log'), 'utf8')
      .trim()
      .split('\n')
      .filter((line) => line.startsWith('tools/call search '))
      .slice(-2)
      .map((line) => line.split(' ')[2]);
    expect(searches).toHaveLength(2);
    expect(searches[0]).not.toBe(searches[1]);
  });

  test('a node with another key refuses the state a node of the balancer signed', async () => {
    const call = { name: 'search', arguments: { query: 'note' }, _meta: meta({ elicitation: { form: {} } }) };
    const result = (await post(balancer, 'tools/call', call)).body.result as {
      inputRequests: Record<string, unknown>;
      requestState: string;
    };
    const inputResponses = Object.fromEntries(
      Object.keys(result.inputRequests).map((key) => [key, { action: 'accept', content: { pick: 'x' } }]),
    );
    const refused = await post(direct(outsider as Node), 'tools/call', {
      ...call,
      inputResponses,
      requestState: result.requestState,
    });
    expect(refused.body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^requestState refused: /),
    });
  });
});
