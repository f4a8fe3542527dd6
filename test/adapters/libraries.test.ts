import { formatProblem, type PrepareToolOptions, prepareTool, prepareToolSet } from '@toolprep/build';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import { defineTool } from 'toolprep';
import { createToolRuntime } from 'toolprep/runtime';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { z as z4 } from 'zod';
import { z as z3 } from 'zod3';
import { z as z3v3 } from 'zod325/v3';
import { compileSchema } from '../support/ajv.js';
import { coerceBothWays } from '../support/coerce.js';

/**
 * What each library other than Zod 4 is shown as and how its arguments are coerced, case by case.
 * Zod 4's own tables are in test/prepare and test/coerce; rows here are the places where a library
 * is read differently, and the approximations docs/guide/schema-libraries.md lists.
 */

const LIST = ' is a list written as text — pass the array itself, not JSON written as text';

function prepare(input: unknown, options: PrepareToolOptions = {}, output?: unknown) {
  return prepareTool(
    defineTool({ name: 'tool', description: 'A tool.', input: input as never, output: output as never }),
    options,
  );
}

/** A field's document, unions left as written (flattening is tested on Zod 4's documents). */
const fieldOf = (input: unknown) => {
  const { mcp } = prepare(input, { flatten: false }).inputSchema;
  return {
    field: (mcp.properties as Record<string, unknown>).field,
    required: ((mcp.required as string[] | undefined) ?? []).includes('field'),
  };
};

const valibot = <T extends v.GenericSchema>(schema: T) => toStandardJsonSchema(schema);

