import { describe, expect, test } from 'vitest';
import * as classic from 'zod';
import * as mini from 'zod/mini';
import { z as z3 } from 'zod3';
import { z as z3v3 } from 'zod325/v3';
import * as classic325 from 'zod325/v4';
import * as mini325 from 'zod325/v4-mini';
import { zod3Builder } from '../../src/adapters/zod3/build.js';
import { ZOD3_TYPES, type Zod3Schema, factsOf as zod3FactsOf } from '../../src/adapters/zod3/def.js';
import { zod4Builder } from '../../src/adapters/zod4/build.js';
import { defOf, ZOD4_TYPES, factsOf as zod4FactsOf } from '../../src/adapters/zod4/def.js';
import { isZod4 } from '../../src/adapters/zod4/identify.js';

/**
 * Each adapter's table of type facts holds a row for every type its library makes, and a type the
 * table lacks is read one way, decided in one place, by every reader: the view, the list checks
 * and the position finder.
 */

type Zod4 = typeof mini;

/** One schema of every `def.type`, each made with the API both classic and mini share. */
const ZOD4_SCHEMAS: [string, (z: Zod4) => unknown][] = [
  ['string', (z) => z.string()],
  ['number', (z) => z.number()],
  ['boolean', (z) => z.boolean()],
  ['bigint', (z) => z.bigint()],
  ['symbol', (z) => z.symbol()],
  ['null', (z) => z.null()],
  ['undefined', (z) => z.undefined()],
  ['void', (z) => z.void()],
  ['never', (z) => z.never()],
  ['any', (z) => z.any()],
  ['unknown', (z) => z.unknown()],
  ['date', (z) => z.date()],
  ['object', (z) => z.object({ a: z.string() })],
  ['record', (z) => z.record(z.string(), z.number())],
  ['file', (z) => z.file()],
  ['array', (z) => z.array(z.string())],
  ['tuple', (z) => z.tuple([z.string()])],
  ['union', (z) => z.union([z.string(), z.number()])],
  ['intersection', (z) => z.intersection(z.string(), z.string())],
  ['map', (z) => z.map(z.string(), z.number())],
  ['set', (z) => z.set(z.string())],
  ['enum', (z) => z.enum(['a', 'b'])],
  ['literal', (z) => z.literal('a')],
  ['nullable', (z) => z.nullable(z.string())],
  ['optional', (z) => z.optional(z.string())],
  ['nonoptional', (z) => z.nonoptional(z.string())],
  ['success', (z) => z.success(z.string())],
  ['transform', (z) => z.transform((value: unknown) => value)],
  ['default', (z) => z._default(z.string(), 'a')],
  ['prefault', (z) => z.prefault(z.string(), 'a')],
  ['catch', (z) => z.catch(z.string(), 'a')],
  ['nan', (z) => z.nan()],
  ['pipe', (z) => z.pipe(z.string(), z.string())],
  ['readonly', (z) => z.readonly(z.string())],
  ['template_literal', (z) => z.templateLiteral(['a', z.number()])],
  ['promise', (z) => z.promise(z.string())],
  ['lazy', (z) => z.lazy(() => z.string())],
  ['function', (z) => z.function()],
  ['custom', (z) => z.custom(() => true)],
];

/** Named in Zod's list of definition types, but made by no API of these copies. */
const DECLARED_ONLY = ['int'];

describe.each([
  ['zod 4.6 (classic)', classic as unknown as Zod4, []],
  ['zod 4.6 (mini)', mini, []],
  // Its `z.function()` makes a function factory, no schema.
  ['zod/v4 of 3.25 (classic)', classic325 as unknown as Zod4, ['function']],
  ['zod/v4-mini of 3.25', mini325 as unknown as Zod4, ['function']],
])('%s', (_copy, z, noSchema) => {
  test.each(ZOD4_SCHEMAS.filter(([type]) => !noSchema.includes(type)))('`%s` has its row', (type, make) => {
    const schema = make(z);
    expect(isZod4(schema) && defOf(schema).type).toBe(type);
    expect(Object.hasOwn(ZOD4_TYPES, type)).toBe(true);
  });
});

test('the Zod 4 table has a row for each type Zod makes, and no other', () => {
  const made = ZOD4_SCHEMAS.map(([type]) => type);
  expect(Object.keys(ZOD4_TYPES).sort()).toEqual([...made, ...DECLARED_ONLY].sort());
});

type Zod3 = typeof z3;

