import type { CallResult, Step, ToolError, ToolErrorCode, ToolHooks, ToolIssue } from './call-types.js';

/** One call on its way through the stages: what its hooks and its error are made from. */
export interface CallState {
  readonly tool: string;
  readonly args: unknown;
  readonly started: number;
  /** The context the handler and the hooks see: the caller's, until the extension keys resolve theirs. */
  context: unknown;
  /** Where the call is: a value thrown here fails it with this step's code (`thrownError`). */
  step: Step;
  /** Whether `before` has run: once per call, before `after` or `error`. */
  announced: boolean;
}

/** What a stage returns instead of its value: the call's error, and what caused it, for the `error` hook. */
export class Failure {
  constructor(
    readonly error: ToolError,
    readonly cause?: unknown,
  ) {}
}

/** A `Failure` that names no field. */
export function failure(code: ToolErrorCode, message: string, cause?: unknown): Failure {
  return new Failure({ code, message, issues: [] }, cause);
}

export function startCall(tool: string, args: unknown, context: unknown): CallState {
  return { tool, args, started: performance.now(), context, step: 'resolve', announced: false };
}

/** Runs `before`, once per call: a `before` that throws fails the call as the server's code would. */
export function announce(hooks: ToolHooks, call: CallState): void {
  if (call.announced) return;
  // Set first: a `before` that throws fails the call once, and is not called again for it.
  call.announced = true;
  call.step = 'hook';
  hooks.before?.({ tool: call.tool, args: call.args, context: call.context });
}

/** A failed call, as its hooks see it: `before` (if it has not run), then `error`. */
export function fail(hooks: ToolHooks, call: CallState, { error, cause }: Failure): CallResult<never> {
  announce(hooks, call);
  call.step = 'hook';
  hooks.error?.({
    tool: call.tool,
    error,
    cause,
    context: call.context,
    durationMs: performance.now() - call.started,
  });
  return { ok: false, error };
}

/** A call that ran: `after` sees the handler's arguments and the value sent. */
export function succeed<Value>(
  hooks: ToolHooks,
  call: CallState,
  args: unknown,
  value: Value,
): CallResult<Value> {
  call.step = 'hook';
  hooks.after?.({
    tool: call.tool,
    args,
    value,
    context: call.context,
    durationMs: performance.now() - call.started,
  });
  return { ok: true, value };
}

/**
 * The wording only a failing call needs (call-errors.ts), loaded on the first such failure, once,
 * so that a server whose calls pass never loads it.
 */
let errors: Promise<typeof import('./call-errors.js')> | undefined;
export function callErrors(): Promise<typeof import('./call-errors.js')> {
  errors ??= import('./call-errors.js');
  return errors;
}

/** A thrown value as the call's failure, by the step that threw it. */
export async function thrownFailure(call: CallState, cause: unknown): Promise<Failure> {
  const { thrownError } = await callErrors();
  return new Failure(thrownError(call.step, call.tool, cause), cause);
}

/** A refused call's error: only a refused call words its refusal, so a server whose calls pass never loads the writer. */
export async function refusalOf(
  issues: readonly ToolIssue[],
  call: Parameters<typeof import('./refusals.js').writeRefusals>[1],
): Promise<ToolError> {
  const { writeRefusals } = await import('./refusals.js');
  return validationError(writeRefusals(issues, call));
}

/** Refused arguments, one issue per field, each message naming its field (see refusals.ts). */
export function validationError(issues: readonly ToolIssue[]): ToolError {
  const details = issues.map((issue) => issue.message).join('; ');
  return { code: 'VALIDATION_ERROR', message: `Invalid arguments: ${details}`, issues };
}
