import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { createToolRuntime, type ToolHooks, type ToolRuntimeOptions } from 'toolprep/runtime';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

/** A tool whose plan defers its refusal of a list written as text to the array member's parser. */
const pick = defineTool({
  description: 'Pick images.',
  input: z.object({
    paths: z.union([z.string(), z.array(z.string().refine((path) => path.endsWith('.png')))]),
  }),
});
const echo = defineTool({ description: 'Echo.', input: z.object({ text: z.string() }) });

/** Hooks that record what they see, in order. */
function recorded() {
  const events: string[] = [];
  const causes: unknown[] = [];
  const hooks: ToolHooks = {
    before: ({ tool }) => events.push(`before ${tool}`),
    after: ({ tool }) => events.push(`after ${tool}`),
    error: ({ tool, error, cause }) => {
      events.push(`error ${tool} ${error.code}`);
      causes.push(cause);
    },
  };
  return { events, causes, hooks };
}

describe('what the build records of a plan, the runtime reads', () => {
  test('a plan that defers a check says so, and only its tool loads the position finder, once', async () => {
    const set = prepareToolSet({ pick, echo });
    expect(set.prepared.map((tool) => [tool.name, tool.plan.defers])).toEqual([
      ['pick', true],
      ['echo', undefined],
    ]);
    let located = 0;
    const adapters = set.adapters.map((adapter) => ({
      ...adapter,
      locate: () => {
        located++;
        return adapter.locate();
      },
    }));
    const runtime = createToolRuntime(
      { ...set, adapters },
      {
        handlers: {
          pick: ({ paths }: { paths: unknown }) => paths,
          echo: ({ text }: { text: string }) => text,
        },
      },
    );
    expect(await runtime.call('echo', { text: '["a.png"]' })).toEqual({ ok: true, value: '["a.png"]' });
    expect(located).toBe(0);
    expect(await runtime.call('pick', { paths: '["a.png"]' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR' },
    });
    expect(await runtime.call('pick', { paths: '["a.txt"]' })).toEqual({ ok: true, value: '["a.txt"]' });
    expect(located).toBe(1);
  });

  test('a contract without a schema where its plan defers a check fails its load, saying to regenerate', async () => {
    const set = prepareToolSet({ pick });
    const changed = defineTool({
      description: 'Pick images.',
      input: z.object({ paths: z.array(z.string()) }),
    });
    const { events, causes, hooks } = recorded();
    const runtime = createToolRuntime(
      { ...set, load: { pick: () => changed } },
      { handlers: { pick: () => 'ok' }, hooks },
    );
    // Found at load, before any argument reaches the deferred check.
    expect(await runtime.call('pick', { paths: ['a.png'] })).toEqual({
      ok: false,
      error: {
        code: 'LOAD_ERROR',
        message: 'Tool "pick" could not run: its contract did not load',
        issues: [],
      },
    });
    expect(events).toEqual(['before pick', 'error pick LOAD_ERROR']);
    expect((causes[0] as Error).message).toBe(
      '[toolprep] the plan defers a check to input .paths |1, which the contract does not have: the manifest is older than the contract; run toolprep generate',
    );
  });
});

describe('a value thrown in a stage fails the call with that stage’s code', () => {
  const boom = new Error('boom');
  const throws = (): never => {
    throw boom;
  };
  test.each<[string, Parameters<typeof defineTool>[0], Partial<ToolRuntimeOptions>, string, string]>([
    [
      'a transform of the input parser',
      { description: 'd', input: z.object({ text: z.string().transform(throws) }) },
      {},
      'HANDLER_ERROR',
      'Tool "t" could not run: boom',
    ],
    [
      'a `before` hook',
      { description: 'd', input: z.object({ text: z.string() }) },
      { hooks: { before: throws } },
      'HANDLER_ERROR',
      'Tool "t" could not run: boom',
    ],
    [
      'the handler',
      { description: 'd', input: z.object({ text: z.string() }) },
      { handlers: { t: throws } },
      'HANDLER_ERROR',
      'boom',
    ],
    [
      'a transform of the output parser',
      {
        description: 'd',
        input: z.object({ text: z.string() }),
        output: z.object({ text: z.string() }).transform(throws),
      },
      {},
      'OUTPUT_ERROR',
      'Tool "t" returned a value its output schema could not parse: boom',
    ],
    [
      'an `after` hook',
      { description: 'd', input: z.object({ text: z.string() }) },
      { hooks: { after: throws } },
      'HANDLER_ERROR',
      'Tool "t" could not run: boom',
    ],
  ])('%s', async (_case, contract, options, code, message) => {
    const seen: unknown[] = [];
    const runtime = createToolRuntime(
      prepareToolSet({ t: defineTool({ name: 't', ...contract }) }, { warn: () => {} }),
      {
        handlers: { t: ({ text }: { text: string }) => ({ text }) },
        ...options,
        hooks: { ...options.hooks, error: ({ error, cause }) => seen.push(error.code, cause) },
      },
    );
    expect(await runtime.call('t', { text: 'x' })).toEqual({
      ok: false,
      error: { code, message, issues: [] },
    });
    expect(seen).toEqual([code, boom]);
  });

  test('`extend.resolve`', async () => {
    const tenant = z.object({ tenant: z.string() });
    const runtime = createToolRuntime(prepareToolSet({ echo }, { extend: { schema: tenant } }), {
      handlers: { echo: () => 'ok' },
      extend: { schema: tenant, resolve: throws },
    });
    expect(await runtime.call('echo', { tenant: 'a', text: 'x' })).toEqual({
      ok: false,
      error: { code: 'HANDLER_ERROR', message: 'Tool "echo" could not run: boom', issues: [] },
    });
  });

  test('a `before` hook that throws on an unknown tool fails the call; the call does not reject', async () => {
    const runtime = createToolRuntime(prepareToolSet({ echo }), {
      handlers: { echo: () => 'ok' },
      hooks: { before: throws },
    });
    expect(await runtime.call('nothing', {})).toEqual({
      ok: false,
      error: { code: 'HANDLER_ERROR', message: 'Tool "nothing" could not run: boom', issues: [] },
    });
  });
});

describe('check: the stages before the handler', () => {
  test('gives the repaired arguments the parsers accept, runs no handler and no hook; a refusal is what call gives', async () => {
    const parses = { count: 0 };
    const counted = defineTool({
      description: 'Read.',
      input: z.object({
        paths: z.array(z.string()).transform((paths) => {
          parses.count++;
          return paths;
        }),
      }),
    });
    let handled = 0;
    const { events, hooks } = recorded();
    const runtime = createToolRuntime(prepareToolSet({ counted }), {
      handlers: { counted: () => handled++ },
      hooks,
    });
    expect(await runtime.check('counted', { paths: '["a"]' })).toEqual({ ok: true, value: { paths: ['a'] } });
    expect({ events, handled, parses: parses.count }).toEqual({ events: [], handled: 0, parses: 1 });

    const refused = await runtime.check('counted', { paths: 1 });
    expect(refused).toEqual(await runtime.call('counted', { paths: 1 }));
    expect(refused).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
    expect(events).toEqual([
      'before counted',
      'error counted VALIDATION_ERROR',
      'before counted',
      'error counted VALIDATION_ERROR',
    ]);
  });
});
