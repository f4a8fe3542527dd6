import { type PrepareToolOptions, prepareTool, prepareToolSet } from '@toolprep/build';
import { defineTool, type ToolContract } from 'toolprep';
import {
  createToolRuntime,
  type PreparedToolSet,
  preparedToolsOf,
  type ToolHandler,
  type ToolHooks,
  type ToolRuntimeOptions,
} from 'toolprep/runtime';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const LIST = 'paths is a list written as text — pass the array itself, not JSON written as text';

/** A tool set as the generated module gives it, with a loader per tool that counts loads. */
function toolSet(contracts: Record<string, ToolContract>, options: PrepareToolOptions = {}) {
  const loads: Record<string, number> = {};
  const set = prepareToolSet(contracts, options);
  const load = Object.fromEntries(
    Object.entries(set.load).map(([name, loadContract]) => [
      name,
      async () => {
        loads[name] = (loads[name] ?? 0) + 1;
        return loadContract();
      },
    ]),
  );
  return { ...set, load, loads };
}

function recordingHooks() {
  const events: string[] = [];
  const hooks: ToolHooks = {
    before: ({ tool }) => events.push(`before ${tool}`),
    after: ({ tool }) => events.push(`after ${tool}`),
    error: ({ tool, error }) => events.push(`error ${tool} ${error.code}`),
  };
  return { events, hooks };
}

function counted() {
  const parses = { count: 0 };
  const readFiles = defineTool({
    description: 'Read files.',
    params: z.strictObject({ root: z.string() }),
    input: z.strictObject({
      paths: z.union([z.string(), z.array(z.string())]).transform((paths) => {
        parses.count++;
        return Array.isArray(paths) ? paths : [paths];
      }),
      options: z.object({ depth: z.number() }).optional(),
    }),
  });
  return { parses, readFiles };
}

