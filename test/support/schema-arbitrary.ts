import fc from 'fast-check';
import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import { setOwn } from '../../src/shared/run/own-property.js';

/**
 * Random Zod schemas as plain specs, so that each one can be built as a schema and as an
 * arbitrary of values the schema accepts. Values are nominal: what a caller should send.
 */
export type Spec =
  | { kind: 'string'; min?: number; max?: number; check?: 'email' | 'even' }
  | { kind: 'number'; int: boolean }
  | { kind: 'boolean' }
  | { kind: 'null' }
  | { kind: 'literal'; value: string | number | boolean }
  | { kind: 'enum'; values: string[] }
  | { kind: 'array'; item: Spec; max?: number }
  | { kind: 'tuple'; items: Spec[]; rest?: Spec }
  | { kind: 'object'; fields: Field[]; mode: 'strip' | 'strict' | 'loose' }
  | { kind: 'record'; value: Spec }
  | { kind: 'union'; options: Spec[] }
  | { kind: 'discriminated'; key: string; variants: { tags: string[]; fields: Field[]; strict: boolean }[] }
  | { kind: 'nullable'; inner: Spec }
  | { kind: 'default'; inner: Spec; fallback: unknown }
  | { kind: 'catch'; inner: Spec; fallback: unknown }
  | { kind: 'tree' };

export interface Field {
  name: string;
  spec: Spec;
  optional: boolean;
}

const FIELD_NAMES = ['a', 'b', 'c', 'd', 'e', 'f'];
/**
 * Names an object's own keys can have that `Object.prototype` has too (`__proto__` above all, which
 * `record[key] = value` takes as the prototype), the empty string and non-ASCII: drawn now and
 * then, so that every property holds for them as for any name.
 */
export const HOSTILE_NAMES: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  '',
  'é名',
];

/** Mostly the plain names, now and then one of these hostile ones. */
function namesFrom(plain: readonly string[], hostile: readonly string[]): fc.Arbitrary<string> {
  return hostile.length === 0
    ? fc.constantFrom(...plain)
    : fc.oneof({ arbitrary: fc.constantFrom(...plain), weight: 5 }, fc.constantFrom(...hostile));
}
const TAGS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];

const stringSpec: fc.Arbitrary<Spec> = fc
  .record(
    {
      kind: fc.constant('string' as const),
      min: fc.option(fc.nat(3), { nil: undefined }),
      max: fc.option(fc.integer({ min: 3, max: 12 }), { nil: undefined }),
      check: fc.constantFrom('email' as const, 'even' as const),
    },
    { requiredKeys: ['kind', 'min', 'max'] },
  )
  .map((spec) => {
    // Keep every spec satisfiable, so that sampling never has to filter.
    if (spec.kind !== 'string' || spec.check === undefined) return spec;
    if (spec.check === 'email') return { kind: 'string', check: 'email', max: 40 };
    const min = spec.min === undefined ? undefined : spec.min + (spec.min % 2);
    const max = spec.max === undefined ? undefined : Math.max(spec.max, (min ?? 0) + 1);
    return { ...spec, min, max };
  });

const leafSpec: fc.Arbitrary<Spec> = fc.oneof(
  stringSpec,
  fc.record({ kind: fc.constant('number' as const), int: fc.boolean() }),
  fc.constant({ kind: 'boolean' as const }),
  fc.constant({ kind: 'null' as const }),
  fc.record({
    kind: fc.constant('literal' as const),
    value: fc.oneof(fc.constantFrom('on', 'off'), fc.integer({ min: 0, max: 9 }), fc.boolean()),
  }),
  fc.record({
    kind: fc.constant('enum' as const),
    values: fc.uniqueArray(fc.constantFrom('red', 'green', 'blue', '1'), { minLength: 1, maxLength: 3 }),
  }),
);

function fieldsOf(
  spec: fc.Arbitrary<Spec>,
  names: fc.Arbitrary<string>,
  minLength = 0,
): fc.Arbitrary<Field[]> {
  return fc.uniqueArray(fc.record({ name: names, spec, optional: fc.boolean() }), {
    selector: (field) => field.name,
    minLength,
    maxLength: 4,
  });
}

/**
 * The arbitraries of specs a library can express: every kind but those it cannot, with field names
 * drawn now and then from `hostile` (every hostile name unless the library cannot carry some).
 */
