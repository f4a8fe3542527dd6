import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { scope, type Type, type } from 'arktype';
import fc from 'fast-check';
import { defineTool, type ToolContract } from 'toolprep';
import * as v from 'valibot';
import { z as z3 } from 'zod3';
import { z as z3v3 } from 'zod325/v3';
import { propertyRuns } from './property-runs.js';
import {
  buildSchema,
  type Field,
  HOSTILE_NAMES,
  type Spec,
  someSpec,
  specArbitraries,
  zodBuilder,
} from './schema-arbitrary.js';

/**
 * A schema library under test: its own generator of random schemas (the specs it can express,
 * built with its own API), and its own parser. Values come from the specs, so every library is
 * tested on the values its schemas accept.
 */
export interface LibraryUnderTest {
  readonly name: string;
  /** Specs for tool inputs this library can write. */
  readonly inputs: fc.Arbitrary<Spec>;
  /** The tool input schema for a spec, as a contract holds it; undefined where the library refuses to make it. */
  build(spec: Spec): unknown;
  /** Whether the library's own parser accepts the value; undefined where the parser itself crashes. */
  accepts(schema: unknown, value: unknown): boolean | undefined;
  /**
   * Whether its parser takes every value a spec's sampler makes. Where it does not (ArkType prunes
   * some unions its own way), the properties keep only the values its parser accepts.
   */
  readonly followsSpecs: boolean;
}

const standardAccepts = (schema: unknown, value: unknown): boolean => {
  const result = (schema as { '~standard': { validate(value: unknown): unknown } })['~standard'].validate(
    value,
  );
  if (result instanceof Promise) throw new Error('an async parse in a sync test');
  return (result as { issues?: unknown }).issues === undefined;
};

/** ArkType: no `.catch()`, and defaults only on object keys, so neither is generated. */
function buildArkType(spec: Spec): Type {
  switch (spec.kind) {
    case 'string': {
      if (spec.check === 'email') return type('string.email');
      let schema: Type<string> = type('string');
      if (spec.min !== undefined) schema = schema.atLeastLength(spec.min);
      if (spec.max !== undefined) schema = schema.atMostLength(spec.max);
      return spec.check === 'even' ? schema.narrow((value) => value.length % 2 === 0) : schema;
    }
    case 'number':
      return type(spec.int ? 'number.integer' : 'number');
    case 'boolean':
      return type('boolean');
    case 'null':
      return type('null');
    case 'literal':
      return type.unit(spec.value);
    case 'enum':
      return type.enumerated(...spec.values);
    case 'array': {
      const schema = buildArkType(spec.item).array();
      return spec.max === undefined ? schema : schema.atMostLength(spec.max);
    }
    case 'tuple': {
      const items = spec.items.map(buildArkType);
      return (
        spec.rest ? type([...items, '...', buildArkType(spec.rest).array()] as never) : type(items as never)
      ) as Type;
    }
    case 'object': {
      const shape = arkShape(spec.fields);
      // ArkType ignores undeclared keys by default; deleting them would be a morph.
      return type((spec.mode === 'strict' ? { '+': 'reject', ...shape } : shape) as never);
    }
    case 'record':
      return type.Record('string', buildArkType(spec.value));
    case 'union':
      return spec.options.map(buildArkType).reduce((union, option) => union.or(option) as Type);
    case 'discriminated':
      return spec.variants
        .map((variant) => {
          const tag = type.enumerated(...variant.tags);
          const shape = { [spec.key]: tag, ...arkShape(variant.fields) };
          return type((variant.strict ? { '+': 'reject', ...shape } : shape) as never) as Type;
        })
        .reduce((union, option) => union.or(option) as Type);
    case 'nullable':
      return buildArkType(spec.inner).or('null') as Type;
    case 'tree':
      return arkTree;
    default:
      throw new Error(`ArkType cannot write a ${spec.kind} spec`);
  }
}

const arkTree = scope({ tree: { name: 'string', 'children?': 'tree[]' } }).export().tree as unknown as Type;

function arkShape(fields: Field[]): Record<string, Type> {
  return Object.fromEntries(
    fields.map((field) => [`${field.name}${field.optional ? '?' : ''}`, buildArkType(field.spec)]),
  );
}