describe('createToolRuntime', () => {
  test('lists the prepared tools, frozen, without loading any contract', () => {
    const { readFiles } = counted();
    const set = toolSet({ readFiles });
    const runtime = createToolRuntime(set, { handlers: { read_files: () => 'ok' } });
    expect(runtime.list()).toBe(runtime.list());
    expect(Object.isFrozen(runtime.list())).toBe(true);
    expect(runtime.list().map((tool) => tool.name)).toEqual(['read_files']);
    expect(set.loads).toEqual({});
  });

  test('a call repairs by the plan, splits params from input, parses each once, and runs the handler', async () => {
    const { readFiles, parses } = counted();
    const set = toolSet({ readFiles });
    const seen: unknown[] = [];
    const runtime = createToolRuntime(set, {
      handlers: { read_files: (args: unknown, context: unknown) => seen.push([args, context]) },
    });

    const repaired = await runtime.call(
      'read_files',
      { root: '/r', paths: ['a'], options: '{"depth":2}' },
      { user: 'u' },
    );
    expect(repaired).toEqual({ ok: true, value: 1 });
    expect(seen[0]).toEqual([{ root: '/r', paths: ['a'], options: { depth: 2 } }, { user: 'u' }]);
    expect(parses.count).toBe(1);

    await runtime.call('read_files', { root: '/r', paths: 'a.png' });
    expect(parses.count).toBe(2);
    expect(set.loads).toEqual({ read_files: 1 });
  });

  test('one parse: a transform runs exactly once per call, with and without repairs', async () => {
    const { readFiles, parses } = counted();
    const runtime = createToolRuntime(toolSet({ readFiles }), { handlers: { read_files: () => null } });
    const calls = [
      { root: 'r', paths: 'a' },
      { root: 'r', paths: ['a', 'b'] },
      '{"root":"r","paths":["a"],"options":"{\\"depth\\":1}"}',
    ];
    for (const [index, args] of calls.entries()) {
      expect((await runtime.call('read_files', args)).ok).toBe(true);
      expect(parses.count).toBe(index + 1);
    }
  });

  test('a list written as text is a validation error with the message verbatim, seen by the hooks', async () => {
    const { readFiles, parses } = counted();
    const { events, hooks } = recordingHooks();
    const runtime = createToolRuntime(toolSet({ readFiles }), {
      handlers: { read_files: () => null },
      hooks,
    });
    expect(await runtime.call('read_files', { root: 'r', paths: '["a.png","b.png"]' })).toEqual({
      ok: false,
      error: { code: 'VALIDATION_ERROR', message: LIST, issues: [{ path: ['paths'], message: LIST }] },
    });
    expect(parses.count).toBe(0);
    expect(events).toEqual(['before read_files', 'error read_files VALIDATION_ERROR']);
  });

  test.each([
    [
      'a field of the wrong type',
      { root: 'r', paths: 1 },
      /^Invalid arguments: "paths" must be a string or string\[\] \(got 1\)$/,
    ],
    ['a missing param', { paths: 'a' }, /^Invalid arguments: "root" is required: a string$/],
    [
      'an input key in a strict object',
      { root: 'r', paths: 'a', extra: 1 },
      /^Invalid arguments: "extra" is not a field of read_files \(fields: "root", "paths", "options"\)$/,
    ],
    [
      'arguments that are not an object',
      ['a'],
      /^Invalid arguments: \(arguments\): The arguments must be an object$/,
    ],
    [
      'arguments nested deeper than the limit',
      {
        root: 'r',
        paths: 'a',
        options:
          '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
      },
      /^options is nested deeper than 64 levels$/,
    ],
  ])('%s is a validation error', async (_case, args, message) => {
    const { readFiles } = counted();
    const result = await createToolRuntime(toolSet({ readFiles }), {
      handlers: { read_files: () => null },
    }).call('read_files', args);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('VALIDATION_ERROR');
      expect(result.error.message).toMatch(message);
    }
  });

  test('an unknown tool names the tools there are', async () => {
    const { readFiles } = counted();
    const { events, hooks } = recordingHooks();
    const runtime = createToolRuntime(toolSet({ readFiles }), {
      handlers: { read_files: () => null },
      hooks,
    });
    expect(await runtime.call('write_files', {})).toEqual({
      ok: false,
      error: {
        code: 'UNKNOWN_TOOL',
        message: 'Unknown tool "write_files". Available tools: read_files.',
        issues: [],
      },
    });
    expect(events).toEqual(['before write_files', 'error write_files UNKNOWN_TOOL']);
  });

  test('a handler error is reported by its message, without a stack, to the caller and the hooks', async () => {
    const { readFiles } = counted();
    const { events, hooks } = recordingHooks();
    const failing: ToolHandler = () => {
      throw new Error('disk full');
    };
    const runtime = createToolRuntime(toolSet({ readFiles }), { handlers: { read_files: failing }, hooks });
    expect(await runtime.call('read_files', { root: 'r', paths: 'a' })).toEqual({
      ok: false,
      error: { code: 'HANDLER_ERROR', message: 'disk full', issues: [] },
    });
    expect(events).toEqual(['before read_files', 'error read_files HANDLER_ERROR']);
  });

  test("a handler's value is parsed by the contract's output schema, once; a value it refuses is a handler error naming the field", async () => {
    let outputParses = 0;
    const stats = defineTool({
      description: 'Count notes.',
      input: z.object({ folder: z.string() }),
      output: z.object({
        notes: z.number().int(),
        words: z.number().default(0),
        top: z.array(z.object({ title: z.string() })).transform((top) => {
          outputParses++;
          return top;
        }),
      }),
    });
    const { events, hooks } = recordingHooks();
    let returned: unknown = { notes: 3, top: [{ title: 'a', extra: true }], stray: 1 };
    const runtime = createToolRuntime(toolSet({ stats }), {
      handlers: { stats: () => returned as never },
      hooks,
    });
    // Sent as the output schema gives it: defaults filled, unknown keys stripped.
    expect(await runtime.call('stats', { folder: 'x' })).toEqual({
      ok: true,
      value: { notes: 3, words: 0, top: [{ title: 'a' }] },
    });
    expect(outputParses).toBe(1);
    returned = { notes: 2.5, top: [{ title: 7 }] };
    const refused = await runtime.call('stats', { folder: 'x' });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'OUTPUT_ERROR',
        message: expect.stringMatching(
          /^Tool "stats" returned a value its output schema refuses: notes: .*; top\.0\.title: /,
        ),
      },
    });
    expect(events).toEqual(['before stats', 'after stats', 'before stats', 'error stats OUTPUT_ERROR']);
  });

  test('a contract that fails to load is a load error that names no file, seen whole by the hook, retried on the next call', async () => {
    const { readFiles } = counted();
    const set = toolSet({ readFiles });
    let attempts = 0;
    const loadFailure = new Error(
      "Cannot find module '/srv/app/dist/tools/files.js' imported from /srv/app/dist/server.js",
    );
    const load = {
      read_files: async () => {
        attempts++;
        if (attempts === 1) throw loadFailure;
        return readFiles;
      },
    };
    const causes: unknown[] = [];
    const runtime = createToolRuntime(
      { ...set, load },
      { handlers: { read_files: () => 'ok' }, hooks: { error: ({ cause }) => causes.push(cause) } },
    );
    expect(await runtime.call('read_files', { root: 'r', paths: 'a' })).toEqual({
      ok: false,
      error: {
        code: 'LOAD_ERROR',
        message: 'Tool "read_files" could not run: its contract did not load',
        issues: [],
      },
    });
    expect(causes).toEqual([loadFailure]);
    expect(await runtime.call('read_files', { root: 'r', paths: 'a' })).toEqual({ ok: true, value: 'ok' });
  });

  test('a tool named after an Object member needs its own handler: an inherited one is none', () => {
    const named = defineTool({ name: 'constructor', description: 'Build.', input: z.object({}) });
    expect(() => createToolRuntime(toolSet({ named }), { handlers: {} })).toThrow(
      'no handler for tool "constructor": add it to handlers',
    );
  });

  test('arguments nested deeper than maxDepth are refused wherever the plan does not go, at any depth', async () => {
    const store = defineTool({ description: 'Store a tree.', input: z.object({ tree: z.unknown() }) });
    let handled = 0;
    const runtime = createToolRuntime(toolSet({ store }), {
      handlers: {
        store: () => {
          handled++;
          return 'ok';
        },
      },
    });
    const nested = (depth: number) => {
      let value: unknown = 'leaf';
      for (let level = 0; level < depth; level++) value = { next: value };
      return value;
    };
    for (const depth of [100, 100_000]) {
      const result = await runtime.call('store', { tree: nested(depth) });
      expect(result).toMatchObject({
        ok: false,
        error: {
          code: 'VALIDATION_ERROR',
          message: expect.stringMatching(/^tree(\.next)+ is nested deeper than 64 levels$/),
        },
      });
    }
    expect(await runtime.call('store', { tree: nested(60) })).toEqual({
      ok: true,
      value: 'ok',
    });
    expect(handled).toBe(1);
  });

  test.each([
    ['a BigInt', () => ({ count: 10n }), /BigInt/],
    [
      'a cycle',
      () => {
        const value: Record<string, unknown> = {};
        value.self = value;
        return value;
      },
      /circular/i,
    ],
  ])(
    'a handler value JSON cannot carry (%s) is the tool’s output error, seen by the hook',
    async (_case, make, reason) => {
      const { readFiles } = counted();
      const errors: string[] = [];
      const runtime = createToolRuntime(toolSet({ readFiles }), {
        handlers: { read_files: make },
        hooks: { error: ({ error }) => errors.push(error.code) },
      });
      const result = await runtime.call('read_files', { root: 'r', paths: 'a' });
      expect(result).toMatchObject({
        ok: false,
        error: {
          code: 'OUTPUT_ERROR',
          message: expect.stringMatching(/^Tool "read_files" returned a value JSON cannot carry: /),
        },
      });
      expect(result.ok ? '' : result.error.message).toMatch(reason);
      expect(errors).toEqual(['OUTPUT_ERROR']);
    },
  );

  test('a refusal deferred to the array member’s own parser works through the loaded contract', async () => {
    const pick = defineTool({
      description: 'Pick images.',
      input: z.object({
        paths: z.union([z.string(), z.array(z.string().refine((path) => path.endsWith('.png')))]),
      }),
    });
    const runtime = createToolRuntime(toolSet({ pick }), {
      handlers: { pick: ({ paths }: { paths: unknown }) => paths },
    });
    expect(await runtime.call('pick', { paths: '["a.png"]' })).toMatchObject({
      ok: false,
      error: { message: LIST },
    });
    expect(await runtime.call('pick', { paths: '["a.txt"]' })).toEqual({ ok: true, value: '["a.txt"]' });
  });

  test.each<[string, Partial<ToolRuntimeOptions>, RegExp]>([
    [
      'a tool without a handler',
      { handlers: {} },
      /\[toolprep\] no handler for tool "read_files": add it to handlers/,
    ],
    [
      'a handler for no tool',
      { handlers: { read_files: () => null, old_tool: () => null } },
      /a handler for "old_tool", which is not a prepared tool/,
    ],
  ])('refuses %s at creation', (_case, options, message) => {
    const { readFiles } = counted();
    expect(() => createToolRuntime(toolSet({ readFiles }), options as ToolRuntimeOptions)).toThrow(message);
  });
});