export function specArbitraries(
  cannot: ReadonlySet<Spec['kind']> = new Set(),
  hostile: readonly string[] = HOSTILE_NAMES,
): {
  spec: fc.Arbitrary<Spec>;
  input: fc.Arbitrary<Spec>;
} {
  const can = (kind: Spec['kind']) => !cannot.has(kind);
  const names = namesFrom(FIELD_NAMES, hostile);
  const spec = fc.letrec<{ spec: Spec }>((tie) => {
    const inner = tie('spec');
    const kinds: fc.MaybeWeightedArbitrary<Spec>[] = [
      leafSpec,
      fc.record({
        kind: fc.constant('array' as const),
        item: inner,
        max: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
      }),
      fc.record({
        kind: fc.constant('tuple' as const),
        items: fc.array(inner, { minLength: 1, maxLength: 3 }),
        rest: fc.option(inner, { nil: undefined }),
      }),
      fc.record({
        kind: fc.constant('object' as const),
        fields: fieldsOf(inner, names),
        mode: fc.constantFrom('strip' as const, 'strict' as const, 'loose' as const),
      }),
      fc.record({ kind: fc.constant('record' as const), value: inner }),
      fc.record({
        kind: fc.constant('union' as const),
        options: fc.array(inner, { minLength: 2, maxLength: 3 }),
      }),
      { arbitrary: stringOrListSpec(inner), weight: 3 },
      discriminatedSpec(inner, names),
      fc.record({ kind: fc.constant('nullable' as const), inner }),
      ...(can('default')
        ? [
            fc
              .record({ kind: fc.constant('default' as const), inner: leafSpec })
              .chain((spec) => sampleOf(spec.inner).map((fallback) => ({ ...spec, fallback }))),
          ]
        : []),
      ...(can('catch')
        ? [
            fc
              .record({ kind: fc.constant('catch' as const), inner: leafSpec })
              .chain((spec) => sampleOf(spec.inner).map((fallback) => ({ ...spec, fallback }))),
          ]
        : []),
      fc.constant({ kind: 'tree' as const }),
    ];
    return { spec: fc.oneof({ depthSize: 'small', withCrossShrink: true }, ...kinds) };
  }).spec;
  const input = fc.oneof(
    fc.record({
      kind: fc.constant('object' as const),
      fields: fieldsOf(fc.oneof(spec, stringOrListSpec(spec)), names, 1),
      mode: fc.constantFrom('strip' as const, 'strict' as const, 'loose' as const),
    }),
    discriminatedSpec(spec, names),
  );
  return { spec, input };
}

const everyKind = specArbitraries();

/** One value or a list: the shape the refusal exists for. */
function stringOrListSpec(inner: fc.Arbitrary<Spec>): fc.Arbitrary<Spec> {
  return fc
    .tuple(
      stringSpec,
      fc.oneof({ arbitrary: stringSpec, weight: 3 }, leafSpec, inner),
      fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
    )
    .map(([text, item, max]): Spec => ({ kind: 'union', options: [text, { kind: 'array', item, max }] }));
}

function discriminatedSpec(inner: fc.Arbitrary<Spec>, names: fc.Arbitrary<string>): fc.Arbitrary<Spec> {
  return fc
    .uniqueArray(fc.constantFrom(...TAGS), { minLength: 2, maxLength: 5 })
    .chain((tags) => {
      const groups =
        tags.length > 2
          ? [[tags[0] as string, tags[1] as string], ...tags.slice(2).map((tag) => [tag])]
          : tags.map((tag) => [tag]);
      return fc.record({
        kind: fc.constant('discriminated' as const),
        key: fc.constantFrom('kind', 'type'),
        variants: fc.tuple(
          ...groups.map((group) =>
            fc.record({ tags: fc.constant(group), fields: fieldsOf(inner, names), strict: fc.boolean() }),
          ),
        ),
      });
    })
    .map((spec) => ({
      ...spec,
      variants: spec.variants.map((variant) => ({
        ...variant,
        fields: variant.fields.filter((field) => field.name !== spec.key),
      })),
    }));
}

/** An object spec to use as a tool input: the root must be an object or a union of objects. */
export const inputSpecArbitrary: fc.Arbitrary<Spec> = everyKind.input;

/**
 * A Zod namespace: Zod 4's classic API keeps the Zod 3 methods used here (`.email()`, `.strict()`,
 * `.passthrough()`, `z.lazy`), so one builder writes a spec with `zod` 4, `zod@3` or `zod/v3`.
 */