describe.each([
  ['zod 3.23', z3],
  ['zod/v3 (3.25)', z3v3 as unknown as typeof z3],
])('%s', (_library, z) => {
  test.each([
    ['.optional() is not required', z.string().optional(), { type: 'string' }, false],
    ['.nullable() adds null', z.string().nullable(), { type: ['string', 'null'] }, true],
    ['.default(x) shows the default', z.number().default(3), { type: 'number', default: 3 }, false],
    ['.catch(x) shows the default', z.string().catch('x'), { type: 'string', default: 'x' }, false],
    [
      '.catch(function) shows no default',
      z.string().catch(({ input }) => String(input)),
      { type: 'string' },
      false,
    ],
    ['a refinement is invisible', z.string().refine((value) => value !== 'x'), { type: 'string' }, true],
    ['a transform shows its input side', z.string().transform((s) => s.length), { type: 'string' }, true],
    [
      '.describe() is kept',
      z.string().describe('The query'),
      { type: 'string', description: 'The query' },
      true,
    ],
    ['an enum', z.enum(['a', 'b']), { type: 'string', enum: ['a', 'b'] }, true],
    [
      'a tuple',
      z.tuple([z.number(), z.number()]),
      { type: 'array', minItems: 2, maxItems: 2, prefixItems: [{ type: 'number' }, { type: 'number' }] },
      true,
    ],
    [
      'a discriminated union is exclusive',
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), a: z.string() }),
        z.object({ kind: z.literal('b') }),
      ]),
      {
        oneOf: [
          {
            type: 'object',
            properties: { kind: { type: 'string', const: 'a' }, a: { type: 'string' } },
            required: ['kind', 'a'],
          },
          { type: 'object', properties: { kind: { type: 'string', const: 'b' } }, required: ['kind'] },
        ],
      },
      true,
    ],
  ])('%s', (_case, field, expected, required) => {
    expect(fieldOf(z.object({ field }))).toEqual({ field: expected, required });
  });

  test.each([
    ['.strict() objects are closed', z.object({ a: z.string() }).strict(), false],
    ['.passthrough() objects stay open', z.object({ a: z.string() }).passthrough(), undefined],
    ['plain objects say nothing', z.object({ a: z.string() }), undefined],
  ])('%s', (_case, input, additionalProperties) => {
    expect(prepare(input).inputSchema.mcp.additionalProperties).toEqual(additionalProperties);
  });

  test('a schema used twice is written where it is used; a recursive one resolves inside the document', () => {
    const point = z.object({ x: z.number() });
    type Tree = { name: string; children?: Tree[] };
    const Tree: z3.ZodType<Tree> = z.lazy(() =>
      z.object({ name: z.string(), children: z.array(Tree).optional() }),
    );
    const { mcp, agent } = prepare(z.object({ from: point, to: point, tree: Tree })).inputSchema;
    const properties = mcp.properties as Record<string, Record<string, unknown>>;
    expect(properties.from).toEqual(properties.to);
    expect(properties.to).toMatchObject({ type: 'object', properties: { x: { type: 'number' } } });
    const validate = compileSchema(mcp);
    expect(validate({ from: { x: 1 }, to: { x: 2 }, tree: { name: 'a', children: [{ name: 'b' }] } })).toBe(
      true,
    );
    expect(validate({ from: { x: 1 }, to: { x: 2 }, tree: { name: 'a', children: [{ name: 1 }] } })).toBe(
      false,
    );
    expect(compileSchema(agent)({ from: { x: 1 }, to: { x: 2 }, tree: { name: 'a' } })).toBe(true);
  });

  test('unrepresentable nodes are errors naming the field, with a hint written for Zod 3', () => {
    const attempt = () =>
      prepare(
        z.object({
          when: z.date(),
          sizes: z.record(z.string(), z.bigint()),
          choice: z.union([z.string(), z.map(z.string(), z.string())]),
          callback: z.function(),
          later: z.promise(z.string()),
        }),
      );
    expect(attempt).toThrow(
      /tool "tool", input\.when: Date cannot be represented in JSON Schema \(take an ISO string with z\.string\(\)\.datetime\(\)/,
    );
    expect(attempt).toThrow(/input\.sizes\.\*: BigInt .*z\.number\(\)\.int\(\)/);
    expect(attempt).toThrow(/input\.choice: Map .*z\.record\(\)/);
    expect(attempt).toThrow(/input\.callback: Function types cannot be represented in JSON Schema/);
    expect(attempt).toThrow(/input\.later: Promises .*arguments arrive as JSON, never as a promise/);
  });

  test("the output side, as Zod 4's converter shows it: a default or a catch is always there, a stripping object has no other keys", () => {
    const output = z.object({
      n: z.number().default(1),
      o: z.string().optional(),
      c: z.string().catch('x'),
      loose: z.object({ a: z.string() }).passthrough(),
    });
    expect(prepare(undefined, {}, output).outputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        n: { type: 'number', default: 1 },
        o: { type: 'string' },
        c: { type: 'string', default: 'x' },
        loose: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
      },
      required: ['n', 'c', 'loose'],
      additionalProperties: false,
    });
  });

  test('z.custom() is shown as any value: Zod 3 builds it from z.any() (an approximation)', () => {
    expect(fieldOf(z.object({ field: z.custom<string>(() => true) })).field).toEqual({});
  });

  test.each([
    [
      'an array sent as text is repaired',
      z.object({ v: z.array(z.string()) }),
      { v: '["a"]' },
      { value: { v: ['a'] } },
    ],
    [
      'an object sent as text is repaired',
      z.object({ v: z.object({ x: z.number() }) }),
      { v: '{"x":1}' },
      { value: { v: { x: 1 } } },
    ],
    [
      'a list written as text where a string is also allowed is refused',
      z.object({ v: z.union([z.string(), z.array(z.string())]) }),
      { v: '["a"]' },
      { refused: `v${LIST}` },
    ],
    [
      'a refined element defers to the parser: a list it rejects stays a string',
      z.object({ v: z.union([z.string(), z.array(z.string().refine((s) => s.endsWith('.png')))]) }),
      { v: '["a.txt"]' },
      { value: { v: '["a.txt"]' } },
    ],
  ])('%s', (_case, input, args, expected) => {
    expect(coerceBothWays(input, args)).toEqual(expected);
  });
});

/** Standard JSON Schema libraries, each row written in both: the document is what toolprep reads. */
const STANDARD_ROWS = [
  {
    name: 'an optional field is not required',
    arktype: type({ 'field?': 'number' }),
    valibot: valibot(v.object({ field: v.optional(v.number()) })),
    expected: { field: { type: 'number' }, required: false },
  },
  {
    name: 'a nullable field',
    arktype: type({ field: 'string | null' }),
    valibot: valibot(v.object({ field: v.nullable(v.string()) })),
    expected: { field: { anyOf: [{ type: 'string' }, { type: 'null' }] }, required: true },
  },
  {
    name: 'a refinement is invisible',
    arktype: type({ field: type('string').narrow((s) => s !== 'x') }),
    valibot: valibot(
      v.object({
        field: v.pipe(
          v.string(),
          v.check((s) => s !== 'x'),
        ),
      }),
    ),
    expected: { field: { type: 'string' }, required: true },
  },
  {
    name: 'a transform shows its input side',
    arktype: type({ field: type('string').pipe((s) => s.length) }),
    valibot: valibot(
      v.object({
        field: v.pipe(
          v.string(),
          v.transform((s) => s.length),
        ),
      }),
    ),
    expected: { field: { type: 'string' }, required: true },
  },
  {
    name: 'a union of objects told apart by a tag is exclusive',
    arktype: type({ field: type({ kind: "'a'", a: 'string' }).or({ kind: "'b'" }) }),
    valibot: valibot(
      v.object({
        field: v.variant('kind', [
          v.object({ kind: v.literal('a'), a: v.string() }),
          v.object({ kind: v.literal('b') }),
        ]),
      }),
    ),
    expected: {
      field: {
        oneOf: [
          {
            type: 'object',
            properties: { kind: { const: 'a' }, a: { type: 'string' } },
            required: expect.arrayContaining(['kind', 'a']),
          },
          { type: 'object', properties: { kind: { const: 'b' } }, required: ['kind'] },
        ],
      },
      required: true,
    },
  },
] as const;

