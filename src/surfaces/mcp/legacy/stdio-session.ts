import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRuntime } from '../../../runtime/runner.js';
import { failureOf } from '../../../shared/run/on-error.js';
import {
  type AttachToolsOptions,
  type McpServerInfo,
  type ToolService,
  toolServiceOf,
} from '../service/tool-service.js';
import { jsonOfLine, sdkResponseText } from '../wire/jsonrpc.js';
import type { FirstAnswers } from './first-answers.js';

/**
 * A 2025 session over stdio: its first messages answered from the prepared bytes, then the SDK v1's
 * server, connected to the process's streams through a transport that writes each prepared
 * `tools/list` page from its JSON text.
 */

/** The SDK's transport for stdio, writing each prepared `tools/list` page from its JSON text. */
async function preparedStdioTransport(service: ToolService, input: Readable, output: Writable) {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  return new (class extends StdioServerTransport {
    override send(message: JSONRPCMessage): Promise<void> {
      const result = 'result' in message ? message.result : undefined;
      const text = service.textOf(result);
      const id = 'id' in message ? message.id : undefined;
      if (text === undefined || id === undefined) return super.send(message);
      return new Promise((resolve) => {
        if (output.write(`${sdkResponseText(id, text)}\n`)) resolve();
        else output.once('drain', () => resolve());
      });
    }
  })(input, output);
}

/** The SDK's server for the runtime, connected to stdio through these streams. */
export async function connectStdio(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: AttachToolsOptions,
  input: Readable,
  output: Writable,
): Promise<Server> {
  const { createMcpServer } = await import('./sdk-v1.js');
  const server = createMcpServer(runtime, info, options);
  await server.connect(await preparedStdioTransport(toolServiceOf(runtime), input, output));
  return server;
}

interface LegacyStdio {
  /** Takes a 2025 session's message (the line as read): answered from the prepared bytes, or given to the SDK. */
  take(line: Buffer, message: unknown): void;
  server(): Promise<Server>;
}

/**
 * A 2025 session over stdio: the first messages are answered from the prepared bytes while they
 * can be; the first message that needs the SDK (or the first `tools/list` answered) starts loading
 * it. When it is connected, it is given, in order, every message it must know of (the answered
 * `initialize` among them, whose answer it then writes and is taken back, since the client has it),
 * then each message as it comes.
 */
export function legacyStdio(
  first: FirstAnswers | undefined,
  connect: (input: Readable, output: Writable) => Promise<Server>,
  onerror: (error: Error) => void,
): LegacyStdio {
  const { stdout } = process;
  const forTheSdk: Buffer[] = [];
  let input: Writable | undefined;
  let sdkNeeded = !first;
  /** The `initialize` answer already sent, until the SDK's own is taken back. */
  let sentInitialize: { id: unknown; text: string } | undefined;

  let handover: Promise<Server> | undefined;
  const handOver = (): Promise<Server> => {
    handover ??= (async () => {
      // Imported here: loading node:stream costs 4 ms at start-up.
      const { PassThrough, Writable } = await import('node:stream');
      const sdkInput = new PassThrough();
      const output = new Writable({
        write(chunk: Buffer, _encoding, done) {
          if (sentInitialize && isResponseTo(sentInitialize.id, chunk)) {
            if (chunk.toString('utf8') !== `${sentInitialize.text}\n`)
              onerror(
                new Error(
                  `[toolprep] the MCP SDK answers initialize otherwise than the prepared answer sent (run toolprep generate again): ${chunk}`,
                ),
              );
            sentInitialize = undefined;
            return done();
          }
          if (stdout.write(chunk)) done();
          else stdout.once('drain', () => done());
        },
      });
      const server = await connect(sdkInput, output);
      for (const line of forTheSdk) sdkInput.write(line);
      forTheSdk.length = 0;
      input = sdkInput;
      return server;
    })();
    return handover;
  };

  return {
    server: handOver,
    take(line, message) {
      const withNewline = Buffer.concat([line, NEWLINE]);
      if (input) {
        input.write(withNewline);
        return;
      }
      const answer = sdkNeeded || !first ? undefined : first.answer(message);
      // Only one initialize is answered here; the SDK answers any other.
      if (answer === undefined || (answer.kind === 'answer' && answer.replay && sentInitialize)) {
        forTheSdk.push(withNewline);
        sdkNeeded = true;
        handOver().catch((error: unknown) =>
          onerror(failureOf('the MCP SDK could not take the session over', error)),
        );
        return;
      }
      if (answer.kind === 'answer') stdout.write(`${answer.text}\n`);
      if (answer.kind === 'replay' || answer.replay) forTheSdk.push(withNewline);
      if (answer.kind === 'answer' && answer.replay)
        sentInitialize = { id: (message as { id: unknown }).id, text: answer.text };
      // Loaded once the tools are listed, between the first answers and the first call.
      else if ((message as { method?: unknown }).method === 'tools/list' && handover === undefined)
        setImmediate(() =>
          handOver().catch((error: unknown) =>
            onerror(failureOf('the MCP SDK could not take the session over', error)),
          ),
        );
    },
  };
}

const NEWLINE = Buffer.from('\n');

/** Whether a line the SDK wrote is the response to the request with this id. */
function isResponseTo(id: unknown, chunk: Buffer): boolean {
  const message = jsonOfLine(chunk) as { id?: unknown; result?: unknown; error?: unknown } | undefined;
  return message?.id === id && (message?.result !== undefined || message?.error !== undefined);
}
