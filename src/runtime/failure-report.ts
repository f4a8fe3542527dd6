import { describeFailure, failureLog } from '../shared/run/on-error.js';
import type { ToolErrorCode, ToolHooks } from './call-types.js';

/**
 * The runtime's `error` hook when none is given (decision 0044): a failure of the server's side
 * (its contract did not load, its code threw, its value was refused by its output schema) goes to
 * stderr, once per cause. What is the caller's (an unknown tool, refused arguments, a JSON-RPC
 * "invalid params" a handler threw) and what the tool reported as its own error (a result with
 * `isError: true`) are answers, not failures, and are not logged. Neither the arguments nor the
 * context are ever read here: only the tool's name, the code, and the messages and stack of the
 * error and its cause.
 */

/** What each logged code means, as the log line says it. */
const KINDS: Partial<Record<ToolErrorCode, string>> = {
  LOAD_ERROR: 'could not be loaded',
  HANDLER_ERROR: 'threw',
  OUTPUT_ERROR: 'returned a value that could not be sent',
};

/** JSON-RPC's "invalid params", which a handler throws to refuse its arguments (the SDKs' `McpError`). */
const INVALID_PARAMS = -32602;

export function reportFailures(): NonNullable<ToolHooks['error']> {
  const log = failureLog();
  return ({ tool, error, cause }) => {
    const kind = KINDS[error.code];
    if (kind === undefined || error.result !== undefined || error.protocol?.code === INVALID_PARAMS) return;
    // A thrown value's own message where there is one: the call's error words it for the model.
    const detail =
      error.code === 'OUTPUT_ERROR' || cause === undefined
        ? error.message
        : cause instanceof Error
          ? cause.message
          : String(cause);
    const line = `[toolprep] tool "${tool}" ${kind} (${error.code}): ${detail}`;
    log(`${tool}\u0000${error.code}\u0000${detail}`, describeFailure(line, cause));
  };
}