// biome-ignore lint/suspicious/noExplicitAny: Zod 3 and Zod 4 namespaces have no common type.
export type ZodNamespace = any;

// biome-ignore lint/suspicious/noExplicitAny: a schema of either major.
type AnyZod = any;

/** Builds the spec's schema with a Zod namespace (`zod`, `zod@3`, `zod/v3`). */
export function zodBuilder(z: ZodNamespace): (spec: Spec) => AnyZod {
  const Tree: AnyZod = z.lazy(() => z.object({ name: z.string(), children: z.array(Tree).optional() }));
  const shapeOf = (fields: Field[]) =>
    Object.fromEntries(
      fields.map((field) => [field.name, field.optional ? build(field.spec).optional() : build(field.spec)]),
    );
  const build = (spec: Spec): AnyZod => {
    switch (spec.kind) {
      case 'string': {
        let schema = spec.check === 'email' ? z.string().email() : z.string();
        if (spec.min !== undefined) schema = schema.min(spec.min);
        if (spec.max !== undefined) schema = schema.max(spec.max);
        return spec.check === 'even' ? schema.refine((value: string) => value.length % 2 === 0) : schema;
      }
      case 'number':
        return spec.int ? z.number().int() : z.number();
      case 'boolean':
        return z.boolean();
      case 'null':
        return z.null();
      case 'literal':
        return z.literal(spec.value);
      case 'enum':
        return z.enum(spec.values);
      case 'array': {
        const schema = z.array(build(spec.item));
        return spec.max === undefined ? schema : schema.max(spec.max);
      }
      case 'tuple': {
        const tuple = z.tuple(spec.items.map(build));
        return spec.rest ? tuple.rest(build(spec.rest)) : tuple;
      }
      case 'object': {
        const schema = z.object(shapeOf(spec.fields));
        return spec.mode === 'strict'
          ? schema.strict()
          : spec.mode === 'loose'
            ? schema.passthrough()
            : schema;
      }
      case 'record':
        return z.record(z.string(), build(spec.value));
      case 'union':
        return z.union(spec.options.map(build));
      case 'discriminated': {
        const variants = spec.variants.map((variant) => {
          const tag = variant.tags.length === 1 ? z.literal(variant.tags[0]) : z.enum(variant.tags);
          const schema = z.object({ [spec.key]: tag, ...shapeOf(variant.fields) });
          return variant.strict ? schema.strict() : schema;
        });
        return z.discriminatedUnion(spec.key, variants);
      }
      case 'nullable':
        return build(spec.inner).nullable();
      case 'default':
        return build(spec.inner).default(spec.fallback);
      case 'catch':
        return build(spec.inner).catch(spec.fallback);
      case 'tree':
        return Tree;
    }
  };
  return build;
}

/** The spec's schema, with Zod 4. */
export const buildSchema: (spec: Spec) => $ZodType = zodBuilder(z);

/** A record's keys are a caller's: hostile ones too. */
const RECORD_KEYS = namesFrom(['k1', 'k2', 'x y'], HOSTILE_NAMES);

const jsonLeaf = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean(), fc.constant(null));
const treeValue: fc.Arbitrary<unknown> = fc.letrec<{ tree: unknown }>((tie) => ({
  tree: fc.record(
    {
      name: fc.string({ maxLength: 5 }),
      children: fc.array(tie('tree'), { maxLength: 2, depthIdentifier: 'tree' }),
    },
    { requiredKeys: ['name'] },
  ),
})).tree;