describe('extension keys', () => {
  const extendSchema = z.object({ tenant: z.string().transform((tenant) => tenant.toUpperCase()) });

  test('are advertised in every document, and a clash with a contract key is a build error naming both', () => {
    const { readFiles } = counted();
    const prepared = prepareTool(readFiles, { exportName: 'readFiles', extend: { schema: extendSchema } });
    expect(Object.keys(prepared.inputSchema.mcp.properties as object)).toEqual([
      'tenant',
      'root',
      'paths',
      'options',
    ]);
    expect(prepared.inputSchema.agent.required).toEqual(['tenant', 'root', 'paths']);
    const hidden = prepareTool(readFiles, {
      exportName: 'readFiles',
      extend: { schema: extendSchema, advertise: false },
    });
    expect(Object.keys(hidden.inputSchema.mcp.properties as object)).toEqual(['root', 'paths', 'options']);
    const clash = defineTool({ description: 'd', input: z.object({ tenant: z.string() }) });
    expect(() => prepareTool(clash, { exportName: 'clash', extend: { schema: extendSchema } })).toThrow(
      /tool "clash", extend\.tenant: "tenant" is declared by both the extension keys and the contract/,
    );
  });

  test('are parsed once by their own schema, resolved into the context, and removed before the contract parses', async () => {
    const { readFiles, parses } = counted();
    const seen: unknown[] = [];
    const runtime = createToolRuntime(toolSet({ readFiles }, { extend: { schema: extendSchema } }), {
      handlers: { read_files: (args: unknown, context: unknown) => seen.push(args, context) },
      extend: { schema: extendSchema, resolve: ({ tenant }, context) => ({ tenant, caller: context }) },
    });
    expect((await runtime.call('read_files', { tenant: 'acme', root: 'r', paths: 'a' }, 'mcp')).ok).toBe(
      true,
    );
    expect(seen).toEqual([
      { root: 'r', paths: ['a'] },
      { tenant: 'ACME', caller: 'mcp' },
    ]);
    expect(parses.count).toBe(1);
    const missing = await runtime.call('read_files', { root: 'r', paths: 'a' });
    expect(missing).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/^Invalid arguments: "tenant" /) },
    });
  });
});

