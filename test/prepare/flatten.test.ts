import { prepareTool } from '@toolprep/build';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import { defineTool } from 'toolprep';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import { z as z3 } from 'zod3';
import { z as z3v3 } from 'zod325/v3';
import { compileSchema } from '../support/ajv.js';

type Doc = Record<string, unknown> & { properties?: Record<string, unknown> };

function flat(input: $ZodType): { mcp: Doc; agent: Doc } {
  return prepareTool(defineTool({ name: 'tool', description: 'A tool.', input })).inputSchema as {
    mcp: Doc;
    agent: Doc;
  };
}

/** The flattened `field` of a two-variant union on `kind` whose variants give it these schemas. */
function mergedField(a: $ZodType, b: $ZodType): unknown {
  const input = z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('a'), field: a as z.ZodType }),
    z.object({ kind: z.literal('b'), field: b as z.ZodType }),
  ]);
  return flat(input).mcp.properties?.field;
}

describe('flattening discriminated unions', () => {
  test('the discriminator comes first, required, as an enum of every tag', () => {
    const { mcp } = flat(
      z.discriminatedUnion('action', [
        z.object({ action: z.literal('create'), title: z.string(), body: z.string() }),
        z.object({ action: z.literal('delete'), title: z.string() }),
      ]),
    );
    expect(mcp).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['create', 'delete'] },
        title: { type: 'string' },
        body: { type: 'string', description: 'Required if action = create' },
      },
      required: ['action', 'title'],
    });
  });

  test.each([
    [
      'identical fields keep their shape',
      z.string().min(2),
      z.string().min(2),
      { type: 'string', minLength: 2 },
    ],
    [
      'numbers with different bounds widen to number',
      z.number().min(0),
      z.number().max(5),
      { type: 'number' },
    ],
    ['an integer beside a number is a number', z.number().int(), z.number(), { type: 'number' }],
    ['enum vs string widen to string', z.enum(['x', 'y']), z.string(), { type: 'string' }],
    [
      'string literals merge into one enum',
      z.literal('x'),
      z.enum(['y', 'z']),
      { type: 'string', enum: ['x', 'y', 'z'] },
    ],
    ['string vs number list both kinds in order', z.number(), z.string(), { type: ['string', 'number'] }],
    [
      'object vs array allow both, open',
      z.object({ a: z.string() }),
      z.array(z.string()),
      { type: ['object', 'array'], items: {}, additionalProperties: {} },
    ],
    [
      'a nullable object reads as [object, null]',
      z.object({ a: z.string() }).nullable(),
      z.string(),
      { type: ['string', 'object', 'null'], additionalProperties: {} },
    ],
    [
      'a nullable scalar beside another scalar',
      z.string().nullable(),
      z.boolean(),
      { type: ['string', 'boolean', 'null'] },
    ],
    ['a variant with no provable kind makes the field {}', z.any(), z.string(), {}],
    [
      'descriptions survive where they agree',
      z.string().describe('Same'),
      z.number().describe('Same'),
      { type: ['string', 'number'], description: 'Same' },
    ],
    [
      'descriptions that disagree are dropped',
      z.string().describe('One'),
      z.number().describe('Two'),
      { type: ['string', 'number'] },
    ],
    [
      'a default that only one variant has survives',
      z.string().default('x'),
      z.string(),
      { type: 'string', default: 'x', description: 'Required if kind = b' },
    ],
  ])('%s', (_case, a, b, expected) => {
    expect(mergedField(a, b)).toEqual(expected);
  });

  test('a key missing from some variants is optional, with a hint naming where it applies', () => {
    const { mcp } = flat(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), only: z.string().describe('Only for a'), some: z.string() }),
        z.object({ kind: z.literal('b'), some: z.string().optional() }),
        z.object({ kind: z.enum(['c', 'd']), some: z.string() }),
      ]),
    );
    expect(mcp.properties).toEqual({
      kind: { type: 'string', enum: ['a', 'b', 'c', 'd'] },
      only: { type: 'string', description: 'Only for a (Required if kind = a)' },
      some: { type: 'string', description: 'Required if kind = a | c | d' },
    });
    expect(mcp.required).toEqual(['kind']);
  });

  test('an optional key in only some variants says where it is available', () => {
    const { mcp } = flat(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), x: z.number().optional() }),
        z.object({ kind: z.literal('b') }),
      ]),
    );
    expect(mcp.properties?.x).toEqual({ type: 'number', description: 'Available if kind = a' });
  });

  test('a discriminator with a shared description keeps it', () => {
    const kind = (tag: string) => z.literal(tag).describe('What to do');
    const { mcp } = flat(
      z.discriminatedUnion('kind', [z.object({ kind: kind('a') }), z.object({ kind: kind('b') })]),
    );
    expect(mcp.properties?.kind).toEqual({ type: 'string', enum: ['a', 'b'], description: 'What to do' });
  });

  test('additionalProperties is false only when every variant is strict', () => {
    const strict = flat(
      z.discriminatedUnion('kind', [
        z.strictObject({ kind: z.literal('a') }),
        z.strictObject({ kind: z.literal('b') }),
      ]),
    );
    const mixed = flat(
      z.discriminatedUnion('kind', [
        z.strictObject({ kind: z.literal('a') }),
        z.object({ kind: z.literal('b') }),
      ]),
    );
    expect(strict.mcp.additionalProperties).toBe(false);
    expect(mixed.mcp.additionalProperties).toBeUndefined();
  });

  test('unions nested inside arrays flatten too, in both dialects', () => {
    const step = z.discriminatedUnion('op', [
      z.object({ op: z.literal('add'), n: z.number() }),
      z.object({ op: z.literal('neg') }),
    ]);
    const { mcp, agent } = flat(z.object({ steps: z.array(step), pair: z.tuple([step, z.string()]) }));
    const expected = {
      type: 'object',
      properties: {
        op: { type: 'string', enum: ['add', 'neg'] },
        n: { type: 'number', description: 'Required if op = add' },
      },
      required: ['op'],
    };
    expect(mcp.properties?.steps).toEqual({ type: 'array', items: expected });
    expect(agent.properties?.steps).toEqual({ type: 'array', items: expected });
    expect((mcp.properties as Record<string, Doc>).pair?.prefixItems).toEqual([expected, { type: 'string' }]);
    expect((agent.properties as Record<string, Doc>).pair?.items).toEqual([expected, { type: 'string' }]);
  });

  test('unions inside $defs flatten, and references are never resolved', () => {
    const Node: z.ZodType = z.discriminatedUnion('type', [
      z.object({ type: z.literal('leaf'), value: z.string() }),
      z.object({
        type: z.literal('branch'),
        get children() {
          return z.array(Node);
        },
      }),
    ]);
    const { mcp } = flat(z.object({ root: Node }));
    expect(mcp.properties?.root).toEqual({ $ref: '#/$defs/__schema0' });
    expect((mcp.$defs as Record<string, Doc>).__schema0).toEqual({
      type: 'object',
      properties: {
        type: { type: 'string', enum: ['branch', 'leaf'] },
        children: {
          type: 'array',
          items: { $ref: '#/$defs/__schema0' },
          description: 'Required if type = branch',
        },
        value: { type: 'string', description: 'Required if type = leaf' },
      },
      required: ['type'],
    });
    expect(compileSchema(mcp)({ root: { type: 'branch', children: [{ type: 'leaf', value: 'x' }] } })).toBe(
      true,
    );
  });

  test.each([
    ['a plain union (anyOf)', z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]), 'anyOf'],
    [
      'an optional discriminator',
      z.union([z.object({ k: z.literal('a').optional() }), z.object({ k: z.literal('b') })]),
      'anyOf',
    ],
    [
      'a non-string discriminator',
      z.discriminatedUnion('k', [
        z.object({ k: z.literal(1), a: z.string() }),
        z.object({ k: z.literal(2), b: z.string() }),
      ]),
      'oneOf',
    ],
    [
      'overlapping tags',
      z.discriminatedUnion('k', [
        z.object({ k: z.enum(['a', 'b']) }),
        z.object({ k: z.enum(['b', 'c']), x: z.string() }),
      ]),
      'oneOf',
    ],
  ])(
    '%s stays as it is where it is nested, and is merged into one object at the root',
    (_case, input, keyword) => {
      const nested = flat(z.object({ v: input as z.ZodType })).mcp.properties?.v as Doc;
      expect(Array.isArray(nested[keyword])).toBe(true);
      const { mcp } = flat(input);
      expect(mcp.type).toBe('object');
      expect(mcp.anyOf ?? mcp.oneOf).toBeUndefined();
      expect(mcp.description).toMatch(/^One of 2 forms: 1\) .*; 2\) .*\.$/);
    },
  );

  test('a plain root union is merged conservatively: every field, required where every form requires it, differing shapes as anyOf', () => {
    const input = z.union([
      z.object({ query: z.string(), limit: z.number().optional() }),
      z.object({ id: z.string(), limit: z.number().int() }),
      z.strictObject({ query: z.array(z.string()), tag: z.literal('x').nullable() }),
    ]);
    const { mcp } = flat(input);
    expect(mcp).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        query: {
          anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
          description: 'Required in form 1, 3',
        },
        limit: {
          anyOf: [
            { type: 'number' },
            { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
          ],
          description: 'Required in form 2',
        },
        id: { type: 'string', description: 'Required in form 2' },
        // A nullable literal as one type list with its values (no union keyword): the same values.
        tag: { type: ['string', 'null'], enum: ['x', null], description: 'Required in form 3' },
      },
      required: [],
      description: 'One of 3 forms: 1) query, limit; 2) id, limit; 3) query, tag.',
    });
    // A superset: every value a form takes is valid.
    const validate = compileSchema(mcp);
    for (const value of [{ query: 'a' }, { id: 'i', limit: 2 }, { query: ['a'], tag: null }])
      expect(validate(value)).toBe(true);
  });

  test('members the same field declares identically give one schema, not an anyOf', () => {
    const input = z.union([
      z.object({ a: z.string(), mode: z.literal('x').nullable() }),
      z.object({ b: z.string(), mode: z.literal('x').nullable() }),
    ]);
    expect(flat(input).mcp.properties?.mode).toEqual({ type: ['string', 'null'], enum: ['x', null] });
  });

  test('the result does not depend on the order of the variants', () => {
    const a = z.object({ kind: z.literal('a'), x: z.string(), shared: z.number() });
    const b = z.object({ kind: z.literal('b'), y: z.boolean(), shared: z.string() });
    const c = z.object({ kind: z.enum(['c', 'cc']), x: z.number(), z: z.null() });
    const orders = [
      [a, b, c],
      [c, b, a],
      [b, a, c],
      [c, a, b],
    ].map((variants) =>
      JSON.stringify(flat(z.discriminatedUnion('kind', variants as [typeof a, typeof b, typeof c]))),
    );
    expect(new Set(orders).size).toBe(1);
  });

  test('the key chosen is the first qualifying key in sorted order', () => {
    const { mcp } = flat(
      z.discriminatedUnion('mode', [
        z.object({ mode: z.literal('x'), action: z.literal('p') }),
        z.object({ mode: z.literal('y'), action: z.literal('q') }),
      ]),
    );
    expect(Object.keys(mcp.properties ?? {})).toEqual(['action', 'mode']);
    expect(mcp.properties?.mode).toEqual({ type: 'string', enum: ['x', 'y'] });
    expect(mcp.required).toEqual(['action', 'mode']);
  });

  test('flatten: false keeps the union and adds the object type at the top', () => {
    const input = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a') }),
      z.object({ kind: z.literal('b') }),
    ]);
    const { mcp } = prepareTool(defineTool({ name: 't', description: 'd', input }), {
      flatten: false,
    }).inputSchema;
    expect(Object.keys(mcp)).toEqual(['$schema', 'type', 'oneOf']);
  });
});

