/**
 * Where something that went wrong outside any caller's call is reported: a task listener that
 * threw, a run that failed in the background, a lost connection. Reporting only: it changes no
 * answer and no state. The shape of the MCP SDK v2's `createMcpHandler({ onerror })`: an `Error`.
 */
export type OnError = (error: Error) => void;

/**
 * Writes a failure to the server's log, once per cause (decision 0044): `cause` names it (a tool,
 * a kind and a message), `text` is what is written. The first occurrence is written in full;
 * repeats are counted, and the count written at the 10th, 100th, 1,000th… occurrence, on one line.
 */
export type FailureLog = (cause: string, text: string) => void;

/** How many causes a log remembers: past that the oldest is forgotten (and logged again if it comes back). */
const REMEMBERED_CAUSES = 1000;

/**
 * A log of its own: what it has seen is its own (each runtime has one, so that one server's
 * causes do not hide another's). Writes to stderr, never stdout, which a stdio server speaks on.
 */
export function failureLog(): FailureLog {
  const seen = new Map<string, number>();
  return (cause, text) => {
    const count = (seen.get(cause) ?? 0) + 1;
    if (count === 1 && seen.size >= REMEMBERED_CAUSES) seen.delete(seen.keys().next().value as string);
    seen.set(cause, count);
    if (count === 1) writeStderr(text);
    else if (/^10+$/.test(String(count)))
      writeStderr(`[toolprep] the same failure again, ${count} times in all: ${firstLine(text)}`);
  };
}

function firstLine(text: string): string {
  return (text.split('\n', 1)[0] as string).replace(/^\[toolprep\] /, '');
}

/** stderr where there is one (Node, Deno, Bun), else the console's error stream (Workers, browsers). */
function writeStderr(text: string): void {
  const stderr = globalThis.process?.stderr;
  if (typeof stderr?.write === 'function') stderr.write(`${text}\n`);
  else console.error(text);
}

/** An error as a log shows it: its message, then the stack of what caused it, where it has one. */
export function describeFailure(message: string, cause: unknown): string {
  const stack = cause instanceof Error ? cause.stack : undefined;
  return stack ? `${message}\n${stack.replace(/^/gm, '    ')}` : message;
}

const processLog = failureLog();

/**
 * The default `onerror` of every server, store and executor: the error's message (which
 * `failureOf` starts with `[toolprep]`) and the stack of its cause (or its own), to stderr, once
 * per message.
 */
export const logError: OnError = (error) =>
  processLog(error.message, describeFailure(error.message, error.cause ?? error));

/**
 * An Error that says what failed, `[toolprep] <what>: <the thrown value's message>`, with what was
 * thrown as its `cause` (whatever it was: a listener may throw anything).
 */
export function failureOf(what: string, thrown: unknown): Error {
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return new Error(`[toolprep] ${what}: ${message}`, { cause: thrown });
}
