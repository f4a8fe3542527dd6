import { type Definitions, definitionsOf } from '../shared/json-schema/definitions.js';
import { typesOf, unionMembers } from '../shared/json-schema/kinds.js';
import { propertiesOf, requiredKeys } from '../shared/json-schema/records.js';
import type { JsonSchema } from '../shared/json-schema/schema.js';
import { getOwn } from '../shared/run/own-property.js';

/**
 * Values a JSON Schema document describes, chosen from it rather than drawn at random (so that
 * every run tries the same ones): a typical value, then its bounds, each enum and union member,
 * and for an object one field at a time varied. `check --explain` parses them with the contract's
 * parser, from toolprep's documents (hidden constraints) and from the library's own (the superset).
 */

export interface Sample {
  readonly value: unknown;
  /** The field this value varies from the typical one, for a refusal without a path. */
  readonly path: readonly (string | number)[];
}

/** Values the document describes: a typical one, then one field at a time varied within it. */
export function documentedValues(document: JsonSchema): Sample[] {
  const [typical, ...varied] = candidatesOf(
    document,
    { definitions: definitionsOf(document), filled: false },
    0,
  );
  if (typical === undefined) return [];
  return [
    { value: typical, path: [] },
    ...varied.map((value) => ({ value, path: variedPath(typical, value) })),
  ];
}

/**
 * The typical value with every optional field present and each list one item long, where the
 * document allows it: what a view's preview shows (an empty gallery would show nothing). Undefined
 * when the document describes no value the sampler can write.
 */
export function filledValue(document: JsonSchema): unknown {
  return candidatesOf(document, { definitions: definitionsOf(document), filled: true }, 0)[0];
}

/** What every step of a walk reads: the document's definitions, and whether values are filled. */
interface Walk {
  readonly definitions: Definitions;
  readonly filled: boolean;
}

/** The first key (deepest first) where two values differ. */
function variedPath(base: unknown, value: unknown): (string | number)[] {
  if (typeof base !== 'object' || base === null || typeof value !== 'object' || value === null) return [];
  for (const key of new Set([...Object.keys(base), ...Object.keys(value)])) {
    const a = getOwn(base as Record<string, unknown>, key);
    const b = getOwn(value as Record<string, unknown>, key);
    // A varied value shares every other field's value with the typical one: no text to compare.
    if (a !== b && JSON.stringify(a) !== JSON.stringify(b)) return [key, ...variedPath(a, b)];
  }
  return [];
}

/** Strings that satisfy common formats: a value a model would send for each. */
const FORMATTED: Record<string, string> = {
  email: 'user@example.com',
  uuid: '123e4567-e89b-42d3-a456-426614174000',
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '12:00:00',
  duration: 'P1D',
  uri: 'https://example.com/a',
  url: 'https://example.com/a',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
};

/** Strings tried against a pattern: the first that matches is the field's typical value. */
const PATTERN_TRIES = [
  'a',
  'abc',
  'A',
  'a1',
  '1',
  '123',
  'example',
  'a-b',
  'a_b',
  '/a',
  'a.b',
  'a@b.co',
  '2026-01-01',
];

/**
 * At most this many values per schema: each level adds its parts' values rather than multiplying
 * them, so the bound is only reached through recursive definitions.
 */
const MAX_VALUES = 400;

/**
 * Values a schema describes, the typical one first: the bounds, each enum member, each union
 * member's, and for an object its typical value with one field at a time varied. Parts take turns
 * (a value of each field or member, then a second of each), so that a cut keeps every part.
 */
function candidatesOf(schema: JsonSchema | boolean, walk: Walk, depth: number): unknown[] {
  // `true` takes anything (a string will do); `false` takes nothing.
  if (typeof schema === 'boolean') return schema ? ['a'] : [];
  if (depth > 6) return [];
  if (typeof schema.$ref === 'string') {
    const target = walk.definitions.targetOf(schema.$ref);
    const definition = target === undefined ? undefined : walk.definitions.defs[target];
    return definition ? candidatesOf(definition as JsonSchema | boolean, walk, depth + 1) : [];
  }
  if ('const' in schema) return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum;
  const members = unionMembers(schema);
  if (members)
    return unique(
      inTurns(members.map((member) => candidatesOf(member as JsonSchema, walk, depth + 1))),
    ).slice(0, MAX_VALUES);
  return unique(typesOf(schema).flatMap((type) => typedCandidates(String(type), schema, walk, depth))).slice(
    0,
    MAX_VALUES,
  );
}

