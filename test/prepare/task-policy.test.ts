import { prepareTool } from '@toolprep/build';
import { defineTool, type TaskOptions, type TaskSupport, type ToolAnnotations } from 'toolprep';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

/**
 * A contract's `task` (the MCP tasks extension): the build records the policy with its defaults,
 * refuses what is not a policy by field, and refuses a destructive tool that must run as a task
 * while a repeated call would run it twice.
 */

const prepared = (task: TaskSupport | TaskOptions | unknown, annotations?: ToolAnnotations) =>
  prepareTool(
    defineTool({
      name: 'build_site',
      description: 'Build the site.',
      input: z.object({ branch: z.string() }),
      task: task as TaskOptions,
      ...(annotations ? { annotations } : {}),
    }),
  );

describe('task policy', () => {
  test.each([
    ['optional', { support: 'optional', ttlMs: 3_600_000, pollIntervalMs: 2_000, repeatWindowMs: 60_000 }],
    ['required', { support: 'required', ttlMs: 3_600_000, pollIntervalMs: 2_000, repeatWindowMs: 60_000 }],
    [
      { support: 'required', ttlMs: null, pollIntervalMs: 500, repeatWindowMs: 0 },
      { support: 'required', ttlMs: null, pollIntervalMs: 500, repeatWindowMs: 0 },
    ],
    [
      { support: 'optional', ttlMs: 5_000 },
      { support: 'optional', ttlMs: 5_000, pollIntervalMs: 2_000, repeatWindowMs: 60_000 },
    ],
  ])('%j is recorded as %j', (task, policy) => {
    expect(prepared(task).task).toEqual(policy);
  });

  test('no task, or forbidden, records none (and leaves the digest as it was)', () => {
    const plain = prepareTool(
      defineTool({
        name: 'build_site',
        description: 'Build the site.',
        input: z.object({ branch: z.string() }),
      }),
    );
    expect(plain.task).toBeUndefined();
    expect(prepared('forbidden').task).toBeUndefined();
    expect(prepared('forbidden').digest).toBe(plain.digest);
    expect(prepared('optional').digest).not.toBe(plain.digest);
  });

  test.each([
    ['sometimes', /tool "build_site", task: must be one of forbidden, optional, required, not "sometimes"/],
    [42, /tool "build_site", task: must be "optional", "required", "forbidden" or the task options/],
    [{ support: 'optional', ttl: 5 }, /task\.ttl: is not a task option/],
    [{ support: 'maybe' }, /task\.support: must be one of forbidden, optional, required/],
    [
      { support: 'optional', ttlMs: 0 },
      /task\.ttlMs: must be a positive whole number of milliseconds, or null/,
    ],
    [{ support: 'optional', pollIntervalMs: 1.5 }, /task\.pollIntervalMs: must be a positive whole number/],
    [
      { support: 'optional', repeatWindowMs: -1 },
      /task\.repeatWindowMs: must be a whole number of milliseconds, 0 or more/,
    ],
    [{ support: 'required', questions: [] }, /task\.questions: must be an object of questions by key/],
    [
      { support: 'required', questions: { name: { message: '' } } },
      /task\.questions\.name: must have a message/,
    ],
    [
      { support: 'required', questions: { name: { message: 'Name?', requestedSchema: { type: 'string' } } } },
      /task\.questions\.name: must have a requestedSchema of type "object"/,
    ],
  ])('%j is refused by field', (task, message) => {
    expect(() => prepared(task)).toThrow(message);
  });

  test('the questions asked before the task are recorded by key, `__proto__` as any other', () => {
    const form = { type: 'object', properties: { name: { type: 'string' } } } as const;
    const questions = JSON.parse(
      '{"user_name":{"message":"Your name?","requestedSchema":{"type":"object"}},"__proto__":{"message":"Why?","requestedSchema":{"type":"object"}}}',
    );
    const task = prepared({ support: 'required', questions }).task;
    expect(Object.keys(task?.questions ?? {})).toEqual(['user_name', '__proto__']);
    const one = { user_name: { message: 'Your name?', requestedSchema: form } };
    expect(prepared({ support: 'optional', questions: one }).task?.questions).toEqual(one);
  });

  test('a destructive tool that must run as a task needs a repeat window or idempotence', () => {
    const destructive = { destructiveHint: true };
    expect(() => prepared({ support: 'required', repeatWindowMs: 0 }, destructive)).toThrow(
      /tool "build_site", task\.repeatWindowMs: is 0 for a destructive tool that must run as a task: .* it would run twice/,
    );
    expect(prepared({ support: 'required' }, destructive).task?.repeatWindowMs).toBe(60_000);
    expect(
      prepared({ support: 'required', repeatWindowMs: 0 }, { ...destructive, idempotentHint: true }).task,
    ).toMatchObject({
      support: 'required',
    });
    // An optional task runs as a plain call for a client without the extension: the rule is the task's.
    expect(prepared({ support: 'optional', repeatWindowMs: 0 }, destructive).task?.support).toBe('optional');
  });
});
