import { applyPlan } from 'toolprep';
import { describe, expect, test } from 'vitest';
import { z as z4 } from 'zod';
import * as zm from 'zod/mini';
import { z as z3 } from 'zod3';
import { z as z3v3 } from 'zod325/v3';
import { coerceBothWays, planOf } from '../support/coerce.js';
import { walkGenerated } from '../support/generated-walk.js';
import type { ZodNamespace } from '../support/schema-arbitrary.js';

const LIST = ' is a list written as text — pass the array itself, not JSON written as text';

interface Case {
  readonly name: string;
  readonly input: unknown;
  readonly args: unknown;
  readonly expected: unknown;
}

const repaired = (name: string, input: unknown, args: unknown, value: unknown): Case => ({
  name,
  input,
  args,
  expected: { value },
});
const unchanged = (name: string, input: unknown, args: unknown): Case => ({
  name,
  input,
  args,
  expected: { value: args },
});
const refused = (name: string, input: unknown, args: unknown, path: string): Case => ({
  name,
  input,
  args,
  expected: { refused: path + LIST },
});
/** A row written with an API only Zod 4 has: built for the Zod 4 column alone. */
const onlyWithZod4 = (z: ZodNamespace, row: () => Case): Case[] => (z === z4 ? [row()] : []);

const GetterTree: z4.ZodType = z4.object({
  name: z4.string(),
  get children() {
    return z4.array(GetterTree).optional();
  },
});

/**
 * The rule's cases, written with a Zod namespace: Zod 4's classic API keeps every Zod 3 method used
 * here, so each row is a column for zod 4, zod 3.23 and zod/v3 alike (rows marked otherwise use an
 * API only Zod 4 has).
 */
