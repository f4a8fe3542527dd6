/**
 * Where something that went wrong outside any caller's call is reported: a task listener that
 * threw, a run that failed in the background, a lost connection. Reporting only: it changes no
 * answer and no state. The shape of the MCP SDK v2's `createMcpHandler({ onerror })`: an `Error`.
 */
export type OnError = (error: Error) => void;

/** The default: `console.error`, the message already starting with `[toolprep]`. */
export const logError: OnError = (error) => console.error(error);

/**
 * An Error that says what failed, `[toolprep] <what>: <the thrown value's message>`, with what was
 * thrown as its `cause` (whatever it was: a listener may throw anything).
 */
export function failureOf(what: string, thrown: unknown): Error {
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return new Error(`[toolprep] ${what}: ${message}`, { cause: thrown });
}