describe('what the runtime checks against what the build promised', () => {
  // Format 5 is the last before the walks module's prelude: its walks are one factory per tool,
  // handed the leaf steps, which this runtime would call as the whole module.
  const formerWalks = async () => ({ walks: { read_files: (_helpers: unknown) => [] } });
  // Format 6 is the last before decision 0079: its module passes two texts, the MCP documents in
  // the first and the later parts as one JSON array; this runtime reads it without throwing.
  const formerPrepared = () => {
    const tool = { name: 'read_files', inputSchema: { mcp: { type: 'object' }, agent: 0 }, plan: 0 };
    return preparedToolsOf(JSON.stringify([tool]), JSON.stringify([[{ type: 'object' }, { root: {} }]]));
  };
  test.each([
    ['format 1', () => ({ format: 1 })],
    [
      'format 5, its walks a factory per tool (before decision 0070)',
      () => ({ format: 5, walks: formerWalks }),
    ],
    [
      'format 6, its documents in two texts (before decision 0079)',
      () => ({ format: 6, prepared: formerPrepared() }),
    ],
  ])(
    'a tool set of another manifest format is refused at creation, saying to regenerate: %s',
    (_, former) => {
      const { readFiles } = counted();
      const old = former();
      const set = { ...toolSet({ readFiles }), ...old } as unknown as PreparedToolSet;
      expect(() => createToolRuntime(set, { handlers: { read_files: () => null } })).toThrow(
        new RegExp(
          `^\\[toolprep\\] manifest format ${old.format}, but this runtime reads 7: regenerate the tools$`,
        ),
      );
    },
  );

  const tenant = z.object({ tenant: z.string() });
  test.each<[string, PrepareToolOptions['extend'], ToolRuntimeOptions['extend'], RegExp | undefined]>([
    ['the same keys', { schema: tenant }, { schema: tenant }, undefined],
    [
      'a runtime without them',
      { schema: tenant },
      undefined,
      /extension keys \[tenant\] prepared, \[\] given/,
    ],
    [
      'a runtime with other keys',
      { schema: tenant },
      { schema: z.object({ org: z.string() }) },
      /extension keys \[tenant\] prepared, \[org\] given/,
    ],
    [
      'keys the build never saw',
      undefined,
      { schema: tenant },
      /extension keys \[\] prepared, \[tenant\] given/,
    ],
  ])('extension keys: %s', (_case, built, given, refusal) => {
    const { readFiles } = counted();
    const create = () =>
      createToolRuntime(toolSet({ readFiles }, { extend: built }), {
        handlers: { read_files: () => null },
        extend: given,
      });
    if (refusal) expect(create).toThrow(refusal);
    else expect(create).not.toThrow();
  });

  test('every hook sees the context the handler receives: the resolved one where there is one', async () => {
    const { readFiles } = counted();
    const seen: [string, unknown][] = [];
    const runtime = createToolRuntime(toolSet({ readFiles }, { extend: { schema: tenant } }), {
      handlers: {
        read_files: ({ paths }: { paths: string[] }, context: unknown) => {
          if (paths.includes('fail')) throw new Error('no');
          return context;
        },
      },
      extend: { schema: tenant, resolve: ({ tenant: name }, caller) => ({ tenant: name, caller }) },
      hooks: {
        before: ({ context }) => seen.push(['before', context]),
        after: ({ context }) => seen.push(['after', context]),
        error: ({ context, error }) => seen.push([`error ${error.code}`, context]),
      },
    });
    const resolved = { tenant: 'acme', caller: 'mcp' };
    expect(await runtime.call('read_files', { tenant: 'acme', root: 'r', paths: 'a' }, 'mcp')).toEqual({
      ok: true,
      value: resolved,
    });
    await runtime.call('read_files', { tenant: 'acme', root: 'r', paths: 'fail' }, 'mcp');
    await runtime.call('read_files', { tenant: 'acme', root: 'r', paths: 1 }, 'mcp');
    // Refused before the extension keys are parsed: only the caller's context exists.
    await runtime.call('read_files', { tenant: 'acme', root: 'r', paths: '["a"]' }, 'mcp');
    expect(seen).toEqual([
      ['before', resolved],
      ['after', resolved],
      ['before', resolved],
      ['error HANDLER_ERROR', resolved],
      ['before', resolved],
      ['error VALIDATION_ERROR', resolved],
      ['before', 'mcp'],
      ['error VALIDATION_ERROR', 'mcp'],
    ]);
  });

  test('a deferred refusal names its member by its place in the arguments, never by library keys', () => {
    const pick = defineTool({
      description: 'Pick images.',
      input: z.object({
        images: z.object({
          paths: z
            .union([z.string(), z.array(z.string().refine((path) => path.endsWith('.png')))])
            .optional(),
        }),
      }),
    });
    expect(prepareTool(pick, { exportName: 'pick' }).plan.root).toEqual({
      parse: ['object'],
      fields: {
        images: {
          parse: ['object'],
          fields: {
            paths: { refuse: [{ defer: ['input', '.images', '.paths', '|1'] }], array: { parse: ['array'] } },
          },
          // The repair nullAbsent: a null for the optional paths is taken as left out.
          nullAbsent: ['paths'],
        },
      },
    });
  });
});