describe.each(['arktype', 'valibot'] as const)('%s', (library) => {
  test.each(STANDARD_ROWS.map((row) => [row.name, row] as const))('%s', (_name, row) => {
    expect(fieldOf(row[library])).toEqual(row.expected);
  });

  const unrepresentable = {
    arktype: type({ when: 'Date', n: 'bigint' }),
    valibot: valibot(v.object({ when: v.date(), n: v.bigint() })),
  }[library];

  test('unrepresentable nodes are errors naming the field', () => {
    const attempt = () => prepare(unrepresentable);
    expect(attempt).toThrow(
      /tool "tool", input\.when: Date cannot be represented in JSON Schema \(describe the value with a schema JSON can carry/,
    );
    expect(attempt).toThrow(/input\.n: BigInt cannot be represented/);
  });

  test("unrepresentable: 'degrade' shows them as {} with one warning each", () => {
    const warnings: string[] = [];
    const { mcp } = prepare(unrepresentable, {
      unrepresentable: 'degrade',
      warn: (problem) => warnings.push(formatProblem(problem)),
    }).inputSchema;
    expect(mcp.properties).toEqual({ when: {}, n: {} });
    expect(warnings.sort()).toEqual([
      '[toolprep] warning: tool "tool", input.n: BigInt cannot be represented in JSON Schema; shown as {}',
      '[toolprep] warning: tool "tool", input.when: Date cannot be represented in JSON Schema; shown as {}',
    ]);
  });

  const rows = {
    arktype: {
      list: type({ v: 'string[]' }),
      object: type({ v: { x: 'number' } }),
      pathOrPaths: type({ v: 'string | string[]' }),
      refinedPaths: type({
        v: type('string').or(
          type('string')
            .narrow((s) => s.endsWith('.png'))
            .array(),
        ),
      }),
    },
    valibot: {
      list: valibot(v.object({ v: v.array(v.string()) })),
      object: valibot(v.object({ v: v.object({ x: v.number() }) })),
      pathOrPaths: valibot(v.object({ v: v.union([v.string(), v.array(v.string())]) })),
      refinedPaths: valibot(
        v.object({
          v: v.union([
            v.string(),
            v.array(
              v.pipe(
                v.string(),
                v.check((s) => s.endsWith('.png')),
              ),
            ),
          ]),
        }),
      ),
    },
  }[library];

  test.each([
    ['an array sent as text is repaired', rows.list, { v: '["a"]' }, { value: { v: ['a'] } }],
    ['an object sent as text is repaired', rows.object, { v: '{"x":1}' }, { value: { v: { x: 1 } } }],
    [
      'a list written as text where a string is also allowed is refused',
      rows.pathOrPaths,
      { v: '["a"]' },
      { refused: `v${LIST}` },
    ],
    [
      'a string that is no such list stays a string',
      rows.pathOrPaths,
      { v: '[preview].png' },
      { value: { v: '[preview].png' } },
    ],
    // The plan is read from the document, where no refinement shows: every list the element's
    // type takes is refused, even one the refinement would reject (Zod defers to the parser).
    [
      'a refined element: a list the refinement rejects is still refused',
      rows.refinedPaths,
      { v: '["a.txt"]' },
      { refused: `v${LIST}` },
    ],
  ])('%s', (_case, input, args, expected) => {
    expect(coerceBothWays(input, args)).toEqual(expected);
  });
});

describe.each([
  {
    library: 'ArkType',
    extend: type({ tenant: 'string', 'since?': 'Date' }),
    params: type({ root: 'string' }),
    input: type({ tags: 'string[]' }),
  },
  {
    library: 'Valibot',
    extend: valibot(v.object({ tenant: v.string(), since: v.optional(v.date()) })),
    params: valibot(v.object({ root: v.string() })),
    input: valibot(v.object({ tags: v.array(v.string()) })),
  },
])('$library at run time', ({ extend, params, input }) => {
  const readFiles = defineTool({ name: 'read_files', description: 'Read.', params, input });
  // The extension schema holds a Date, which no document shows: its keys are still read at start.
  const toolSet = prepareToolSet({ readFiles }, { extend: { schema: extend, advertise: false } as never });
  const runtime = createToolRuntime(toolSet, {
    handlers: { read_files: (args: unknown, context: unknown) => ({ args, context }) },
    extend: { schema: extend as never, resolve: (values) => values },
  });

  test('extension keys and params are split off, the rest repaired, each part parsed by its own schema', async () => {
    expect(await runtime.call('read_files', { tenant: 'acme', root: 'r', tags: '["a"]' })).toEqual({
      ok: true,
      value: { args: { root: 'r', tags: ['a'] }, context: { tenant: 'acme' } },
    });
  });

  test('bad arguments are refused naming the field, in the words every library shares', async () => {
    expect(await runtime.call('read_files', { tenant: 'acme', root: 1, tags: [] })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', message: 'Invalid arguments: "root" must be a string (got 1)' },
    });
  });
});