/** Values the spec's schema accepts, as a caller would send them (no `undefined` in arrays). */
export function sampleOf(spec: Spec): fc.Arbitrary<unknown> {
  switch (spec.kind) {
    case 'string': {
      const min = spec.min ?? 0;
      const max = spec.max ?? 10;
      if (spec.check === 'email') return fc.constantFrom('ab@example.com', 'x.y@test.org');
      const text = fc.string({ minLength: min, maxLength: max });
      // min is even here, so dropping one character from an odd string stays within bounds.
      return spec.check === 'even'
        ? text.map((value) => (value.length % 2 === 0 ? value : value.slice(0, -1)))
        : text;
    }
    case 'number':
      return spec.int
        ? fc.integer()
        : fc
            .double({ noNaN: true, noDefaultInfinity: true })
            .map((value) => (Object.is(value, -0) ? 0 : value));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'literal':
      return fc.constant(spec.value);
    case 'enum':
      return fc.constantFrom(...spec.values);
    case 'array':
      return fc.array(sampleOf(spec.item), { maxLength: spec.max ?? 3 });
    case 'tuple':
      return fc
        .tuple(
          fc.tuple(...spec.items.map(sampleOf)),
          spec.rest ? fc.array(sampleOf(spec.rest), { maxLength: 2 }) : fc.constant([]),
        )
        .map(([items, rest]) => [...items, ...rest]);
    case 'object':
      return objectSample(spec.fields, spec.mode === 'loose');
    case 'record':
      return fc.dictionary(RECORD_KEYS, sampleOf(spec.value), { maxKeys: 3 });
    case 'union':
      return fc.oneof(...spec.options.map(sampleOf));
    case 'discriminated':
      return fc.oneof(
        ...spec.variants.map((variant) =>
          fc
            .tuple(fc.constantFrom(...variant.tags), objectSample(variant.fields, false))
            .map(([tag, rest]) => ({ [spec.key]: tag, ...(rest as object) })),
        ),
      );
    case 'nullable':
      return fc.oneof(fc.constant(null), sampleOf(spec.inner));
    case 'default':
    case 'catch':
      return sampleOf(spec.inner);
    case 'tree':
      return treeValue;
  }
}

function objectSample(fields: Field[], open: boolean): fc.Arbitrary<unknown> {
  const record = fc.record(Object.fromEntries(fields.map((field) => [field.name, sampleOf(field.spec)])), {
    requiredKeys: fields
      .filter((field) => (!field.optional && !isDefaulted(field.spec)) || isReadThroughPrototype(field.name))
      .map((field) => field.name),
  });
  if (!open) return record;
  // Keys no spec declares, so a loose object's extra key never meets a declared field's schema.
  return fc
    .tuple(record, fc.dictionary(fc.constantFrom('extra_1', 'extra_2'), jsonLeaf, { maxKeys: 2 }))
    .map(([value, extra]) => ({ ...extra, ...(value as object) }));
}

/**
 * A field every library's parser reads through the prototype when a value leaves it out (Zod 4 and
 * 3, Valibot, ArkType: `value.constructor` is then Object's, which they refuse): a value the
 * schema accepts always has it.
 */
export function isReadThroughPrototype(name: string): boolean {
  return name in Object.prototype;
}

function isDefaulted(spec: Spec): boolean {
  return spec.kind === 'default' || spec.kind === 'catch';
}

/** True when the spec takes some raw string (the union member rule). */
function takesText(spec: Spec): boolean {
  switch (spec.kind) {
    case 'string':
    case 'enum':
      return true;
    case 'literal':
      return typeof spec.value === 'string';
    case 'union':
      return spec.options.some(takesText);
    case 'nullable':
    case 'default':
    case 'catch':
      return takesText(spec.inner);
    default:
      return false;
  }
}

/** The specs a spec holds. */
function specChildren(spec: Spec): Spec[] {
  switch (spec.kind) {
    case 'array':
      return [spec.item];
    case 'tuple':
      return [...spec.items, ...(spec.rest ? [spec.rest] : [])];
    case 'object':
      return spec.fields.map((field) => field.spec);
    case 'record':
      return [spec.value];
    case 'union':
      return spec.options;
    case 'discriminated':
      return spec.variants.flatMap((variant) => variant.fields.map((field) => field.spec));
    case 'nullable':
    case 'default':
    case 'catch':
      return [spec.inner];
    default:
      return [];
  }
}

/** Whether the spec, or any spec it holds, is one the predicate picks. */
export function someSpec(spec: Spec, predicate: (node: Spec) => boolean): boolean {
  return predicate(spec) || specChildren(spec).some((child) => someSpec(child, predicate));
}

/** Whether a plain union in the spec has two members that take objects, or two that take arrays. */
export function hasTwoMembersOfOneStructure(spec: Spec): boolean {
  return someSpec(spec, (node) => {
    if (node.kind !== 'union') return false;
    const members = node.options.flatMap((option) => [...structureOf(option)]);
    return (
      members.filter((kind) => kind === 'object').length > 1 ||
      members.filter((kind) => kind === 'array').length > 1
    );
  });
}

