import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ToolRuntime } from '../../../runtime/runner.js';
import { failureOf, logError } from '../../../shared/run/on-error.js';
import { firstAnswers } from '../legacy/first-answers.js';
import { connectStdio, legacyStdio } from '../legacy/stdio-session.js';
import type { ModernOptions } from '../modern/method-table.js';
import { modernServing } from '../modern/server.js';
import type { McpServerInfo } from '../service/tool-service.js';
import { isModernMessage } from '../wire/envelope.js';
import { ERRORS, errorText, type Id, jsonOfLine } from '../wire/jsonrpc.js';

/**
 * MCP over stdio, in both eras, on one pair of streams: each line is a message; a 2026-07-28
 * request is toolprep's own serving's, a 2025 session's the prepared bytes' and then the SDK's.
 * Nothing here imports the SDK up front (decision 0022).
 */

export interface StdioServing {
  /**
   * The SDK's server, which answers a 2025 session's requests past the first ones: made when a
   * request needs it, or just after the first `tools/list` has been answered. Calling this makes it now;
   * it rejects when the SDK cannot be loaded (`@modelcontextprotocol/sdk` is an optional peer).
   */
  server(): Promise<Server>;
}

export interface StdioOptions extends ModernOptions {
  /** The longest message (one line) taken, in bytes: a longer one is refused unread. Default 10 MiB, as the SDK's. */
  readonly maxMessageBytes?: number;
}

/**
 * Serves the tools over stdio (the process's stdin and stdout), in both protocol eras. A 2026-07-28
 * request (its `_meta` names the version) is answered on its own by toolprep, without the SDK. A
 * 2025 session's `initialize`, `ping` and `tools/list` are answered from the prepared bytes before
 * the SDK loads; the SDK's server then takes the session over, having been given the client's
 * `initialize` as if it had answered it. Without the SDK installed, 2025 clients are refused with
 * an answer that says what to install.
 */
export async function serveStdio(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: StdioOptions = {},
): Promise<StdioServing> {
  const { stdin, stdout } = process;
  const modern = modernServing(runtime, info, options);
  const first = firstAnswers(runtime, info, options);
  const onerror = options.onerror ?? logError;
  const legacy = legacyStdio(
    first,
    (input, output) => connectStdio(runtime, info, options, input, output),
    onerror,
  );
  // Without prepared answers the SDK answers a session from its first message: loaded now, when
  // it is installed; without it, 2026-07-28 is served and 2025 clients refused (decision 0043).
  if (!first) await legacy.preload();
  const running = new Map<unknown, AbortController>();
  const write = (text: string) => stdout.write(`${text}\n`);

  const take = (line: Buffer) => {
    const message = jsonOfLine(line);
    // A cancellation names a request; a 2026-07-28 one is stopped here, a session's by the SDK.
    const cancelled = cancelledRequest(message);
    if (cancelled !== undefined && running.has(cancelled)) {
      running.get(cancelled)?.abort();
      running.delete(cancelled);
      return;
    }
    // What is not JSON goes to the SDK too, which answers it as it always has.
    if (!isModernMessage(message)) {
      legacy.take(line, message);
      return;
    }
    const answer = modern.accept(message);
    if (!('run' in answer)) {
      if (answer.body !== null) write(answer.body);
      return;
    }
    const id = (message as { id: unknown }).id;
    const controller = new AbortController();
    running.set(id, controller);
    answer
      .run(write, controller.signal)
      .then(
        (done) => {
          // A cancelled request is not answered.
          if (!controller.signal.aborted && done.body !== null) write(done.body);
        },
        (error: unknown) => {
          onerror(failureOf('an MCP request failed inside the server', error));
          write(errorText(id as Id, { code: ERRORS.internal.code, message: 'Internal error' }));
        },
      )
      .finally(() => running.delete(id));
  };
  stdin.on(
    'data',
    lineReader(options.maxMessageBytes ?? 10 * 1024 * 1024, take, (limit) =>
      write(
        errorText(null, {
          code: ERRORS.invalidRequest.code,
          message: `Invalid Request: a message must not exceed ${limit} bytes`,
        }),
      ),
    ),
  );
  return { server: legacy.server };
}

function cancelledRequest(message: unknown): unknown {
  const { method, params } = (message ?? {}) as { method?: unknown; params?: { requestId?: unknown } };
  return method === 'notifications/cancelled' ? params?.requestId : undefined;
}

/**
 * Splits a stream into lines, each byte looked at once, however the chunks fall. A line longer
 * than `maxBytes` is refused as soon as it is (`tooLong`), and the rest of it skipped unkept.
 */
function lineReader(
  maxBytes: number,
  line: (line: Buffer) => void,
  tooLong: (maxBytes: number) => void,
): (chunk: Buffer) => void {
  let parts: Buffer[] = [];
  let length = 0;
  let skipping = false;
  return (chunk) => {
    let start = 0;
    for (let end = chunk.indexOf(10, start); end !== -1; end = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, end);
      start = end + 1;
      const wasSkipping = skipping;
      const whole = length + piece.length;
      const kept = parts;
      parts = [];
      length = 0;
      skipping = false;
      if (wasSkipping) continue;
      if (whole > maxBytes) tooLong(maxBytes);
      else line(kept.length === 0 ? piece : Buffer.concat([...kept, piece]));
    }
    const rest = chunk.subarray(start);
    if (skipping || rest.length === 0) return;
    if (length + rest.length > maxBytes) {
      parts = [];
      length = 0;
      skipping = true;
      tooLong(maxBytes);
      return;
    }
    parts.push(rest);
    length += rest.length;
  };
}