function casesWith(z: ZodNamespace): Case[] {
  const pathOrPaths = z.union([z.string(), z.array(z.string())]);
  const LazyTree: unknown = z.lazy(() =>
    z.object({ name: z.string(), children: z.array(LazyTree).optional() }),
  );
  return [
    // Structure wanted: a string is JSON-parsed and walked on.
    repaired(
      'an array sent as text',
      z.object({ tags: z.array(z.string()) }),
      { tags: '["a","b"]' },
      { tags: ['a', 'b'] },
    ),
    repaired(
      'an object sent as text',
      z.object({ point: z.object({ x: z.number() }) }),
      { point: '{"x":1}' },
      { point: { x: 1 } },
    ),
    repaired(
      'a record sent as text',
      z.object({ env: z.record(z.string(), z.string()) }),
      { env: '{"A":"1"}' },
      { env: { A: '1' } },
    ),
    repaired(
      'a tuple sent as text',
      z.object({ at: z.tuple([z.number(), z.number()]) }),
      { at: '[1,2]' },
      { at: [1, 2] },
    ),
    repaired(
      'text inside parsed text, at any depth',
      z.object({ a: z.object({ b: z.array(z.object({ c: z.array(z.number()) })) }) }),
      { a: '{"b":[{"c":"[1,2]"}]}' },
      { a: { b: [{ c: [1, 2] }] } },
    ),
    repaired(
      'a union with no string member parses',
      z.object({ v: z.union([z.number(), z.array(z.number())]) }),
      { v: '[1,2]' },
      { v: [1, 2] },
    ),
    repaired('the whole arguments object sent as text', z.object({ q: z.string() }), '{"q":"x"}', { q: 'x' }),
    repaired(
      'leading and trailing white space around JSON',
      z.object({ tags: z.array(z.string()) }),
      { tags: '  ["a"]\n' },
      { tags: ['a'] },
    ),
    unchanged(
      'a string that is not JSON stays for the parser to reject',
      z.object({ tags: z.array(z.string()) }),
      { tags: 'a, b' },
    ),
    unchanged('JSON of the wrong kind is not kept', z.object({ tags: z.array(z.string()) }), {
      tags: '{"a":1}',
    }),
    unchanged(
      'JSON scalar text where a structure is wanted',
      z.object({ point: z.object({ x: z.number() }).nullable() }),
      { point: 'null' },
    ),
    // Strings owned by unions stay strings.
    unchanged(
      '"123" stays a string beside a number member',
      z.object({ id: z.union([z.string(), z.number()]) }),
      { id: '123' },
    ),
    unchanged('"null" stays a string beside null', z.object({ id: z.string().nullable() }), { id: 'null' }),
    unchanged(
      'an object as text stays a string beside a string member',
      z.object({ v: z.union([z.string(), z.object({ x: z.number() })]) }),
      { v: '{"x":1}' },
    ),
    ...onlyWithZod4(z, () =>
      unchanged(
        'a template literal owns strings',
        z.object({ v: z.union([z.templateLiteral(['id-', z.number()]), z.object({ x: z.number() })]) }),
        { v: '{"x":1}' },
      ),
    ),
    unchanged(
      'a string enum owns strings',
      z.object({ v: z.union([z.enum(['a', 'b']), z.object({ x: z.number() })]) }),
      { v: '{"x":1}' },
    ),
    unchanged(
      'a string literal owns strings',
      z.object({ v: z.union([z.literal('none'), z.array(z.number())]) }),
      { v: 'none' },
    ),
    unchanged(
      'a string with a format owns strings',
      z.object({ v: z.union([z.string().email(), z.object({ x: z.number() })]) }),
      { v: '{"x":1}' },
    ),
    // A list written as text is refused.
    refused('at the top level', z.object({ paths: pathOrPaths }), { paths: '["a.png","b.png"]' }, 'paths'),
    refused(
      'with white space around it',
      z.object({ paths: pathOrPaths }),
      { paths: ' \n ["a.png"]  ' },
      'paths',
    ),
    refused('the empty list', z.object({ paths: pathOrPaths }), { paths: '[]' }, 'paths'),
    refused(
      'inside an optional field',
      z.object({ paths: pathOrPaths.optional() }),
      { paths: '["a"]' },
      'paths',
    ),
    refused(
      'inside an array of objects',
      z.object({ rows: z.array(z.object({ names: pathOrPaths })) }),
      { rows: [{ names: 'x' }, { names: '["a"]' }] },
      'rows.1.names',
    ),
    refused(
      'inside parsed text',
      z.object({ rows: z.array(z.object({ names: pathOrPaths })) }),
      { rows: '[{"names":"[\\"a\\"]"}]' },
      'rows.0.names',
    ),
    refused(
      'a list of numbers for a number array',
      z.object({ v: z.union([z.string(), z.array(z.number())]) }),
      { v: '[1,2]' },
      'v',
    ),
    refused(
      'when the array member has bounds it meets',
      z.object({ v: z.union([z.string(), z.array(z.string()).min(1).max(2)]) }),
      { v: '["a","b"]' },
      'v',
    ),
    refused(
      'behind a nested union',
      z.object({ v: z.union([z.string(), z.union([z.number(), z.array(z.string())])]) }),
      { v: '["a"]' },
      'v',
    ),
    refused(
      'where the element has a refinement (deferred to its parser)',
      z.object({ v: z.union([z.string(), z.array(z.string().refine((s: string) => s.endsWith('.png')))]) }),
      { v: '["a.png"]' },
      'v',
    ),
    // A multiple is the parser's own rule (its floating point tolerance), so it is deferred to it:
    // 0.3 is a multiple of 0.1 to Zod, though 0.3 % 0.1 is not 0.
    refused(
      'where the element is a multiple (deferred to its parser)',
      z.object({ v: z.union([z.string(), z.array(z.number().multipleOf(0.1))]) }),
      { v: '[0.3,0.7]' },
      'v',
    ),
    ...onlyWithZod4(z, () =>
      refused(
        'from a zod/mini union',
        zm.object({ v: zm.union([zm.string(), zm.array(zm.string())]) }),
        { v: '["a"]' },
        'v',
      ),
    ),
    // …and a string that is not such a list stays one plain value.
    unchanged('[preview].png', z.object({ paths: pathOrPaths }), { paths: '[preview].png' }),
    unchanged('a truncated list', z.object({ paths: pathOrPaths }), { paths: '[1,2' }),
    unchanged('a list of objects for a string array', z.object({ paths: pathOrPaths }), {
      paths: '[{"a":1}]',
    }),
    unchanged(
      'a list longer than the maximum',
      z.object({ v: z.union([z.string(), z.array(z.string()).max(2)]) }),
      { v: '["a","b","c"]' },
    ),
    unchanged(
      'a list of strings for a number array',
      z.object({ v: z.union([z.string(), z.array(z.number())]) }),
      { v: '["1"]' },
    ),
    unchanged(
      'a list the refinement rejects (deferred)',
      z.object({ v: z.union([z.string(), z.array(z.string().refine((s: string) => s.endsWith('.png')))]) }),
      { v: '["a.txt"]' },
    ),
    unchanged(
      'a list of numbers that are no multiple (deferred)',
      z.object({ v: z.union([z.string(), z.array(z.number().multipleOf(0.1))]) }),
      { v: '[0.35]' },
    ),
    unchanged(
      'a list the element pattern rejects',
      z.object({ v: z.union([z.string(), z.array(z.string().email())]) }),
      { v: '["not-an-email"]' },
    ),
    unchanged(
      'a list written as text as an element of a plain string array',
      z.object({ v: z.array(z.string()) }),
      { v: ['["a"]'] },
    ),
    unchanged('a list written as text where only strings are taken', z.object({ v: z.string() }), {
      v: '["a"]',
    }),
    // Scalars are never coerced.
    unchanged('"1" where a number is wanted', z.object({ n: z.number() }), { n: '1' }),
    unchanged(
      '"1" where z.coerce.number() is wanted (the parser coerces)',
      z.object({ n: z.coerce.number() }),
      { n: '1' },
    ),
    unchanged('"true" where a boolean is wanted', z.object({ b: z.boolean() }), { b: 'true' }),
    // Walked through wrappers, pipes, recursion, catch-alls, records, tuples, intersections, unions.
    repaired(
      'optional, nullable, default, readonly',
      z.object({ a: z.array(z.number()).optional().nullable().default([]).readonly() }),
      { a: '[1]' },
      { a: [1] },
    ),
    ...onlyWithZod4(z, () =>
      repaired(
        'prefault, catch, nonoptional',
        z.object({
          a: z.array(z.number()).prefault([]),
          b: z.array(z.number()).catch([]),
          c: z.array(z.number()).optional().nonoptional(),
        }),
        { a: '[1]', b: '[2]', c: '[3]' },
        { a: [1], b: [2], c: [3] },
      ),
    ),
    repaired(
      "a pipe's input side",
      z.object({ a: z.array(z.number()).transform((list: number[]) => list.length) }),
      { a: '[1,2]' },
      { a: [1, 2] },
    ),
    unchanged(
      "a transform's input takes anything: never parsed",
      z.object({ a: z.preprocess((value: unknown) => value, z.array(z.number())) }),
      { a: '[1,2]' },
    ),
    ...onlyWithZod4(z, () =>
      repaired(
        'a recursive getter',
        z.object({ tree: GetterTree }),
        { tree: '{"name":"a","children":"[{\\"name\\":\\"b\\"}]"}' },
        { tree: { name: 'a', children: [{ name: 'b' }] } },
      ),
    ),
    repaired(
      'a recursive z.lazy',
      z.object({ tree: LazyTree }),
      { tree: '{"name":"a","children":"[{\\"name\\":\\"b\\"}]"}' },
      { tree: { name: 'a', children: [{ name: 'b' }] } },
    ),
    repaired('z.lazy', z.object({ v: z.lazy(() => z.array(z.number())) }), { v: '[1]' }, { v: [1] }),
    repaired(
      'a catch-all',
      z.object({ a: z.string() }).catchall(z.array(z.number())),
      { a: 'x', extra: '[1]' },
      { a: 'x', extra: [1] },
    ),
    repaired(
      'record values',
      z.object({ r: z.record(z.string(), z.array(z.number())) }),
      { r: { x: '[1]', y: [2] } },
      { r: { x: [1], y: [2] } },
    ),
    repaired(
      'tuple items and rest',
      z.object({ t: z.tuple([z.string(), z.array(z.number())]).rest(z.object({ k: z.number() })) }),
      { t: ['[1]', '[1]', '{"k":1}'] },
      { t: ['[1]', [1], { k: 1 }] },
    ),
    repaired(
      'both sides of an intersection',
      z.object({
        i: z.intersection(z.object({ a: z.array(z.number()) }), z.object({ b: z.object({ c: z.number() }) })),
      }),
      { i: '{"a":"[1]","b":"{\\"c\\":2}"}' },
      { i: { a: [1], b: { c: 2 } } },
    ),
    repaired(
      'a discriminated union by a literal tag',
      z.object({
        s: z.discriminatedUnion('k', [
          z.object({ k: z.literal('a'), v: z.array(z.number()) }),
          z.object({ k: z.literal('b'), v: z.string() }),
        ]),
      }),
      { s: '{"k":"a","v":"[1]"}' },
      { s: { k: 'a', v: [1] } },
    ),
    unchanged(
      'a discriminated union leaves the other variant alone',
      z.object({
        s: z.discriminatedUnion('k', [
          z.object({ k: z.literal('a'), v: z.array(z.number()) }),
          z.object({ k: z.literal('b'), v: z.string() }),
        ]),
      }),
      { s: { k: 'b', v: '[1]' } },
    ),
    repaired(
      'a discriminated union by an enum tag',
      z.object({
        s: z.discriminatedUnion('k', [
          z.object({ k: z.enum(['a', 'c']), v: z.array(z.number()) }),
          z.object({ k: z.literal('b') }),
        ]),
      }),
      { s: { k: 'c', v: '[1]' } },
      { s: { k: 'c', v: [1] } },
    ),
    repaired(
      "a plain union's one member for the value's kind",
      z.object({ u: z.union([z.string(), z.object({ v: z.array(z.number()) })]) }),
      { u: { v: '[1]' } },
      { u: { v: [1] } },
    ),
    unchanged(
      'a plain union with two members of that kind is left alone',
      z.object({ u: z.union([z.object({ v: z.array(z.number()) }), z.object({ w: z.array(z.number()) })]) }),
      { u: { v: '[1]' } },
    ),
  ];
}