test.each([
  ['zod 3.23', z3],
  ['zod/v3 (3.25)', z3v3 as unknown as typeof z3],
])(
  '%s at run time: a refusal deferred to the member finds it again and asks its own parser',
  async (_library, z) => {
    const attach = defineTool({
      name: 'attach',
      description: 'Attach images.',
      input: z.object({
        images: z.union([z.string(), z.array(z.string().refine((s) => s.endsWith('.png')))]),
      }),
    });
    const toolSet = prepareToolSet({ attach });
    expect(JSON.stringify(toolSet.prepared[0]?.plan)).toContain('"defer":["input",".images","|1"]');
    const runtime = createToolRuntime(toolSet, { handlers: { attach: (args: unknown) => args } });
    expect(await runtime.call('attach', { images: '["a.png"]' })).toMatchObject({
      ok: false,
      error: { message: `images${LIST}` },
    });
    expect(await runtime.call('attach', { images: '["a.txt"]' })).toEqual({
      ok: true,
      value: { images: '["a.txt"]' },
    });
  },
);

test('one contract may mix libraries: Zod 3 params beside a Zod 4 input, each parsed by its own', async () => {
  const move = defineTool({
    name: 'move_note',
    description: 'Move a note.',
    params: z3.object({ notebook: z3.string() }),
    input: z4.object({ to: z4.object({ folder: z4.string() }) }),
  });
  const toolSet = prepareToolSet({ move });
  expect(toolSet.prepared[0]).toMatchObject({ libraries: ['zod3', 'zod4'], params: ['notebook'] });
  expect(toolSet.adapters.map((adapter) => adapter.name).sort()).toEqual(['zod3', 'zod4']);
  const runtime = createToolRuntime(toolSet, { handlers: { move_note: (args: unknown) => args } });
  expect(await runtime.call('move_note', { notebook: 'n', to: '{"folder":"f"}' })).toEqual({
    ok: true,
    value: { notebook: 'n', to: { folder: 'f' } },
  });
  const invalid = await runtime.call('move_note', { notebook: 1, to: { folder: 2 } });
  expect(invalid).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
  // Each part is refused by its own library's parser, and each refusal names its field.
  expect((invalid as { error: { message: string } }).error.message).toBe(
    'Invalid arguments: "notebook" must be a string (got 1); "to.folder" must be a string (got 2)',
  );
});

test('params and extension keys of a Standard library must be objects, said in its terms', () => {
  expect(() =>
    prepareTool(defineTool({ name: 'tool', description: 'A tool.', params: type('string') as never })),
  ).toThrow('tool "tool", params: must be an object schema, not string');
  expect(() => prepareToolSet({}, { extend: { schema: valibot(v.string()) } as never })).toThrow(
    'option "extend.schema": must be an object schema, such as z.object({ tenant: z.string() }), not a string schema (a Standard JSON Schema library)',
  );
});

test('a Valibot schema without its JSON Schema converter is refused with what to wrap it in', () => {
  expect(() => prepare(v.object({ a: v.string() }))).toThrow(
    'tool "tool", input: is not a schema toolprep reads (it is a valibot Standard Schema without Standard JSON Schema: wrap it with toStandardJsonSchema() from @valibot/to-json-schema; see docs/guide/schema-libraries.md)',
  );
});
