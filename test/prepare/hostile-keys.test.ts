import { type JsonSchema, type PreparedTool, prepareTool } from '@toolprep/build';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import { coerceJsonArgs, defineTool } from 'toolprep';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';
import { INVERSE_STEPS, PROFILE_NAMES, type ProfileName } from '../../src/manifest/profiles.js';
import { forEachNode } from '../../src/prepare/profiles/tree.js';
import { getOwn } from '../../src/shared/run/own-property.js';
import { coerceBothWays } from '../support/coerce.js';
import { walkGenerated } from '../support/generated-walk.js';
import { HOSTILE_NAMES } from '../support/schema-arbitrary.js';

/**
 * Field names that are also names of `Object.prototype`'s members (`__proto__` above all, which an
 * assignment `record[key] = value` takes as the prototype), the empty string and non-ASCII: every
 * document, profile, plan and digest toolprep makes carries such a field as it carries any other.
 * The oracle: a contract with the hostile name prepares to the same bytes as the same contract with
 * a plain name, the name aside.
 */

/** A name no hostile one is: prepared with it, a contract shows what it should with any name. */
const PLAIN = 'plain_field';

/** An object whose keys are own properties, whatever they are (`{ __proto__: x }` sets a prototype). */
const own = (entries: readonly (readonly [string, unknown])[]): Record<string, unknown> =>
  Object.fromEntries(entries);

/** A document's own `__proto__` property, if it has one. */
const protoOf = (schema: unknown): unknown =>
  getOwn((schema as JsonSchema).properties as Record<string, unknown> | undefined, '__proto__');

interface Shape {
  readonly id: string;
  /** The input, with the field named `name` holding `field` (a list of strings by default). */
  input(name: string, field?: z.ZodType): z.ZodType;
  /** Arguments with the field's value at its place. */
  args(name: string, value: unknown): Record<string, unknown>;
  /**
   * False where the rule leaves the field to the parser: a plain union with two object members
   * cannot tell which member a value is for.
   */
  readonly repaired?: false;
}

/** The field and one plain key beside it, each an own property. */
const beside = (name: string, value: unknown, other = 'b'): Record<string, unknown> =>
  own([
    [name, value],
    [other, 'x'],
  ]);

/** The field written as text beside a plain key is repaired, by the plan and the reference alike. */
function expectRepaired(input: unknown, name: string): void {
  expect(coerceBothWays(input, beside(name, '["a"]'))).toEqual({ value: beside(name, ['a']) });
}

const SHAPES: readonly Shape[] = [
  {
    id: 'an object',
    input: (name, field = z.array(z.string())) => z.object({ [name]: field, b: z.string() }),
    args: (name, value) => beside(name, value),
  },
  {
    id: 'an optional field',
    input: (name, field = z.array(z.string())) => z.object({ [name]: field.optional(), b: z.string() }),
    args: (name, value) => beside(name, value),
  },
  {
    id: 'a nested object',
    input: (name, field = z.array(z.string())) =>
      z.object({ outer: z.object({ [name]: field, b: z.string() }) }),
    args: (name, value) => ({ outer: beside(name, value) }),
  },
  {
    id: 'a discriminated union (flattened)',
    input: (name, field = z.array(z.string())) =>
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), [name]: field }),
        z.object({ kind: z.literal('b'), c: z.number() }),
      ]),
    args: (name, value) => ({ kind: 'a', ...own([[name, value]]) }),
  },
  {
    id: 'a union of objects (merged at the root)',
    input: (name, field = z.array(z.string())) =>
      z.union([z.object({ [name]: field, x: z.string() }), z.object({ y: z.number() })]),
    args: (name, value) => beside(name, value, 'x'),
    repaired: false,
  },
  {
    id: 'a union with one object member',
    input: (name, field = z.array(z.string())) =>
      z.object({ u: z.union([z.object({ [name]: field, x: z.string() }), z.string()]) }),
    args: (name, value) => ({ u: beside(name, value, 'x') }),
  },
  {
    id: 'an intersection of objects',
    input: (name, field = z.array(z.string())) =>
      z.intersection(z.object({ [name]: field }), z.object({ b: z.string() })),
    args: (name, value) => beside(name, value),
  },
];

/** Every profile, and none: each document toolprep makes. */
const SETTINGS: readonly { readonly flatten: boolean; readonly profiles: readonly ProfileName[] }[] = [
  { flatten: true, profiles: PROFILE_NAMES },
  { flatten: false, profiles: [] },
];