describe('flattening, per library: the same union written in each gives the same document', () => {
  // One union, written in every library toolprep reads: a tag, a field both variants have, and a
  // field one has.
  const zodUnion = (zod: typeof z3) =>
    zod.object({
      edit: zod.discriminatedUnion('action', [
        zod.object({ action: zod.literal('create'), title: zod.string(), body: zod.string() }),
        zod.object({ action: zod.literal('delete'), title: zod.string() }),
      ]),
    });
  const arktypeEdit = type({ action: "'create'", title: 'string', body: 'string' }).or({
    action: "'delete'",
    title: 'string',
  });
  const valibotEdit = v.variant('action', [
    v.object({ action: v.literal('create'), title: v.string(), body: v.string() }),
    v.object({ action: v.literal('delete'), title: v.string() }),
  ]);
  const LIBRARIES: [string, unknown][] = [
    ['zod 4', zodUnion(z as unknown as typeof z3)],
    ['zod 3.23', zodUnion(z3)],
    ['zod/v3 (3.25)', zodUnion(z3v3 as unknown as typeof z3)],
    ['ArkType', type({ edit: arktypeEdit })],
    ['Valibot', toStandardJsonSchema(v.object({ edit: valibotEdit }))],
  ];

  test.each(LIBRARIES)('%s', (_library, input) => {
    const { mcp, agent } = prepareTool(
      defineTool({ name: 'tool', description: 'A tool.', input: input as never }),
    ).inputSchema;
    const edit = (mcp.properties as Record<string, Doc>).edit as Doc;
    expect(edit.properties).toEqual({
      action: expect.objectContaining({ enum: ['create', 'delete'] }),
      title: { type: 'string' },
      body: { type: 'string', description: 'Required if action = create' },
    });
    expect(edit.required).toEqual(['action', 'title']);
    expect((agent.properties as Record<string, Doc>).edit).toEqual(edit);
  });
});