function typedCandidates(type: string, schema: JsonSchema, walk: Walk, depth: number): unknown[] {
  switch (type) {
    case 'null':
      return [null];
    case 'boolean':
      return [true, false];
    case 'string':
      return stringCandidates(schema);
    case 'number':
    case 'integer':
      return numberCandidates(schema, type === 'integer');
    case 'array': {
      if (Array.isArray(schema.prefixItems)) return tupleCandidates(schema, walk, depth);
      const items = candidatesOf((schema.items ?? {}) as JsonSchema, walk, depth + 1);
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : Number.POSITIVE_INFINITY;
      if (items.length === 0) return min === 0 ? [[]] : [];
      const lists = [
        Array(Math.max(min, 1)).fill(items[0]),
        ...items.slice(1).map((item) => [...Array(Math.max(min - 1, 0)).fill(items[0]), item]),
      ];
      const fitting = lists.filter((list) => list.length <= max);
      return walk.filled
        ? [...fitting, ...(min === 0 ? [[]] : [])]
        : [...(min === 0 ? [[]] : []), ...fitting];
    }
    case 'object':
      return objectCandidates(schema, walk, depth);
    default:
      return [];
  }
}

/**
 * A tuple's typical value (each place's), then one place at a time varied. A tuple whose
 * `minItems` asks for more than its places (a rest) gets places of its `items` up to it.
 */
function tupleCandidates(schema: JsonSchema, walk: Walk, depth: number): unknown[] {
  const prefix = schema.prefixItems as readonly (JsonSchema | boolean)[];
  const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const rest = (schema.items ?? true) as JsonSchema | boolean;
  const places = [...prefix, ...Array<JsonSchema | boolean>(Math.max(min - prefix.length, 0)).fill(rest)];
  const choices = places.map((place) => candidatesOf(place, walk, depth + 1));
  if (choices.some((values) => values.length === 0)) return [];
  const typical = choices.map((values) => values[0]);
  return [
    typical,
    ...inTurns(
      choices.map((values, at) =>
        values.slice(1).map((value) => typical.map((item, index) => (index === at ? value : item))),
      ),
    ),
  ];
}

/** The first value of each list, then the second of each, and so on. */
function inTurns(lists: readonly (readonly unknown[])[]): unknown[] {
  const values: unknown[] = [];
  for (let turn = 0; lists.some((list) => turn < list.length); turn++)
    for (const list of lists) if (turn < list.length) values.push(list[turn]);
  return values;
}

function stringCandidates(schema: JsonSchema): string[] {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  const fits = (text: string) => text.length >= min && text.length <= max;
  const formatted = typeof schema.format === 'string' ? getOwn(FORMATTED, schema.format) : undefined;
  if (formatted !== undefined) return [formatted];
  if (typeof schema.pattern === 'string') {
    let pattern: RegExp;
    try {
      pattern = new RegExp(schema.pattern, 'u');
    } catch {
      return [];
    }
    return PATTERN_TRIES.filter((text) => fits(text) && pattern.test(text)).slice(0, 2);
  }
  return [
    'a'.repeat(Math.max(min, 1)),
    '',
    'example text',
    'a'.repeat(Number.isFinite(max) ? max : min + 12),
    // Strings any plain string admits that the rules parsers often add refuse: blank, a separator
    // of paths, a capital, a letter outside ASCII.
    ' ',
    'a/b',
    'A',
    'é',
  ].filter(fits);
}

function numberCandidates(schema: JsonSchema, integer: boolean): number[] {
  const low =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + 1
        : undefined;
  const high =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum - 1
        : undefined;
  const step = typeof schema.multipleOf === 'number' ? schema.multipleOf : undefined;
  const fits = (value: number) =>
    (low === undefined || value >= low) &&
    (high === undefined || value <= high) &&
    (!integer || Number.isInteger(value)) &&
    (step === undefined || Number.isInteger(value / step));
  const typical = low !== undefined && low > 1 ? low : high !== undefined && high < 1 ? high : 1;
  return [typical, 0, -1, 2, 1.5, low ?? 100, high ?? 1_000_000].filter(fits);
}

function objectCandidates(schema: JsonSchema, walk: Walk, depth: number): unknown[] {
  const required = new Set(requiredKeys(schema));
  const choices = Object.entries(propertiesOf(schema)).map(
    ([key, property]) => [key, candidatesOf(property as JsonSchema | boolean, walk, depth + 1)] as const,
  );
  // A required field with no value the sampler can write: the object cannot be sampled.
  if (choices.some(([key, values]) => required.has(key) && values.length === 0)) return [];
  // Filled: every field the sampler can write is in the typical value, optional or not.
  const inTypical = (key: string, values: readonly unknown[]): boolean =>
    required.has(key) || (walk.filled && values.length > 0);
  const typical = Object.fromEntries(
    choices.filter(([key, values]) => inTypical(key, values)).map(([key, values]) => [key, values[0]]),
  );
  const varied = inTurns(
    choices.map(([key, values]) =>
      (inTypical(key, values) ? values.slice(1) : values).map((value) => ({ ...typical, [key]: value })),
    ),
  );
  return [typical, ...varied];
}

function unique(values: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = JSON.stringify(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