/** Gemini's parameter names, at the top of a function's parameters only. */
const GEMINI_PARAMETER = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The profiles that take the name at the root of this shape (Gemini refuses some names there). */
function profilesFor(shape: Shape, name: string): ProfileName[] {
  const atRoot = shape.id !== 'a nested object';
  return PROFILE_NAMES.filter(
    (profile) => !(profile.startsWith('gemini') && atRoot && !GEMINI_PARAMETER.test(name)),
  );
}

function prepare(
  input: unknown,
  settings: { flatten?: boolean; profiles?: readonly ProfileName[] } = {},
): PreparedTool {
  return prepareTool(defineTool({ name: 't', description: 'A tool.', input: input as never }), {
    ...settings,
    profiles: [...(settings.profiles ?? [])],
    warn: () => {},
  });
}

/** The prepared tool as text, its digest aside (the digest is of the name too). */
function textOf({ digest: _digest, ...tool }: PreparedTool): string {
  return JSON.stringify(tool);
}

/** Every object node of a document, with its own properties and its required keys. */
function objectNodes(document: unknown): { properties: Record<string, unknown>; required: unknown[] }[] {
  const found: { properties: Record<string, unknown>; required: unknown[] }[] = [];
  forEachNode(document as JsonSchema, (node) => {
    if (node.properties !== undefined || node.required !== undefined)
      found.push({
        properties: (node.properties ?? {}) as Record<string, unknown>,
        required: Array.isArray(node.required) ? node.required : [],
      });
  });
  return found;
}

/** Each document of a prepared tool: MCP, agent, and each profile's. */
function documentsOf(tool: PreparedTool): [string, unknown][] {
  return [
    ['mcp', tool.inputSchema.mcp],
    ['agent', tool.inputSchema.agent],
    ...Object.entries(tool.profiles ?? {}).map(([profile, { inputSchema }]): [string, unknown] => [
      profile,
      inputSchema,
    ]),
  ];
}

const CASES = HOSTILE_NAMES.flatMap((name) =>
  SHAPES.map((shape) => [JSON.stringify(name), shape.id, name, shape] as const),
);

