import type { CallResult, ToolRuntime } from '../../../runtime/runner.js';
import { isRecord } from '../../../shared/run/is-record.js';
import type { Caller } from './caller-views.js';
import { type ContextRequest, modernContext, type QuestionAsker } from './context.js';
import { earlierAnswer, inputRequest, missingCapabilities, questionKeys } from './questions.js';
import type { BoundCall, RequestStateSigner } from './request-state.js';

/**
 * A 2026-07-28 call, which may ask the client for input: the answers so far come from the signed
 * `requestState` and the retry's `inputResponses`; a question not answered yet ends the run with
 * the input-required result to send, and its signed state. toolprep's own server and tools on a
 * user's SDK v2 server both call it.
 */

export interface AskingCallRequest extends ContextRequest {
  readonly name: string;
  readonly args: unknown;
  readonly requestState: unknown;
  readonly inputResponses: unknown;
}

export type AskingCallOutcome =
  | { readonly result: CallResult }
  | {
      readonly resultType: 'input_required';
      readonly inputRequests: Record<string, unknown>;
      readonly requestState: string;
    }
  /** The client capabilities a question needs and the client did not declare. */
  | { readonly missing: Record<string, unknown> }
  | { readonly invalid: string };

export async function askingCall(
  runtime: ToolRuntime,
  states: RequestStateSigner,
  request: AskingCallRequest,
): Promise<AskingCallOutcome> {
  const call = boundCall(request.name, request.args, request.caller);
  const gathered = await gatherAnswers(states, call, request.requestState, request.inputResponses);
  if ('invalid' in gathered) return gathered;
  const { answers } = gathered;
  const round = inputRound(answers, request.capabilities);
  const context = modernContext(request, round);
  const outcome = await Promise.race([
    runtime.call(request.name, request.args, context).then((result) => ({ result })),
    round.suspended,
  ]);
  if (!('inputRequests' in outcome)) return outcome;
  return {
    resultType: 'input_required',
    inputRequests: outcome.inputRequests,
    requestState: await states.sign(call, answers),
  };
}

/**
 * What a call's request state is bound to: the call, and with `auth` the caller's subject, so
 * that a state minted for one caller is refused to another.
 */
export function boundCall(name: string, args: unknown, caller: Caller | undefined): BoundCall {
  return { method: 'tools/call', name, args, ...(caller ? { subject: caller.subject } : {}) };
}

/**
 * The answers a retried call carries: those its signed `requestState` holds (answered in earlier
 * rounds), and its `inputResponses`; or why they are refused.
 */
export async function gatherAnswers(
  states: RequestStateSigner,
  call: BoundCall,
  requestState: unknown,
  inputResponses: unknown,
): Promise<{ readonly answers: Record<string, unknown> } | { readonly invalid: string }> {
  let answers: Record<string, unknown> = {};
  if (requestState !== undefined) {
    if (typeof requestState !== 'string')
      return { invalid: 'requestState must be the string the server sent' };
    const verified = await states.verify(call, requestState);
    if ('refused' in verified) return { invalid: `requestState refused: ${verified.refused}` };
    answers = verified.answers;
  }
  if (inputResponses !== undefined) {
    if (!isRecord(inputResponses))
      return { invalid: 'inputResponses must be an object keyed by input request' };
    answers = { ...answers, ...inputResponses };
  }
  return { answers };
}

/** How a call ended without a result: it asked for input, or for a capability the client lacks. */
type Suspension = { inputRequests: Record<string, unknown> } | { missing: Record<string, unknown> };

interface InputRound extends QuestionAsker {
  readonly suspended: Promise<Suspension>;
}

/**
 * The questions of one run of a handler. One answered in an earlier round is answered at once; the
 * first that is not suspends the call (after every question asked at the same time has been
 * gathered), and the call's answer is the input-required result. The suspended run is left behind:
 * its promise never settles, and nothing holds it.
 */
function inputRound(
  answers: Readonly<Record<string, unknown>>,
  capabilities: Record<string, unknown>,
): InputRound {
  const keyOf = questionKeys();
  const pending: Record<string, unknown> = {};
  let suspend: ((suspension: Suspension) => void) | undefined;
  let scheduled = false;
  const suspended = new Promise<Suspension>((resolve) => {
    suspend = resolve;
  });
  const never = new Promise<never>(() => {});
  return {
    suspended,
    ask(method, params, named) {
      const key = keyOf(named);
      const earlier = earlierAnswer(answers, key, method);
      if (earlier) return Promise.resolve(earlier.answer);
      const missing = missingCapabilities(capabilities, method, params);
      if (missing) {
        suspend?.({ missing });
        return never;
      }
      pending[key] = inputRequest(method, params);
      if (!scheduled) {
        scheduled = true;
        // Questions asked together (Promise.all) go in one result.
        setTimeout(() => suspend?.({ inputRequests: pending }), 0);
      }
      return never;
    },
  };
}