type ValibotSchema = v.GenericSchema;
const valibotTree: ValibotSchema = v.object({
  name: v.string(),
  children: v.optional(v.array(v.lazy(() => valibotTree))),
});

function buildValibot(spec: Spec): ValibotSchema {
  const shapeOf = (fields: Field[]) =>
    Object.fromEntries(
      fields.map((field) => [
        field.name,
        field.optional ? v.optional(buildValibot(field.spec)) : buildValibot(field.spec),
      ]),
    );
  switch (spec.kind) {
    case 'string': {
      if (spec.check === 'email') return v.pipe(v.string(), v.email(), v.maxLength(40));
      const actions = [
        ...(spec.min === undefined ? [] : [v.minLength(spec.min)]),
        ...(spec.max === undefined ? [] : [v.maxLength(spec.max)]),
        ...(spec.check === 'even' ? [v.check((value: string) => value.length % 2 === 0)] : []),
      ];
      return (v.pipe as unknown as (...items: unknown[]) => ValibotSchema)(v.string(), ...actions);
    }
    case 'number':
      return spec.int ? v.pipe(v.number(), v.integer()) : v.number();
    case 'boolean':
      return v.boolean();
    case 'null':
      return v.null();
    case 'literal':
      return v.literal(spec.value);
    case 'enum':
      return v.picklist(spec.values);
    case 'array': {
      const schema = v.array(buildValibot(spec.item));
      return spec.max === undefined ? schema : v.pipe(schema, v.maxLength(spec.max));
    }
    case 'tuple': {
      const items = spec.items.map(buildValibot);
      return spec.rest ? v.tupleWithRest(items, buildValibot(spec.rest)) : v.strictTuple(items);
    }
    case 'object':
      return spec.mode === 'strict'
        ? v.strictObject(shapeOf(spec.fields))
        : spec.mode === 'loose'
          ? v.looseObject(shapeOf(spec.fields))
          : v.object(shapeOf(spec.fields));
    case 'record':
      return v.record(v.string(), buildValibot(spec.value));
    case 'union':
      return v.union(spec.options.map(buildValibot));
    case 'discriminated':
      return v.variant(
        spec.key,
        spec.variants.map((variant) => {
          const tag =
            variant.tags.length === 1 ? v.literal(variant.tags[0] as string) : v.picklist(variant.tags);
          const shape = { [spec.key]: tag, ...shapeOf(variant.fields) };
          return variant.strict ? v.strictObject(shape) : v.object(shape);
        }) as never,
      );
    case 'nullable':
      return v.nullable(buildValibot(spec.inner));
    case 'default':
      return v.optional(buildValibot(spec.inner), spec.fallback as never);
    case 'catch':
      // Zod's .catch() takes a missing key too; Valibot's fallback alone does not.
      return v.optional(v.fallback(buildValibot(spec.inner), spec.fallback as never), spec.fallback as never);
    case 'tree':
      return valibotTree;
  }
}

const OBJECTS = new Set<Spec['kind']>(['object', 'record', 'discriminated', 'tree']);
const ARRAYS = new Set<Spec['kind']>(['array', 'tuple']);

/** Whether a union in the spec has both an object-like and an array-like member. */
function hasObjectOrArrayUnion(spec: Spec): boolean {
  const kinds = (member: Spec): Spec['kind'][] =>
    member.kind === 'nullable' || member.kind === 'default' || member.kind === 'catch'
      ? kinds(member.inner)
      : member.kind === 'union'
        ? member.options.flatMap(kinds)
        : [member.kind];
  return someSpec(spec, (node) => {
    if (node.kind !== 'union') return false;
    const found = node.options.flatMap(kinds);
    return found.some((kind) => OBJECTS.has(kind)) && found.some((kind) => ARRAYS.has(kind));
  });
}

/**
 * Valibot's and ArkType's own converters write `properties[name] = schema`, which for a field named
 * `__proto__` sets a prototype: the field is not in their documents, which toolprep's plans are
 * compiled from (the build reports it where it is required: test/prepare/hostile-keys.test.ts).
 * Their arbitraries draw every other hostile name.
 */