describe.each(CASES)('a field named %s in %s', (_quoted, _id, name, shape) => {
  test.each(SETTINGS)(
    'every document and the plan are those of a plain name (flatten: $flatten)',
    (settings) => {
      const profiles = settings.profiles.length > 0 ? profilesFor(shape, name) : [];
      const hostile = prepare(shape.input(name), { ...settings, profiles });
      const plain = prepare(shape.input(PLAIN), { ...settings, profiles });
      const expected = JSON.parse(textOf(plain).replaceAll(PLAIN, name), (key, value) =>
        // A name of Object.prototype's members is never taken as left out (a parser may read it
        // through the prototype): the only place the plan of such a name differs.
        key === 'nullAbsent' && name in Object.prototype
          ? (value as string[]).filter((one) => one !== name)
          : value,
      );
      let pruned = JSON.stringify(expected, (key, value) =>
        key === 'nullAbsent' && Array.isArray(value) && value.length === 0 ? undefined : value,
      );
      // The plan lists a repair only where it holds a position for it.
      if (!/"nullAbsent(Beyond)?":\[/.test(pruned))
        pruned = JSON.stringify(JSON.parse(pruned), (key, value) =>
          key === 'repairs' && Array.isArray(value) ? value.filter((one) => one !== 'nullAbsent') : value,
        );
      expect(textOf(hostile)).toBe(pruned);
    },
  );

  test('each document declares the field, and requires no key it does not declare', () => {
    const tool = prepare(shape.input(name), { profiles: profilesFor(shape, name) });
    for (const [document, schema] of documentsOf(tool)) {
      const nodes = objectNodes(schema);
      expect(
        nodes.some((node) => Object.hasOwn(node.properties, name)),
        `${document} declares the field`,
      ).toBe(true);
      for (const node of nodes)
        for (const key of node.required)
          expect(Object.hasOwn(node.properties, key as string), `${document} declares ${key}`).toBe(true);
    }
  });

  test('the plan repairs the field written as text, as the reference does, under every profile', () => {
    const tool = prepare(shape.input(name), { profiles: profilesFor(shape, name) });
    const sent = shape.args(name, '["a"]');
    const expected = shape.repaired === false ? sent : shape.args(name, ['a']);
    const repaired = walkGenerated(tool.plan, sent);
    expect(repaired).toEqual(expected);
    expect(coerceJsonArgs(sent, shape.input(name))).toEqual(repaired);
    for (const profile of profilesFor(shape, name)) {
      const inverse = INVERSE_STEPS[profile];
      const viaPlan = walkGenerated(tool.plan, sent, { inverse });
      expect(viaPlan, profile).toEqual(expected);
      expect(coerceJsonArgs(sent, shape.input(name), { inverse }), profile).toEqual(viaPlan);
    }
    expect(coerceBothWays(shape.input(name), sent)).toEqual({ value: expected });
  });

  test('two contracts that differ only in the field get different digests', () => {
    const digests = [
      prepare(shape.input(name)).digest,
      prepare(shape.input(name, z.array(z.number()))).digest,
      prepare(shape.input(PLAIN)).digest,
    ];
    expect(new Set(digests).size).toBe(digests.length);
  });
});

describe('hostile names the profiles refuse, and the names they take', () => {
  test.each([
    ['', 'field'],
    ['é名', '__'],
    ['9lives', '_9lives'],
  ])('Gemini names %j at the root, with a rename it takes (%j)', (name, rename) => {
    expect(GEMINI_PARAMETER.test(rename)).toBe(true);
    expect(() => prepare(z.object({ [name]: z.string() }), { profiles: ['gemini'] })).toThrow(
      `input.${name || '""'}, profile gemini: Gemini takes a parameter name of letters, digits and underscores that starts with a letter or an underscore (at most 64), not "${name}" (rename it, for example to "${rename}")`,
    );
  });
});

describe('Zod 3 and the Standard JSON Schema libraries', () => {
  test('zod 3: a field named __proto__ is in the documents (zod-to-json-schema drops it) and repaired', () => {
    const input = z3.object({ ['__proto__']: z3.array(z3.string()), b: z3.string() });
    const tool = prepare(input, { profiles: ['openai-strict'] });
    for (const [document, schema] of documentsOf(tool)) {
      const [root] = objectNodes(schema);
      expect(Object.hasOwn(root?.properties ?? {}, '__proto__'), document).toBe(true);
    }
    expect(tool.inputSchema.mcp.properties).toEqual(
      own([
        ['__proto__', { type: 'array', items: { type: 'string' } }],
        ['b', { type: 'string' }],
      ]),
    );
    expectRepaired(input, '__proto__');
  });

  test('zod 3: a shared schema and a nested object under __proto__ keep their places', () => {
    const shared = z3.object({ ['__proto__']: z3.string() });
    const input = z3.object({ ['__proto__']: z3.object({ first: shared, second: shared }) });
    const { mcp } = prepare(input).inputSchema;
    const field = protoOf(mcp) as JsonSchema;
    expect(Object.hasOwn(mcp.properties as object, '__proto__')).toBe(true);
    expect(field.properties).toEqual({
      first: {
        type: 'object',
        properties: own([['__proto__', { type: 'string' }]]),
        required: ['__proto__'],
      },
      second: {
        type: 'object',
        properties: own([['__proto__', { type: 'string' }]]),
        required: ['__proto__'],
      },
    });
  });

  test.each([
    ['Valibot', toStandardJsonSchema(v.object({ ['__proto__']: v.array(v.string()), b: v.string() }))],
    ['ArkType', type({ ['__proto__']: 'string[]', b: 'string' })],
  ])(
    '%s: its converter drops a required field named __proto__, which the build reports',
    (_library, input) => {
      expect(() => prepare(input)).toThrow(
        /input\.__proto__: a field named "__proto__" is left out by (valibot|arktype)'s JSON Schema converter/,
      );
      const degraded = prepareTool(defineTool({ name: 't', description: 'A tool.', input: input as never }), {
        unrepresentable: 'degrade',
        warn: () => {},
      });
      expect(Object.hasOwn(degraded.inputSchema.mcp.properties as object, '__proto__')).toBe(true);
    },
  );

  test('a Standard JSON Schema library whose converter keeps __proto__: the document and the plan have it', () => {
    const document =
      '{"type":"object","properties":{"__proto__":{"type":"array","items":{"type":"string"}},"b":{"type":"string"}},"required":["__proto__","b"]}';
    const input = {
      '~standard': {
        version: 1,
        vendor: 'hand-made',
        validate: (value: unknown) => ({ value }),
        jsonSchema: { input: () => JSON.parse(document), output: () => JSON.parse(document) },
      },
    };
    const tool = prepare(input, { profiles: ['openai-strict', 'gemini'] });
    for (const [name, schema] of documentsOf(tool)) expect(protoOf(schema), name).toBeDefined();
    expectRepaired(input, '__proto__');
  });

  test.each(HOSTILE_NAMES.filter((name) => name !== '__proto__'))(
    'Valibot and ArkType keep a field named %j',
    (name) => {
      for (const input of [
        toStandardJsonSchema(v.object({ [name]: v.array(v.string()), b: v.string() })),
        type({ [name]: 'string[]', b: 'string' } as never),
      ]) {
        const tool = prepare(input);
        expect(Object.hasOwn(tool.inputSchema.mcp.properties as object, name)).toBe(true);
        expectRepaired(input, name);
      }
    },
  );
});