function structureOf(spec: Spec): Set<'object' | 'array'> {
  switch (spec.kind) {
    case 'object':
    case 'record':
    case 'discriminated':
    case 'tree':
      return new Set(['object']);
    case 'array':
    case 'tuple':
      return new Set(['array']);
    case 'union':
      return new Set(spec.options.flatMap((option) => [...structureOf(option)]));
    case 'nullable':
    case 'default':
    case 'catch':
      return structureOf(spec.inner);
    default:
      return new Set();
  }
}

const LIST_ELEMENTS: unknown[] = ['ab', 'abcd', '', 'x@example.com', 1, 2.5, true, null, {}, ['a']];

/** A list near the accepted value: itself, itself three times over, or random elements. */
function listLike(value: unknown, pick: () => boolean): unknown[] {
  const list = Array.isArray(value) ? value : [value];
  if (pick()) return pick() ? list : [...list, ...list, ...list];
  return listNoise(pick);
}

/** A list of 0–7 elements picked from strings, emails, numbers and others, by coin flips. */
function listNoise(pick: () => boolean): unknown[] {
  const list: unknown[] = [];
  while (list.length < 7 && pick()) {
    let index = 0;
    for (let bit = 1; bit < 16; bit *= 2) if (pick()) index += bit;
    list.push(LIST_ELEMENTS[index % LIST_ELEMENTS.length]);
  }
  return list;
}

/**
 * Writes structures inside an accepted value as JSON text where the rule wants structure, each one
 * when `pick()` says so. With `textLists`, lists at string-owned positions are written too.
 */
export function serialiseSome(spec: Spec, value: unknown, pick: () => boolean, textLists = false): unknown {
  if (textLists && takesText(spec) && spec.kind === 'union' && pick()) {
    const padding = pick() ? ' \n\t' : '';
    return `${padding}${JSON.stringify(listLike(value, pick))}${padding}`;
  }
  const kind = Array.isArray(value)
    ? 'array'
    : typeof value === 'object' && value !== null
      ? 'object'
      : undefined;
  if (!kind) return value;
  const walked = serialiseInside(spec, value, pick, textLists);
  const wantsStructure = !takesText(spec) && structureOf(spec).has(kind);
  const listAtTextPosition = textLists && takesText(spec) && kind === 'array';
  // JSON text is parsed without its `__proto__` keys (docs/guide/coercion.md): such a value is
  // never given back from text, so it is not written as text.
  return (wantsStructure || listAtTextPosition) && !holdsProtoKey(walked) && pick()
    ? JSON.stringify(walked)
    : walked;
}

function holdsProtoKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return (
    (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) || Object.values(value).some(holdsProtoKey)
  );
}

function serialiseInside(spec: Spec, value: unknown, pick: () => boolean, textLists: boolean): unknown {
  const again = (childSpec: Spec, child: unknown) => serialiseSome(childSpec, child, pick, textLists);
  const fields = (list: Field[], record: Record<string, unknown>) => {
    const result: Record<string, unknown> = { ...record };
    for (const field of list)
      if (Object.hasOwn(record, field.name))
        setOwn(result, field.name, again(field.spec, record[field.name]));
    return result;
  };
  switch (spec.kind) {
    case 'object':
      return fields(spec.fields, value as Record<string, unknown>);
    case 'record':
      return Object.fromEntries(
        Object.entries(value as object).map(([key, child]) => [key, again(spec.value, child)]),
      );
    case 'array':
      return (value as unknown[]).map((item) => again(spec.item, item));
    case 'tuple':
      return (value as unknown[]).map((item, index) => {
        const itemSpec = spec.items[index] ?? spec.rest;
        return itemSpec ? again(itemSpec, item) : item;
      });
    case 'discriminated': {
      const record = value as Record<string, unknown>;
      const variant = spec.variants.find((candidate) => candidate.tags.includes(record[spec.key] as string));
      return variant ? fields(variant.fields, record) : value;
    }
    case 'union': {
      const kind = Array.isArray(value) ? 'array' : 'object';
      const takers = spec.options.filter((option) => structureOf(option).has(kind));
      return takers.length === 1 ? serialiseInside(takers[0] as Spec, value, pick, textLists) : value;
    }
    case 'nullable':
    case 'default':
    case 'catch':
      return serialiseInside(spec.inner, value, pick, textLists);
    case 'tree': {
      const node = value as { children?: unknown[] };
      return node.children ? { ...node, children: node.children.map((child) => again(spec, child)) } : node;
    }
    default:
      return value;
  }
}
