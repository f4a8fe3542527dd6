import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRuntime } from '../../../runtime/runner.js';
import { isRecord } from '../../../shared/run/is-record.js';
import { failureOf, type OnError } from '../../../shared/run/on-error.js';
import { type AttachToolsOptions, type McpServerInfo, toolServiceOf } from '../service/tool-service.js';
import { ERRORS, errorText, idOf, jsonOfLine, sdkResponseText } from '../wire/jsonrpc.js';
import type { FirstAnswers } from './first-answers.js';
import { loadSdk, SdkUnavailableError, sessionRefusals } from './sdk-unavailable.js';

/**
 * A 2025 session over stdio: its first messages answered from the prepared bytes, then the SDK v1's
 * server, connected to the process's streams through a transport that writes each prepared
 * `tools/list` page from its JSON text.
 */

/** The SDK's server for the runtime, connected to stdio through these streams. */
export async function connectStdio(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: AttachToolsOptions,
  input: Readable,
  output: Writable,
): Promise<Server> {
  const [{ createMcpServer }, { StdioServerTransport }] = await loadSdk(() =>
    Promise.all([import('./sdk-v1.js'), import('@modelcontextprotocol/sdk/server/stdio.js')]),
  );
  // Both lists: which one a session gets depends on what its client declared (service/views.ts).
  const linked = toolServiceOf(runtime);
  const plain = toolServiceOf(runtime, 'plain');
  // The SDK's transport, writing each prepared `tools/list` page from its JSON text.
  const transport = new (class extends StdioServerTransport {
    override send(message: JSONRPCMessage): Promise<void> {
      const result = 'result' in message ? message.result : undefined;
      const text = linked.textOf(result) ?? plain.textOf(result);
      const id = 'id' in message ? message.id : undefined;
      if (text === undefined || id === undefined) return super.send(message);
      return new Promise((resolve) => {
        if (output.write(`${sdkResponseText(id, text)}\n`)) resolve();
        else output.once('drain', () => resolve());
      });
    }
  })(input, output);
  const server = createMcpServer(runtime, info, options);
  await server.connect(transport);
  return server;
}

interface LegacyStdio {
  /** Takes a 2025 session's message (the line as read): answered from the prepared bytes, or given to the SDK. */
  take(line: Buffer, message: unknown): void;
  /** The SDK's server, connected now if it is not yet; rejects with `SdkUnavailableError` without the SDK. */
  server(): Promise<Server>;
  /** Connects the SDK's server now, if it can: without it, 2025 clients are refused when they come. */
  preload(): Promise<void>;
}

/** A message the SDK is to be given when it takes over, and whether it still awaits an answer. */
interface ForTheSdk {
  readonly line: Buffer;
  readonly message: unknown;
  readonly awaitsAnswer: boolean;
}

/**
 * A 2025 session over stdio: the first messages are answered from the prepared bytes while they
 * can be; the first message that needs the SDK (or the first `tools/list` answered) starts loading
 * it. When it is connected, it is given, in order, every message it must know of (the answered
 * `initialize` among them, whose answer it then writes and is taken back, since the client has it),
 * then each message as it comes. When it cannot be (not installed, decision 0043), every request
 * that waits for it and every later one is refused, and the failure reported once.
 */
export function legacyStdio(
  first: FirstAnswers | undefined,
  connect: (input: Readable, output: Writable) => Promise<Server>,
  onerror: OnError,
): LegacyStdio {
  const { stdout } = process;
  const forTheSdk: ForTheSdk[] = [];
  let input: Writable | undefined;
  let sdkNeeded = !first;
  /** The `initialize` answer already sent, until the SDK's own is taken back. */
  let sentInitialize: { id: unknown; text: string } | undefined;
  /** How a request is answered once the SDK has failed to take the session over. */
  let refuse: ((message: unknown) => void) | undefined;
  const refusal = sessionRefusals(onerror);

  const failed = (error: unknown) => {
    if (error instanceof SdkUnavailableError)
      refuse = (message) => {
        const refused = refusal(message, error);
        if (refused.id !== null) stdout.write(`${refused.body}\n`);
      };
    else {
      onerror(failureOf('the MCP SDK could not take the session over', error));
      refuse = (message) => {
        const id = isRecord(message) ? idOf(message) : null;
        if (id !== null)
          stdout.write(`${errorText(id, { code: ERRORS.internal.code, message: 'Internal error' })}\n`);
      };
    }
    for (const waiting of forTheSdk.splice(0)) if (waiting.awaitsAnswer) refuse(waiting.message);
  };

  let handover: Promise<Server> | undefined;
  const handOver = (): Promise<Server> => {
    if (handover) return handover;
    handover = (async () => {
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
      for (const { line } of forTheSdk.splice(0)) sdkInput.write(line);
      input = sdkInput;
      return server;
    })();
    // Reported here, once: every caller gets the same promise.
    handover.catch(failed);
    return handover;
  };

  return {
    server: handOver,
    preload: () =>
      handOver().then(
        () => {},
        () => {},
      ),
    take(line, message) {
      if (refuse) {
        refuse(message);
        return;
      }
      const withNewline = Buffer.concat([line, NEWLINE]);
      if (input) {
        input.write(withNewline);
        return;
      }
      const answer = sdkNeeded || !first ? undefined : first.answer(message);
      // Only one initialize is answered here; the SDK answers any other.
      if (answer === undefined || (answer.kind === 'answer' && answer.replay && sentInitialize)) {
        forTheSdk.push({ line: withNewline, message, awaitsAnswer: true });
        sdkNeeded = true;
        void handOver();
        return;
      }
      if (answer.kind === 'answer') stdout.write(`${answer.text}\n`);
      if (answer.kind === 'replay' || answer.replay)
        forTheSdk.push({ line: withNewline, message, awaitsAnswer: false });
      if (answer.kind === 'answer' && answer.replay)
        sentInitialize = { id: (message as { id: unknown }).id, text: answer.text };
      // Loaded once the tools are listed, between the first answers and the first call.
      else if ((message as { method?: unknown }).method === 'tools/list' && handover === undefined)
        setImmediate(() => void handOver());
    },
  };
}

const NEWLINE = Buffer.from('\n');

/** Whether a line the SDK wrote is the response to the request with this id. */
function isResponseTo(id: unknown, chunk: Buffer): boolean {
  const message = jsonOfLine(chunk) as { id?: unknown; result?: unknown; error?: unknown } | undefined;
  return message?.id === id && (message?.result !== undefined || message?.error !== undefined);
}
