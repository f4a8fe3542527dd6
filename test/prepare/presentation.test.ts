import { formatProblem, type PrepareToolOptions, prepareTool } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { compileSchema } from '../support/ajv.js';

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

function present(input: $ZodType | undefined, options: PrepareToolOptions = {}, params?: $ZodType) {
  return prepareTool(defineTool({ name: 'tool', description: 'A tool.', input, params }), options)
    .inputSchema;
}

const Tree: z.ZodType = z.object({
  name: z.string(),
  get children() {
    return z.array(Tree).optional();
  },
});

describe('presentation documents', () => {
  test('both dialects are stamped and have an object at the top', () => {
    const { mcp, agent } = present(z.object({ q: z.string() }));
    expect(mcp).toEqual({
      $schema: DRAFT_2020,
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
    });
    expect(agent).toEqual({
      $schema: DRAFT_07,
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
    });
  });

  test('no params and no input give an object with no properties', () => {
    expect(present(undefined).mcp).toEqual({ $schema: DRAFT_2020, type: 'object', properties: {} });
    expect(present(undefined).agent).toEqual({ $schema: DRAFT_07, type: 'object', properties: {} });
  });

  test.each([
    ['z.coerce.number() shows as a number', z.coerce.number(), { type: 'number' }, true],
    [
      '.catch(x) shows the default and is not required',
      z.string().catch('x'),
      { type: 'string', default: 'x' },
      false,
    ],
    [
      '.default(x) shows the default and is not required',
      z.number().default(3),
      { type: 'number', default: 3 },
      false,
    ],
    [
      '.prefault(x) shows the default and is not required',
      z.number().prefault(2),
      { type: 'number', default: 2 },
      false,
    ],
    ['.optional() is not required', z.string().optional(), { type: 'string' }, false],
    ['.nullable() adds null', z.string().nullable(), { type: ['string', 'null'] }, true],
    ['a refinement is invisible', z.string().refine((value) => value !== 'x'), { type: 'string' }, true],
    [
      'a transform shows its input side',
      z.string().transform((value) => value.length),
      { type: 'string' },
      true,
    ],
    [
      '.describe() and .meta() are kept',
      z
        .string()
        .describe('The query')
        .meta({ title: 'Query', examples: ['cats'] }),
      { type: 'string', description: 'The query', title: 'Query', examples: ['cats'] },
      true,
    ],
    ['an enum', z.enum(['a', 'b']), { type: 'string', enum: ['a', 'b'] }, true],
  ])('%s', (_case, field, expected, required) => {
    const { mcp } = present(z.object({ field }));
    expect((mcp.properties as Record<string, unknown>).field).toEqual(expected);
    expect(((mcp.required as string[] | undefined) ?? []).includes('field')).toBe(required);
  });

  test.each([
    ['strict objects are closed', z.strictObject({ a: z.string() }), false],
    ['loose objects stay open', z.looseObject({ a: z.string() }), {}],
    [
      'plain objects say nothing (extra keys are stripped, not refused)',
      z.object({ a: z.string() }),
      undefined,
    ],
  ])('%s', (_case, input, additionalProperties) => {
    const { mcp, agent } = present(input);
    expect(mcp.additionalProperties).toEqual(additionalProperties);
    expect(agent.additionalProperties).toEqual(additionalProperties);
  });

  test('tuples: prefixItems in 2020-12, an items array in draft-07', () => {
    const { mcp, agent } = present(
      z.object({ point: z.tuple([z.number(), z.number()]), tagged: z.tuple([z.string()]).rest(z.boolean()) }),
    );
    const mcpProperties = mcp.properties as Record<string, unknown>;
    const agentProperties = agent.properties as Record<string, unknown>;
    expect(mcpProperties.point).toEqual({
      type: 'array',
      prefixItems: [{ type: 'number' }, { type: 'number' }],
      items: false,
      minItems: 2,
      maxItems: 2,
    });
    expect(agentProperties.point).toEqual({
      type: 'array',
      items: [{ type: 'number' }, { type: 'number' }],
      additionalItems: false,
      minItems: 2,
      maxItems: 2,
    });
    expect(mcpProperties.tagged).toMatchObject({
      prefixItems: [{ type: 'string' }],
      items: { type: 'boolean' },
    });
    expect(agentProperties.tagged).toMatchObject({
      items: [{ type: 'string' }],
      additionalItems: { type: 'boolean' },
    });
  });

  test('a recursive field becomes a reference that resolves inside the document', () => {
    const { mcp, agent } = present(z.object({ root: Tree }));
    expect((mcp.properties as Record<string, unknown>).root).toEqual({ $ref: '#/$defs/__schema0' });
    expect((agent.properties as Record<string, unknown>).root).toEqual({ $ref: '#/definitions/__schema0' });
    const value = { root: { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] } };
    for (const document of [mcp, agent]) {
      expect(compileSchema(document)(value)).toBe(true);
      expect(compileSchema(document)({ root: { name: 'a', children: [{ children: [] }] } })).toBe(false);
    }
  });

  test('a recursive root is never a root-level $ref: the recursion moves into a definition', () => {
    const { mcp, agent } = present(Tree);
    expect(mcp).toMatchObject({
      type: 'object',
      properties: { children: { items: { $ref: '#/$defs/__root' } } },
    });
    expect(mcp.$ref).toBeUndefined();
    expect(agent).toMatchObject({ properties: { children: { items: { $ref: '#/definitions/__root' } } } });
    expect(JSON.stringify([mcp, agent])).not.toContain('"#"');
    for (const document of [mcp, agent]) {
      expect(compileSchema(document)({ name: 'a', children: [{ name: 'b', children: [] }] })).toBe(true);
      expect(compileSchema(document)({ name: 'a', children: [{ name: 1 }] })).toBe(false);
    }
  });

  test('z.lazy() recursion is presented like a getter', () => {
    const Json: z.ZodType = z.lazy(() => z.union([z.string(), z.array(Json)]));
    const { mcp } = present(z.object({ value: Json }));
    expect(compileSchema(mcp)({ value: ['a', ['b', []]] })).toBe(true);
    expect(compileSchema(mcp)({ value: ['a', [1]] })).toBe(false);
  });

  test('zod/mini schemas are presented like classic ones', () => {
    const mini = present(
      zm.object({
        q: zm.string(),
        limit: zm.optional(zm.number()),
        mode: zm._default(zm.enum(['a', 'b']), 'a'),
      }),
    );
    const classic = present(
      z.object({ q: z.string(), limit: z.number().optional(), mode: z.enum(['a', 'b']).default('a') }),
    );
    expect(mini).toEqual(classic);
  });

  test('every document is deep-frozen and the same object serves every read', () => {
    const prepared = prepareTool(
      defineTool({ name: 't', description: 'd', input: z.object({ a: z.object({ b: z.string() }) }) }),
    );
    expect(Object.isFrozen(prepared)).toBe(true);
    expect(Object.isFrozen(prepared.inputSchema.mcp)).toBe(true);
    expect(Object.isFrozen((prepared.inputSchema.mcp.properties as Record<string, object>).a)).toBe(true);
    expect(prepared.inputSchema.mcp).toBe(prepared.inputSchema.mcp);
  });

  test('the digest is 16 hex digits and changes with anything presented', () => {
    const input = z.object({ q: z.string() });
    const digest = (description: string) => prepareTool(defineTool({ name: 't', description, input })).digest;
    expect(digest('Search.')).toMatch(/^[0-9a-f]{16}$/);
    expect(digest('Search.')).toBe(digest('Search.'));
    expect(digest('Search.')).not.toBe(digest('Search files.'));
  });
});