const BUT_PROTO = HOSTILE_NAMES.filter((name) => name !== '__proto__');

/**
 * ArkType takes 20–30 ms to make a type (it parses, interns and compiles each one, and keeps its
 * 1.5 MB for good): more than all the rest of a coercion case. So a test file draws this many input
 * specs once, from the same generator at a random seed (as a property run would draw them), and
 * builds each the first time a case picks it; every case still samples values of its own. A
 * failure prints the spec itself, so it can be found again without the pool's seed. `npm run fuzz`
 * draws ten times as many, as many as a worker's heap holds (vitest.config.ts).
 */
const ARKTYPE_POOL = Math.min(propertyRuns(200), 2_000);

/** Specs picked from a pool of `size` drawn from `specs`, smallest first, so that shrinking gives smaller ones. */
function pooled(specs: fc.Arbitrary<Spec>, size: number): fc.Arbitrary<Spec> {
  let pool: Spec[] | undefined;
  return fc.nat(size - 1).map((index) => {
    pool ??= fc
      .sample(specs, size)
      .map((spec) => ({ spec, length: JSON.stringify(spec).length }))
      .sort((left, right) => left.length - right.length)
      .map(({ spec }) => spec);
    return pool[index] as Spec;
  });
}

/** `build`, made once per spec (a pooled spec is the same object each time it is picked). */
function builtOnce(build: (spec: Spec) => unknown): (spec: Spec) => unknown {
  const built = new WeakMap<Spec, unknown>();
  return (spec) => {
    if (!built.has(spec)) built.set(spec, build(spec));
    return built.get(spec);
  };
}

const zod3Build = zodBuilder(z3);
const zod3v3Build = zodBuilder(z3v3);
const zod3Accepts = (schema: unknown, value: unknown) => (schema as z3.ZodTypeAny).safeParse(value).success;

/** Every library toolprep reads, each with its generator and its parser. */
export const LIBRARIES: readonly LibraryUnderTest[] = [
  {
    name: 'zod 4',
    inputs: specArbitraries().input,
    build: buildSchema,
    accepts: standardAccepts,
    followsSpecs: true,
  },
  {
    name: 'zod 3.23',
    inputs: specArbitraries().input,
    build: zod3Build,
    accepts: zod3Accepts,
    followsSpecs: true,
  },
  {
    name: 'zod/v3 (3.25)',
    inputs: specArbitraries().input,
    build: zod3v3Build,
    accepts: zod3Accepts,
    followsSpecs: true,
  },
  {
    name: 'ArkType',
    inputs: pooled(specArbitraries(new Set(['default', 'catch']), BUT_PROTO).input, ARKTYPE_POOL),
    // ArkType refuses to make some unions (a record's values against an object's field of another
    // type, across branches): those specs are not schemas it can express. And in ArkType an object
    // type takes arrays too, so its converter shows a union of an object and an array type as the
    // object alone (docs/guide/schema-libraries.md): those are left out of the superset's cases.
    build: builtOnce((spec) => {
      if (hasObjectOrArrayUnion(spec)) return undefined;
      try {
        return buildArkType(spec);
      } catch {
        return undefined;
      }
    }),
    // ArkType's compiled validator throws on some union shapes (`'name' in "red"`): no answer.
    accepts: (schema, value) => {
      try {
        return standardAccepts(schema, value);
      } catch {
        return undefined;
      }
    },
    followsSpecs: false,
  },
  {
    name: 'Valibot',
    inputs: specArbitraries(new Set(), BUT_PROTO).input,
    // A contract holds the Standard JSON Schema form; nested schemas stay Valibot's own.
    build: (spec) => toStandardJsonSchema(buildValibot(spec)),
    accepts: standardAccepts,
    followsSpecs: true,
  },
];

/** A contract of the library's schema for a spec, skipping (`fc.pre`) a spec the library cannot write. */
export function randomContract(
  library: LibraryUnderTest,
  spec: Spec,
): { input: unknown; contract: ToolContract } {
  const input = library.build(spec);
  fc.pre(input !== undefined);
  return {
    input,
    contract: defineTool({ name: 'random_tool', description: 'A random tool.', input: input as never }),
  };
}
