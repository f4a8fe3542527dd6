import type { TaskOptions, TaskQuestion, ToolAnnotations } from '../contract/types.js';
import type { TaskPolicy } from '../manifest/prepared-tool.js';
import type { Problem } from '../shared/build/problems.js';
import { isRecord } from '../shared/run/is-record.js';
import { setOwn } from '../shared/run/own-property.js';

/** The defaults of `task`, documented in docs/guide/tasks.md. */
const TASK_DEFAULTS = { ttlMs: 3_600_000, pollIntervalMs: 2_000, repeatWindowMs: 60_000 } as const;

const SUPPORTS = ['forbidden', 'optional', 'required'] as const;
const OPTION_KEYS = ['support', 'ttlMs', 'pollIntervalMs', 'repeatWindowMs', 'questions'] as const;

/**
 * The contract's `task` as the manifest records it, its defaults filled in; undefined for a tool
 * that never runs as a task. Refused, by field: what is not a policy, and a required task that is
 * marked destructive while a repeated call would run it again.
 */
export function taskPolicyOf(
  tool: string,
  task: unknown,
  annotations: ToolAnnotations | undefined,
  problems: Problem[],
): TaskPolicy | undefined {
  if (task === undefined) return undefined;
  const report = (field: string, message: string, hint: string) =>
    problems.push({ severity: 'error', code: 'task-policy', tool, field, message, hint });
  const options: Partial<TaskOptions> | undefined =
    typeof task === 'string'
      ? { support: task as TaskOptions['support'] }
      : isRecord(task)
        ? task
        : undefined;
  if (options === undefined) {
    report('task', 'must be "optional", "required", "forbidden" or the task options', "task: 'optional'");
    return undefined;
  }
  const before = problems.length;
  for (const key of Object.keys(options))
    if (!(OPTION_KEYS as readonly string[]).includes(key))
      report(`task.${key}`, 'is not a task option', `the options are ${OPTION_KEYS.join(', ')}`);
  const { support, ttlMs = TASK_DEFAULTS.ttlMs, pollIntervalMs = TASK_DEFAULTS.pollIntervalMs } = options;
  const { repeatWindowMs = TASK_DEFAULTS.repeatWindowMs } = options;
  if (!(SUPPORTS as readonly unknown[]).includes(support))
    report(
      typeof task === 'string' ? 'task' : 'task.support',
      `must be one of ${SUPPORTS.join(', ')}, not ${JSON.stringify(support)}`,
      "task: 'optional' runs it as a task for a client that declared the extension",
    );
  const whole = (value: unknown, least: number) => Number.isSafeInteger(value) && (value as number) >= least;
  if (ttlMs !== null && !whole(ttlMs, 1))
    report('task.ttlMs', 'must be a positive whole number of milliseconds, or null', 'ttlMs: 3600000');
  if (!whole(pollIntervalMs, 1))
    report('task.pollIntervalMs', 'must be a positive whole number of milliseconds', 'pollIntervalMs: 2000');
  if (!whole(repeatWindowMs, 0))
    report(
      'task.repeatWindowMs',
      'must be a whole number of milliseconds, 0 or more',
      'repeatWindowMs: 60000',
    );
  const questions = questionsOf(options.questions, report);
  if (problems.length > before || support === 'forbidden') return undefined;
  if (
    support === 'required' &&
    annotations?.destructiveHint === true &&
    annotations.idempotentHint !== true &&
    repeatWindowMs === 0
  )
    report(
      'task.repeatWindowMs',
      'is 0 for a destructive tool that must run as a task: a client that lost the task handle sends the call again, and it would run twice',
      'keep a repeat window (a repeated call returns the first task), or mark it idempotentHint: true if running it twice is harmless',
    );
  if (problems.length > before) return undefined;
  return {
    support: support as TaskPolicy['support'],
    ttlMs: ttlMs as number | null,
    pollIntervalMs,
    repeatWindowMs,
    ...(questions ? { questions } : {}),
  };
}

/** The questions asked before the task, as the manifest keeps them; each one refused by its key. */
function questionsOf(
  questions: unknown,
  report: (field: string, message: string, hint: string) => void,
): TaskPolicy['questions'] {
  if (questions === undefined) return undefined;
  const hint =
    "questions: { user_name: { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } }";
  if (!isRecord(questions)) {
    report('task.questions', 'must be an object of questions by key', hint);
    return undefined;
  }
  const kept: Record<string, unknown> = {};
  for (const [key, question] of Object.entries(questions)) {
    const field = `task.questions.${key}`;
    if (!isRecord(question) || typeof question.message !== 'string' || question.message.trim() === '')
      report(field, 'must have a message (the question, as the user reads it)', hint);
    else if (!isRecord(question.requestedSchema) || question.requestedSchema.type !== 'object')
      report(field, 'must have a requestedSchema of type "object" (the form the user fills in)', hint);
    else setOwn(kept, key, { message: question.message, requestedSchema: question.requestedSchema });
  }
  return kept as Record<string, TaskQuestion>;
}