const ZOD_COLUMNS: [string, ZodNamespace][] = [
  ['zod 4', z4],
  ['zod 3.23', z3],
  ['zod/v3 (3.25)', z3v3],
];

describe.each(ZOD_COLUMNS)('the coercion rule, %s: plan and reference agree, case by case', (_library, z) => {
  test.each(casesWith(z).map((testCase) => [testCase.name, testCase] as const))(
    '%s',
    (_name, { input, args, expected }) => {
      expect(coerceBothWays(input, args, undefined, [])).toEqual(expected);
    },
  );
});

/**
 * With the repairs on (the default), the rule's rows give the same, except where a repair turns a
 * value the parser refuses into the one it accepts (test/coerce/repairs.test.ts has their rows).
 */
const REPAIRED_ROWS: Record<string, unknown> = {
  '"1" where a number is wanted': { value: { n: 1 } },
  '"true" where a boolean is wanted': { value: { b: true } },
};

describe.each(ZOD_COLUMNS)('the coercion rule with the repairs on, %s', (_library, z) => {
  test.each(casesWith(z).map((testCase) => [testCase.name, testCase] as const))(
    '%s',
    (name, { input, args, expected }) => {
      expect(coerceBothWays(input, args)).toEqual(REPAIRED_ROWS[name] ?? expected);
    },
  );
});