/** One schema of every Zod 3 type; a ZodEffects is three, by its effect. */
const ZOD3_SCHEMAS: [string, (z: Zod3) => unknown][] = [
  ['ZodString', (z) => z.string()],
  ['ZodNumber', (z) => z.number()],
  ['ZodNaN', (z) => z.nan()],
  ['ZodBigInt', (z) => z.bigint()],
  ['ZodBoolean', (z) => z.boolean()],
  ['ZodDate', (z) => z.date()],
  ['ZodSymbol', (z) => z.symbol()],
  ['ZodUndefined', (z) => z.undefined()],
  ['ZodNull', (z) => z.null()],
  ['ZodAny', (z) => z.any()],
  ['ZodUnknown', (z) => z.unknown()],
  ['ZodNever', (z) => z.never()],
  ['ZodVoid', (z) => z.void()],
  ['ZodArray', (z) => z.array(z.string())],
  ['ZodObject', (z) => z.object({ a: z.string() })],
  ['ZodUnion', (z) => z.union([z.string(), z.number()])],
  [
    'ZodDiscriminatedUnion',
    (z) =>
      z.discriminatedUnion('kind', [z.object({ kind: z.literal('a') }), z.object({ kind: z.literal('b') })]),
  ],
  ['ZodIntersection', (z) => z.intersection(z.string(), z.string())],
  ['ZodTuple', (z) => z.tuple([z.string()])],
  ['ZodRecord', (z) => z.record(z.number())],
  ['ZodMap', (z) => z.map(z.string(), z.number())],
  ['ZodSet', (z) => z.set(z.string())],
  ['ZodFunction', (z) => z.function()],
  ['ZodLazy', (z) => z.lazy(() => z.string())],
  ['ZodLiteral', (z) => z.literal('a')],
  ['ZodEnum', (z) => z.enum(['a', 'b'])],
  ['ZodEffects:refinement', (z) => z.string().refine(() => true)],
  ['ZodEffects:transform', (z) => z.string().transform((value) => value.length)],
  ['ZodEffects:preprocess', (z) => z.preprocess((value) => value, z.string())],
  ['ZodNativeEnum', (z) => z.nativeEnum({ A: 'a' })],
  ['ZodOptional', (z) => z.string().optional()],
  ['ZodNullable', (z) => z.string().nullable()],
  ['ZodDefault', (z) => z.string().default('a')],
  ['ZodCatch', (z) => z.string().catch('a')],
  ['ZodPromise', (z) => z.promise(z.string())],
  ['ZodBranded', (z) => z.string().brand('B')],
  ['ZodPipeline', (z) => z.string().pipe(z.string())],
  ['ZodReadonly', (z) => z.string().readonly()],
];

/** The row a Zod 3 schema is read by: its type name, a ZodEffects with its effect. */
function rowName(schema: Zod3Schema): string {
  const { typeName, effect } = schema._def;
  return typeName === 'ZodEffects' ? `${typeName}:${effect?.type}` : typeName;
}

describe.each([
  ['zod 3.23', z3],
  ['zod/v3 of 3.25', z3v3 as unknown as Zod3],
])('%s', (_copy, z) => {
  test.each(ZOD3_SCHEMAS)('`%s` has its row', (type, make) => {
    const schema = make(z) as Zod3Schema;
    expect(rowName(schema)).toBe(type);
    expect(zod3FactsOf(schema._def)).toBe(ZOD3_TYPES[type]);
  });

  test('every type the copy lists is made above', () => {
    const listed = Object.values(z.ZodFirstPartyTypeKind).filter((name) => name !== 'ZodEffects');
    const made = ZOD3_SCHEMAS.map(([type]) => type.replace(/:.*/, ''));
    expect(new Set(made)).toEqual(new Set([...listed, 'ZodEffects']));
  });
});

test('the Zod 3 table has a row for each type Zod 3 makes, and no other', () => {
  expect(Object.keys(ZOD3_TYPES).sort()).toEqual(ZOD3_SCHEMAS.map(([type]) => type).sort());
});

describe('a type the table lacks is read one way, in one place', () => {
  // Names that would find a prototype's property in a plain table are no rows either.
  const UNKNOWN_NAMES = ['frobnicate', '__proto__', 'constructor', 'toString'];

  test.each(UNKNOWN_NAMES)('Zod 4 `%s`', (type) => {
    const z = classic;
    const inner = z.object({ a: z.string() });
    const schema = { _zod: { def: { type, innerType: inner } } } as unknown as classic.ZodType;
    const other = { _zod: { def: { type: 'another' } } } as unknown as classic.ZodType;
    const { view } = zod4Builder;
    expect(zod4FactsOf(schema)).toBe(zod4FactsOf(other));
    expect(view.owns(schema)).toBe(true);
    // A scalar that may take `null`, looked through by nothing but positions.
    expect(view.resolve(schema)).toBe(schema);
    expect(view.node(schema)).toEqual({ kind: 'scalar' });
    expect(view.takesNull(schema)).toBe(true);
    expect(view.stringValues(schema)).toBeUndefined();
    expect(view.isObject(schema)).toBe(false);
    expect(view.typeName(schema)).toBe(type);
    // Its list check is left to its own parser.
    expect(zod4Builder.listCheck(z.array(schema))).toBeUndefined();
    expect(zod4Builder.listCheck(z.array(z.nullable(z.array(schema))))).toBeUndefined();
    // Positions step into the schema it holds.
    expect(zod4Builder.schemaAt(z.object({ field: schema }), ['.field', '.a'])).toBe(inner.shape.a);
  });

  test.each(UNKNOWN_NAMES.map((name) => `Zod${name}`))('Zod 3 `%s`', (typeName) => {
    const z = z3;
    const inner = z.object({ a: z.string() });
    const schema = { _def: { typeName, innerType: inner } } as unknown as Zod3Schema;
    const other = { _def: { typeName: 'ZodAnother' } } as unknown as Zod3Schema;
    const { view } = zod3Builder;
    expect(zod3FactsOf(schema._def)).toBe(zod3FactsOf(other._def));
    expect(view.owns(schema)).toBe(true);
    expect(view.resolve(schema)).toBe(schema);
    expect(view.node(schema)).toEqual({ kind: 'scalar' });
    expect(view.takesNull(schema)).toBe(true);
    expect(view.stringValues(schema)).toBeUndefined();
    expect(view.isObject(schema)).toBe(false);
    expect(zod3Builder.listCheck(z.array(schema as never))).toBeUndefined();
    // Zod 3 positions look through wrappers alone.
    expect(zod3Builder.schemaAt(z.object({ field: schema as never }), ['.field'])).toBe(schema);
    expect(zod3Builder.schemaAt(z.object({ field: schema as never }), ['.field', '.a'])).toBeUndefined();
  });
});
