import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * OpenAI (Chat Completions and Responses), Anthropic's Messages API and Gemini's generateContent
 * on one loopback port, for programs that make each SDK's client as its docs say (`new OpenAI()`)
 * and find it through the SDK's own environment variables. Each answers a request that offers
 * `read_notes` with a call to it (`{ "paths": ["todo.md"] }`), and a request that carries the
 * tool's result with text; a request that offers no `read_notes` is refused, so a program whose
 * tools did not reach the provider fails.
 */
export interface ScriptedProviders {
  /** The environment that points every SDK here. */
  readonly env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

const ARGUMENTS = { paths: ['todo.md'] };
const USAGE = {
  input_tokens: 1,
  output_tokens: 1,
  total_tokens: 2,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens_details: { reasoning_tokens: 0 },
};

/** The provider's answer: a call to `read_notes`, or text once the conversation holds its result. */
type Answer = (replied: boolean) => unknown;

const ANSWERS: readonly { readonly path: RegExp; readonly answer: Answer }[] = [
  {
    path: /\/v1\/chat\/completions$/,
    answer: (replied) => ({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 0,
      model: 'scripted',
      choices: [
        {
          index: 0,
          finish_reason: replied ? 'stop' : 'tool_calls',
          message: replied
            ? { role: 'assistant', content: 'done' }
            : {
                role: 'assistant',
                content: null,
                tool_calls: [
                  {
                    id: 'call_1',
                    type: 'function',
                    function: { name: 'read_notes', arguments: JSON.stringify(ARGUMENTS) },
                  },
                ],
              },
        },
      ],
    }),
  },
  {
    path: /\/v1\/responses$/,
    answer: (replied) => ({
      id: 'resp_1',
      object: 'response',
      created_at: 0,
      model: 'scripted',
      status: 'completed',
      usage: USAGE,
      output: [
        replied
          ? {
              type: 'message',
              id: 'msg_1',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: 'done', annotations: [] }],
            }
          : {
              type: 'function_call',
              id: 'fc_1',
              call_id: 'call_1',
              name: 'read_notes',
              arguments: JSON.stringify(ARGUMENTS),
              status: 'completed',
            },
      ],
    }),
  },
  {
    path: /\/v1\/messages$/,
    answer: (replied) => ({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'scripted',
      content: replied
        ? [{ type: 'text', text: 'done' }]
        : [{ type: 'tool_use', id: 'toolu_1', name: 'read_notes', input: ARGUMENTS }],
      stop_reason: replied ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    }),
  },
  {
    path: /\/v1(?:beta)?\/models\/[^/]+:generateContent$/,
    answer: (replied) => ({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [replied ? { text: 'done' } : { functionCall: { name: 'read_notes', args: ARGUMENTS } }],
          },
          finishReason: 'STOP',
        },
      ],
    }),
  },
];

/** Whether the conversation sent already holds the tool's result, in any provider's shape. */
const carriesResult = (body: Record<string, unknown>): boolean =>
  /"role":"tool"|"function_call_output"|"tool_result"|"functionResponse"/.test(
    JSON.stringify(body.messages ?? body.input ?? body.contents ?? ''),
  );

export async function startScriptedProviders(): Promise<ScriptedProviders> {
  const server = createServer((request, response) => void answer(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    env: {
      OPENAI_BASE_URL: `${base}/v1`,
      OPENAI_API_KEY: 'scripted',
      OPENAI_AGENTS_DISABLE_TRACING: '1',
      ANTHROPIC_BASE_URL: base,
      ANTHROPIC_API_KEY: 'scripted',
      GOOGLE_GEMINI_BASE_URL: base,
      GEMINI_API_KEY: 'scripted',
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  let text = '';
  for await (const chunk of request) text += chunk;
  const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  const path = (request.url ?? '').split('?')[0] ?? '';
  const route = ANSWERS.find((candidate) => candidate.path.test(path));
  const offered = JSON.stringify(body.tools ?? '').includes('"read_notes"');
  const [status, reply] = !route
    ? [404, { error: { message: `no scripted provider answers ${path}` } }]
    : !offered
      ? [400, { error: { message: 'the request offers no read_notes tool' } }]
      : [200, route.answer(carriesResult(body))];
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
}