describe('bad input', () => {
  const z = z4;
  const Tree = GetterTree;
  const pathOrPaths = z.union([z.string(), z.array(z.string())]);
  test('__proto__ in JSON text pollutes nothing and is dropped', () => {
    const result = coerceBothWays(z.object({ o: z.record(z.string(), z.unknown()) }), {
      o: '{"__proto__":{"polluted":1},"a":1}',
    });
    expect(result).toEqual({ value: { o: { a: 1 } } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf((result as { value: { o: object } }).value.o)).toBe(Object.prototype);
  });

  test('an own __proto__ key in the arguments never sets a prototype when a field is repaired', () => {
    const args = JSON.parse('{"__proto__":{"polluted":1},"tags":"[1]"}');
    const result = coerceBothWays(z.looseObject({ tags: z.array(z.number()) }), args) as {
      value: Record<string, unknown>;
    };
    expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
    expect(result.value.polluted).toBeUndefined();
    expect(Object.hasOwn(result.value, '__proto__')).toBe(true);
  });

  test('a 100,000-deep JSON text is a refusal, not a stack overflow', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(coerceBothWays(z.object({ v: z.array(z.unknown()) }), { v: deep })).toEqual({
      refused: 'v is nested deeper than 64 levels',
    });
  });

  test('a 100,000-deep argument is a refusal, not a stack overflow', () => {
    let deep: unknown = { name: 'leaf' };
    for (let index = 0; index < 100_000; index++) deep = { name: 'n', children: [deep] };
    const result = coerceBothWays(z.object({ tree: Tree }), { tree: deep });
    expect((result as { refused: string }).refused).toMatch(
      /^tree\.children\.0\.children.* is nested deeper than 64 levels$/,
    );
  });

  test('the input is never mutated', () => {
    const args = Object.freeze({ rows: Object.freeze([Object.freeze({ tags: '["a"]' })]) });
    const result = coerceBothWays(z.object({ rows: z.array(z.object({ tags: z.array(z.string()) })) }), args);
    expect(result).toEqual({ value: { rows: [{ tags: ['a'] }] } });
    expect(args.rows[0]?.tags).toBe('["a"]');
  });

  test('a plan naming a missing shared definition is an error naming it, and saying what to do', () => {
    // The build's generator refuses it as the closures do.
    for (const walk of [walkGenerated, applyPlan])
      expect(() => walk({ root: { fields: { tree: { ref: 'Tree' } } } }, { tree: {} })).toThrow(
        /^\[toolprep\] the plan has no definition "Tree": if another release of toolprep generated the tools, run toolprep generate; if this one did, this is a bug in toolprep$/,
      );
  });

  test("a plan keeps no state between calls: a refusal leaves the next call's paths exact", () => {
    const input = z.object({ a: pathOrPaths, b: z.object({ c: pathOrPaths }) });
    const plan = planOf(input);
    for (let round = 0; round < 3; round++) {
      expect(coerceBothWays(input, { a: '["x"]', b: { c: 'y' } }, plan)).toEqual({ refused: `a${LIST}` });
      expect(coerceBothWays(input, { a: 'x', b: { c: '["y"]' } }, plan)).toEqual({ refused: `b.c${LIST}` });
      expect(coerceBothWays(input, { a: 'x', b: '{"c":"y"}' }, plan)).toEqual({
        value: { a: 'x', b: { c: 'y' } },
      });
    }
  });

  test('an unchanged value is returned as the same object', () => {
    const args = { rows: [{ tags: ['a'] }] };
    expect(
      (
        coerceBothWays(z.object({ rows: z.array(z.object({ tags: z.array(z.string()) })) }), args) as {
          value: unknown;
        }
      ).value,
    ).toBe(args);
  });
});
