import { isRecord } from '../../../shared/run/is-record.js';
import { ERRORS, type WireError } from '../wire/jsonrpc.js';

/**
 * The questions a tool's handler may ask the client (elicitation, sampling, roots), as every way of
 * serving asks them: which capability each needs (a form and a URL elicitation need different
 * modes), what counts as an answer, and how a run's questions are keyed. toolprep's own 2026-07-28
 * server, a task's run, a task policy's questions and tools on a user's SDK v2 server all decide
 * here, so a client is refused the same question the same way everywhere.
 */

/** The method of each question, and the client capability it needs. */
export const QUESTIONS = {
  elicit: { method: 'elicitation/create', capability: 'elicitation' },
  sample: { method: 'sampling/createMessage', capability: 'sampling' },
  listRoots: { method: 'roots/list', capability: 'roots' },
} as const;

/** Whether a value has the shape of an answer to a question of this method. */
export function isAnswerTo(method: string, answer: unknown): boolean {
  if (!isRecord(answer)) return false;
  if (method === QUESTIONS.elicit.method)
    return answer.action === 'accept' || answer.action === 'decline' || answer.action === 'cancel';
  if (method === QUESTIONS.sample.method) return typeof answer.model === 'string' && 'content' in answer;
  return Array.isArray(answer.roots);
}

/**
 * The client capabilities a question needs that `declared` lacks, as -32021's `requiredCapabilities`
 * names them, or undefined when the client can be asked. A URL elicitation needs `elicitation.url`;
 * a form one `elicitation.form`, or the bare `elicitation: {}` of clients that know no modes.
 */
export function missingCapabilities(
  declared: Readonly<Record<string, unknown>>,
  method: string,
  params: unknown,
): Record<string, unknown> | undefined {
  const question = Object.values(QUESTIONS).find((known) => known.method === method);
  if (!question) return undefined;
  const capability = declared[question.capability];
  if (method !== QUESTIONS.elicit.method)
    return isRecord(capability) ? undefined : { [question.capability]: {} };
  const mode = isRecord(params) && params.mode === 'url' ? 'url' : 'form';
  const modes = isRecord(capability) ? capability : undefined;
  const supported =
    modes !== undefined &&
    (mode === 'url' ? isRecord(modes.url) : isRecord(modes.form) || !isRecord(modes.url));
  return supported ? undefined : { elicitation: { [mode]: {} } };
}

/** -32021: the question needs capabilities the client did not declare. */
export function missingCapabilityError(missing: Record<string, unknown>): WireError {
  return {
    code: ERRORS.missingCapability.code,
    message: `This tool needs the client's ${capabilityName(missing)} capability`,
    data: { requiredCapabilities: missing },
  };
}

/** The capability a `requiredCapabilities` object names, in words: `elicitation.form`, `sampling`. */
function capabilityName(required: Readonly<Record<string, unknown>>): string {
  const [name, inner] = Object.entries(required)[0] ?? ['', undefined];
  const mode = isRecord(inner) ? Object.keys(inner)[0] : undefined;
  return mode === undefined ? name : `${name}.${mode}`;
}

/**
 * Keys a run's questions: by the handler's own key, else by its place among the run's questions
 * (`input-1`, `input-2`…), so that a retried run asks the same questions under the same keys.
 */
export function questionKeys(): (named: string | undefined) => string {
  let asked = 0;
  return (named) => {
    asked++;
    return named ?? `input-${asked}`;
  };
}

/** An answer given earlier under this key, when it is one to this question. */
export function earlierAnswer(
  answers: Readonly<Record<string, unknown>>,
  key: string,
  method: string,
): { readonly answer: unknown } | undefined {
  // An answer that is not one to this question (a number for an elicitation) is asked again.
  return Object.hasOwn(answers, key) && isAnswerTo(method, answers[key])
    ? { answer: answers[key] }
    : undefined;
}

/** A question as an input request carries it. */
export function inputRequest(method: string, params: unknown): Record<string, unknown> {
  return params === undefined ? { method } : { method, params };
}