describe('unrepresentable nodes', () => {
  const input = z.object({
    when: z.date(),
    files: z.array(z.object({ modified: z.date() })),
    sizes: z.record(z.string(), z.bigint()),
    pair: z.tuple([z.string(), z.set(z.string())]),
    choice: z.union([z.string(), z.map(z.string(), z.string())]),
    check: z.custom<string>(() => true),
  });

  test('are errors by default, each naming the tool, the field path and a hint', () => {
    const attempt = () => present(input);
    expect(attempt).toThrow(
      /tool "tool", input\.when: Date cannot be represented in JSON Schema \(take an ISO string with z\.iso\.datetime\(\)/,
    );
    expect(attempt).toThrow(/input\.files\[\]\.modified: Date/);
    expect(attempt).toThrow(/input\.sizes\.\*: BigInt .*z\.number\(\)\.int\(\)/);
    expect(attempt).toThrow(/input\.pair\[1\]: Set .*z\.array\(\)/);
    expect(attempt).toThrow(/input\.choice: Map .*z\.record\(\)/);
    expect(attempt).toThrow(/input\.check: Custom .*or set unrepresentable: 'degrade' to show it as \{\}/);
  });

  test("unrepresentable: 'degrade' shows them as {} with one warning each", () => {
    const warnings: string[] = [];
    const { mcp } = present(input, {
      unrepresentable: 'degrade',
      warn: (problem) => warnings.push(formatProblem(problem)),
    });
    expect(mcp.properties).toMatchObject({
      when: {},
      files: { items: { properties: { modified: {} } } },
      sizes: { additionalProperties: {} },
    });
    expect(warnings).toHaveLength(6);
    expect(warnings[0]).toBe(
      '[toolprep] warning: tool "tool", input.when: Date cannot be represented in JSON Schema; shown as {}',
    );
  });

  test('in params they name params', () => {
    expect(() => present(z.object({ q: z.string() }), {}, z.object({ since: z.date() }))).toThrow(
      /params\.since: Date/,
    );
  });
});

describe('output schemas', () => {
  const prepareWithOutput = (output: $ZodType) => {
    const warnings: string[] = [];
    const prepared = prepareTool(defineTool({ name: 't', description: 'd', output }), {
      warn: (problem) => warnings.push(formatProblem(problem)),
    });
    return { outputSchema: prepared.outputSchema, warnings };
  };

  test('a declared object output is presented from its output side', () => {
    const { outputSchema, warnings } = prepareWithOutput(
      z.object({ count: z.number(), at: z.string().default('now') }),
    );
    expect(outputSchema).toEqual({
      $schema: DRAFT_2020,
      type: 'object',
      properties: { count: { type: 'number' }, at: { type: 'string', default: 'now' } },
      required: ['count', 'at'],
      additionalProperties: false,
    });
    expect(warnings).toEqual([]);
  });

  test.each([
    [
      'a Date',
      z.object({ at: z.date() }),
      /output\.at: Date cannot be represented .* listed without outputSchema/,
    ],
    [
      'a transform',
      z.object({ n: z.string().transform(Number) }),
      /output\.n: Transforms cannot be represented/,
    ],
    ['a non-object', z.array(z.string()), /output: MCP requires an object output schema, not type "array"/],
  ])('an output with %s leaves the tool without outputSchema, with a warning', (_case, output, warning) => {
    const { outputSchema, warnings } = prepareWithOutput(output);
    expect(outputSchema).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(warning);
  });
});

describe('params and input, presented as one object', () => {
  test('params come first, required is the union, the key policy comes from input', () => {
    const { mcp } = present(
      z.strictObject({ body: z.string(), draft: z.boolean().optional() }),
      {},
      z.looseObject({ id: z.string() }),
    );
    expect(mcp).toEqual({
      $schema: DRAFT_2020,
      type: 'object',
      properties: { id: { type: 'string' }, body: { type: 'string' }, draft: { type: 'boolean' } },
      required: ['id', 'body'],
      additionalProperties: false,
    });
  });

  test('params alone are the whole object', () => {
    expect(present(undefined, {}, z.object({ id: z.string() })).mcp).toEqual({
      $schema: DRAFT_2020,
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
    });
  });

  test('with a root union left unflattened, every variant gets the params', () => {
    const input = z.discriminatedUnion('op', [
      z.strictObject({ op: z.literal('a'), x: z.string() }),
      z.strictObject({ op: z.literal('b') }),
    ]);
    const { mcp } = present(input, { flatten: false }, z.object({ id: z.string() }));
    expect(mcp.type).toBe('object');
    expect(mcp.oneOf).toEqual([
      {
        type: 'object',
        properties: { id: { type: 'string' }, op: { type: 'string', const: 'a' }, x: { type: 'string' } },
        required: ['id', 'op', 'x'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: { id: { type: 'string' }, op: { type: 'string', const: 'b' } },
        required: ['id', 'op'],
        additionalProperties: false,
      },
    ]);
    expect(compileSchema(mcp)({ id: '1', op: 'b' })).toBe(true);
  });

  test('recursive definitions in both keep apart', () => {
    const Other: z.ZodType = z.object({
      get next() {
        return Other.optional();
      },
    });
    const { mcp } = present(z.object({ tree: Tree }), {}, z.object({ chain: Other }));
    expect(Object.keys(mcp.$defs as object).sort()).toEqual(['__schema0', 'params___schema0_1']);
    const validate = compileSchema(mcp);
    expect(validate({ chain: { next: { next: {} } }, tree: { name: 'a', children: [] } })).toBe(true);
    expect(validate({ chain: { next: { next: 1 } }, tree: { name: 'a' } })).toBe(false);
    expect(validate({ chain: {}, tree: { name: 1 } })).toBe(false);
  });
});
