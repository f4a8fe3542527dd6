import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { draft07To202012 } from '../../src/adapters/documents.js';
import { openapiAsJsonSchema } from '../../src/generate/superset.js';
import {
  containsRef,
  definitionGraph,
  definitionsOf,
  inlineAcyclicReferences,
  rewriteRefs,
} from '../../src/shared/json-schema/definitions.js';
import {
  isTypeless,
  kindOfValue,
  provableKinds,
  schemaOfKinds,
  takesNull,
  typesOf,
  unionMembers,
} from '../../src/shared/json-schema/kinds.js';
import { propertiesOf, propertyOf, requiredKeys } from '../../src/shared/json-schema/records.js';
import type { JsonSchema } from '../../src/shared/json-schema/schema.js';
import {
  forEachSubschema,
  mapSchema,
  mapSubschemas,
  type SchemaPath,
  walkSchema,
} from '../../src/shared/json-schema/walk.js';
import { getOwn } from '../../src/shared/run/own-property.js';
import { propertyRuns } from '../support/property-runs.js';
import { HOSTILE_NAMES } from '../support/schema-arbitrary.js';

/** An object whose keys are own properties, whatever they are (`{ __proto__: x }` sets a prototype). */
const own = (entries: readonly (readonly [string, unknown])[]): Record<string, unknown> =>
  Object.fromEntries(entries);

const pathText = (path: SchemaPath): string => path.join('/');

/** Every path `walkSchema` visits, in its order. */
function walkedPaths(schema: JsonSchema): string[] {
  const paths: string[] = [];
  walkSchema(schema, (_node, { path }) => {
    paths.push(pathText(path));
  });
  return paths;
}

describe('the walker', () => {
  const cases: { name: string; schema: JsonSchema; visited: string[] }[] = [
    {
      name: 'an object: its properties in their order, parents first',
      schema: {
        type: 'object',
        properties: { b: { type: 'array', items: { type: 'string' } }, a: { type: 'number' } },
        required: ['a'],
      },
      visited: ['', 'properties/b', 'properties/b/items', 'properties/a'],
    },
    {
      name: 'single subschemas, then lists, then maps (the keyword table)',
      schema: {
        properties: { p: {} },
        anyOf: [{}, {}],
        not: {},
        additionalProperties: {},
        items: {},
      },
      visited: ['', 'items', 'additionalProperties', 'not', 'anyOf/0', 'anyOf/1', 'properties/p'],
    },
    {
      name: 'a 2020-12 tuple and a draft-07 one',
      schema: {
        anyOf: [
          { prefixItems: [{}, {}], items: {} },
          { items: [{}], additionalItems: {} },
        ],
      },
      visited: [
        '',
        'anyOf/0',
        'anyOf/0/items',
        'anyOf/0/prefixItems/0',
        'anyOf/0/prefixItems/1',
        'anyOf/1',
        'anyOf/1/additionalItems',
        'anyOf/1/items/0',
      ],
    },
    {
      name: 'every keyword that holds subschemas',
      schema: {
        propertyNames: {},
        contains: {},
        if: {},
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, in data that is never awaited.
        then: {},
        else: {},
        oneOf: [{}],
        allOf: [{}],
        patternProperties: { '^x': {} },
        $defs: { D: {} },
        definitions: { E: {} },
      },
      visited: [
        '',
        'propertyNames',
        'contains',
        'if',
        'then',
        'else',
        'oneOf/0',
        'allOf/0',
        'patternProperties/^x',
        '$defs/D',
        'definitions/E',
      ],
    },
    {
      name: 'boolean subschemas hold nothing to visit',
      schema: {
        items: true,
        additionalProperties: false,
        anyOf: [true, { type: 'null' }],
        properties: { a: false },
      },
      visited: ['', 'anyOf/1'],
    },
    {
      name: 'data is not walked into: const, enum, default, examples',
      schema: {
        const: { type: 'object', properties: { x: {} } },
        enum: [{ items: {} }],
        default: { not: {} },
        examples: [{ anyOf: [{}] }],
      },
      visited: [''],
    },
  ];

  test.each(cases)('$name', ({ schema, visited }) => {
    expect(walkedPaths(schema)).toEqual(visited);
    // The map variant meets the same nodes, children first.
    const mapped: string[] = [];
    mapSchema(schema, (node, { path }) => {
      mapped.push(pathText(path));
      return node;
    });
    expect(new Set(mapped)).toEqual(new Set(visited));
    expect(mapped.at(-1)).toBe('');
    // One level: the direct subschemas.
    const steps: string[] = [];
    forEachSubschema(schema, (_child, step) => steps.push(step.join('/')));
    expect(steps).toEqual(
      visited.filter((path) => path !== '' && !path.includes('/', path.indexOf('/') + 1)),
    );
  });

  test('a place names the parent and the step; false skips a node’s subschemas', () => {
    const schema: JsonSchema = {
      properties: { a: { items: { type: 'string' } }, b: { type: 'number' } },
      required: ['b'],
    };
    const places: unknown[] = [];
    walkSchema(schema, (node, { path, parent, step }) => {
      places.push([pathText(path), parent === schema, step]);
      return node.items === undefined;
    });
    expect(places).toEqual([
      ['', false, undefined],
      ['properties/a', true, ['properties', 'a']],
      ['properties/b', true, ['properties', 'b']],
    ]);
  });

  test('mapSchema rebuilds only what changed, children first, and never mutates', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'number' } } },
    };
    const before = structuredClone(schema);
    expect(mapSchema(schema, (node) => node)).toBe(schema);
    const seen: string[] = [];
    const mapped = mapSchema(schema, (node, { path }) => {
      // The children of a node are mapped before it.
      seen.push(pathText(path));
      return node.type === 'number' ? { ...node, minimum: 0 } : node;
    });
    expect(seen).toEqual(['properties/a', 'properties/b/items', 'properties/b', '']);
    expect(mapped).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'number', minimum: 0 } } },
    });
    expect(propertyOf(mapped, 'a')).toBe(propertyOf(schema, 'a'));
    expect(Object.keys(mapped)).toEqual(Object.keys(schema));
    expect(schema).toEqual(before);
  });

  test('mapSubschemas maps one level, keeping what comes back unchanged', () => {
    const schema: JsonSchema = { anyOf: [{ type: 'string' }, true], properties: { a: {} } };
    expect(mapSubschemas(schema, (child) => child)).toBe(schema);
    const steps: unknown[] = [];
    const mapped = mapSubschemas(schema, (child, step) => {
      steps.push(step);
      return { ...child, seen: true };
    });
    expect(steps).toEqual([
      ['anyOf', 0],
      ['properties', 'a'],
    ]);
    expect(mapped).toEqual({
      anyOf: [{ type: 'string', seen: true }, true],
      properties: { a: { seen: true } },
    });
  });
});

describe('each walker given a property named __proto__, constructor or the empty string', () => {
  /** A document as JSON text gives it: every name an own key, nested under itself, and required. */
  const documentWith = (name: string): JsonSchema =>
    JSON.parse(
      JSON.stringify({
        type: 'object',
        properties: own([
          [name, { type: 'object', properties: own([[name, { type: 'string' }]]), required: [name] }],
          ['b', { type: 'number' }],
        ]),
        required: [name],
      }),
    );
  test.each(HOSTILE_NAMES)('%j is kept, visited and rebuilt as an own key', (name) => {
    const document = documentWith(name);
    const field = (schema: unknown): unknown => getOwn(propertiesOf(schema as JsonSchema), name);
    expect(field(document)).toBeDefined();

    expect(walkedPaths(document)).toEqual([
      '',
      `properties/${name}`,
      `properties/${name}/properties/${name}`,
      'properties/b',
    ]);
    const steps: unknown[] = [];
    forEachSubschema(document, (_child, step) => steps.push(step));
    expect(steps).toEqual([
      ['properties', name],
      ['properties', 'b'],
    ]);

    const copied = mapSubschemas(document, (child) => ({ ...child }));
    expect(field(copied)).toEqual(field(document));
    const mapped = mapSchema(document, (node) => ({ ...node, seen: true }));
    expect(field(field(mapped))).toEqual({ type: 'string', seen: true });
    for (const rebuilt of [copied, mapped]) {
      const properties = rebuilt.properties as object;
      expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
      expect(Object.keys(properties)).toEqual([name, 'b']);
    }

    expect(propertyOf(document, name)).toBe(field(document));
    expect(requiredKeys(document)).toEqual([name]);
  });

  test.each(HOSTILE_NAMES)(
    'a definition named %j is found, followed, inlined and kept when recursive',
    (name) => {
      const ref = `#/$defs/${name}`;
      const document = JSON.parse(
        JSON.stringify({
          type: 'object',
          properties: own([[name, { $ref: ref, description: 'the field' }]]),
          $defs: own([
            [name, { type: 'array', items: { type: 'string' } }],
            ['tree', { type: 'object', properties: own([[name, { $ref: '#/$defs/tree' }]]) }],
          ]),
        }),
      ) as JsonSchema;
      const graph = definitionGraph(document);
      expect(graph.targetOf(ref)).toBe(name);
      expect([...graph.recursive]).toEqual(['tree']);
      expect(graph.resolve({ $ref: ref })).toEqual({ type: 'array', items: { type: 'string' } });
      const inlined = inlineAcyclicReferences(document);
      expect(getOwn(propertiesOf(inlined), name)).toEqual({
        type: 'array',
        items: { type: 'string' },
        description: 'the field',
      });
      expect(Object.keys(inlined.$defs as object)).toEqual(['tree']);
      expect(containsRef(document, ref)).toBe(true);
      const renamed = rewriteRefs(document, (seen) => (seen === ref ? '#/$defs/renamed' : seen));
      expect(getOwn(propertiesOf(renamed), name)).toEqual({
        $ref: '#/$defs/renamed',
        description: 'the field',
      });
      expect(Object.keys(renamed.$defs as object)).toEqual([name, 'tree']);
    },
  );

  test('a name the schema does not declare is no field of it', () => {
    const document: JsonSchema = { type: 'object', properties: { a: {} } };
    for (const name of ['constructor', '__proto__', 'hasOwnProperty', 'toString'])
      expect(propertyOf(document, name)).toBeUndefined();
    expect(definitionsOf({ $defs: {} }).targetOf('#/$defs/constructor')).toBeUndefined();
  });

  test.each(['__proto__', 'constructor', ''])(
    'draft-07 to 2020-12 keeps a property and a definition named %j',
    (name) => {
      const draft07 = JSON.parse(
        JSON.stringify({
          type: 'object',
          properties: own([[name, { $ref: `#/definitions/${name}` }]]),
          definitions: own([[name, { type: 'array', items: [{ type: 'string' }] }]]),
        }),
      ) as JsonSchema;
      const converted = draft07To202012(draft07);
      expect(getOwn(propertiesOf(converted), name)).toEqual({ $ref: `#/$defs/${name}` });
      expect(getOwn(converted.$defs as Record<string, unknown>, name)).toEqual({
        type: 'array',
        prefixItems: [{ type: 'string' }],
      });
    },
  );
});

describe('definitions and references', () => {
  const document: JsonSchema = {
    $defs: {
      A: { $ref: '#/$defs/B' },
      B: { type: 'string' },
      '': { type: 'number' },
      Loop1: { $ref: '#/$defs/Loop2' },
      Loop2: { $ref: '#/$defs/Loop1' },
    },
  };
  const definitions = definitionsOf(document);

  test.each([
    ['#/$defs/B', 'B'],
    ['#/definitions/B', 'B'],
    ['#/$defs/', ''],
    ['#/$defs/missing', undefined],
    ['#', undefined],
    ['https://example.com/schema#/$defs/B', undefined],
    [42, undefined],
  ])('targetOf(%j) is %j', (ref, target) => {
    expect(definitions.targetOf(ref)).toBe(target);
  });

  test.each([
    ['a node that is no reference: itself', { type: 'null' }, { type: 'null' }],
    ['a reference', { $ref: '#/$defs/B' }, { type: 'string' }],
    ['a reference to a reference', { $ref: '#/$defs/A' }, { type: 'string' }],
    ['a reference to nothing', { $ref: '#/$defs/missing' }, undefined],
    ['no schema', undefined, undefined],
  ])('resolve: %s', (_name, node, resolved) => {
    expect(definitions.resolve(node)).toEqual(resolved);
  });

  test('resolve ends in a cycle of bare references', () => {
    expect(definitions.resolve({ $ref: '#/$defs/Loop1' })).toHaveProperty('$ref');
  });

  test.each([
    ['2020-12', { $defs: { A: {} } }, '$defs'],
    ['draft-07', { definitions: { A: {} } }, 'definitions'],
    ['none', {}, 'definitions'],
  ])('where a %s document keeps its definitions', (_name, schema, defsKey) => {
    expect(definitionsOf(schema).defsKey).toBe(defsKey);
  });

  test.each([
    ['none', { A: { type: 'string' }, B: { $ref: '#/$defs/A' } }, []],
    ['a definition within itself', { T: { items: { $ref: '#/$defs/T' } } }, ['T']],
    [
      'two within each other',
      { P: { items: { $ref: '#/$defs/Q' } }, Q: { anyOf: [{ $ref: '#/$defs/P' }] } },
      ['P', 'Q'],
    ],
    [
      'one that only uses a recursive one',
      { T: { items: { $ref: '#/$defs/T' } }, U: { $ref: '#/$defs/T' } },
      ['T'],
    ],
    ['a reference in data is no use of a definition', { D: { default: { $ref: '#/$defs/D' } } }, []],
  ])('recursive definitions: %s', (_name, $defs, recursive) => {
    expect([...definitionGraph({ $defs }).recursive]).toEqual(recursive);
  });

  test.each([
    [
      'a definition used twice is written out at each place, the reference’s siblings after it',
      {
        type: 'object',
        properties: { a: { $ref: '#/$defs/S', description: 'a' }, b: { $ref: '#/$defs/S' } },
        $defs: { S: { type: 'string' } },
      },
      {
        type: 'object',
        properties: { a: { type: 'string', description: 'a' }, b: { type: 'string' } },
      },
    ],
    [
      'a recursive definition stays, under the document’s own keyword',
      {
        items: { $ref: '#/definitions/T' },
        definitions: {
          T: { anyOf: [{ type: 'null' }, { $ref: '#/definitions/T' }, { $ref: '#/definitions/S' }] },
          S: { type: 'string' },
        },
      },
      {
        items: { $ref: '#/definitions/T' },
        definitions: { T: { anyOf: [{ type: 'null' }, { $ref: '#/definitions/T' }, { type: 'string' }] } },
      },
    ],
    [
      'a root that is a reference to a recursive definition is written out in place',
      { $ref: '#/$defs/T', $defs: { T: { type: 'object', properties: { next: { $ref: '#/$defs/T' } } } } },
      {
        type: 'object',
        properties: { next: { $ref: '#/$defs/T' } },
        $defs: { T: { type: 'object', properties: { next: { $ref: '#/$defs/T' } } } },
      },
    ],
    [
      'data that looks like a reference stays data, and a field named $defs stays a field',
      {
        type: 'object',
        properties: { $defs: { const: { $ref: '#/$defs/S' } }, definitions: { $ref: '#/$defs/S' } },
        $defs: { S: { type: 'string' } },
      },
      {
        type: 'object',
        properties: { $defs: { const: { $ref: '#/$defs/S' } }, definitions: { type: 'string' } },
      },
    ],
  ])('inlining: %s', (_name, schema, inlined) => {
    expect(inlineAcyclicReferences(schema)).toEqual(inlined);
  });

  test('rewriteRefs rewrites every reference and nothing else; containsRef finds one', () => {
    const schema: JsonSchema = {
      anyOf: [{ $ref: '#' }, { items: { $ref: '#/$defs/A' } }],
      default: { $ref: '#' },
      $defs: { A: { $ref: '#' } },
    };
    const rewritten = rewriteRefs(schema, (ref) => (ref === '#' ? '#/$defs/__root' : ref));
    expect(rewritten).toEqual({
      anyOf: [{ $ref: '#/$defs/__root' }, { items: { $ref: '#/$defs/A' } }],
      default: { $ref: '#' },
      $defs: { A: { $ref: '#/$defs/__root' } },
    });
    expect(rewriteRefs(schema, (ref) => ref)).toBe(schema);
    expect(containsRef(schema, '#/$defs/A')).toBe(true);
    expect(containsRef({ default: { $ref: '#' } }, '#')).toBe(false);
  });
});

describe('kinds', () => {
  test.each([
    [{ type: 'string' }, ['string']],
    [{ type: ['integer', 'null'] }, ['integer', 'null']],
    [{ enum: ['a'] }, []],
  ])('typesOf(%j)', (schema, types) => {
    expect(typesOf(schema)).toEqual(types);
  });

  test.each([
    [{ anyOf: [{ type: 'string' }] }, [{ type: 'string' }]],
    [{ oneOf: [{ type: 'null' }] }, [{ type: 'null' }]],
    [{ anyOf: [{}], oneOf: [{ type: 'null' }] }, [{}]],
    [{ allOf: [{}] }, undefined],
  ])('unionMembers(%j)', (schema, members) => {
    expect(unionMembers(schema)).toEqual(members);
  });

  test.each([
    [null, 'null'],
    [[1], 'array'],
    [1, 'integer'],
    [1.5, 'number'],
    ['a', 'string'],
    [true, 'boolean'],
    [{}, 'object'],
  ])('kindOfValue(%j) is %s', (value, kind) => {
    expect(kindOfValue(value)).toBe(kind);
  });

  test.each([
    [{ type: 'string' }, ['string']],
    [{ type: ['object', 'null'] }, ['object', 'null']],
    [{ const: 3 }, ['integer']],
    [{ enum: ['a', 1.5, null] }, ['string', 'number', 'null']],
    [
      { anyOf: [{ type: 'string' }, { oneOf: [{ const: true }, { type: 'array' }] }] },
      ['string', 'boolean', 'array'],
    ],
    [{ anyOf: [{ type: 'string' }, { $ref: '#/$defs/A' }] }, undefined],
    [{ $ref: '#/$defs/A' }, undefined],
    [{}, undefined],
  ])('provableKinds(%j)', (schema, kinds) => {
    const found = provableKinds(schema);
    expect(found && [...found]).toEqual(kinds);
  });

  test.each([
    [['string'], { type: 'string' }],
    [['null', 'integer', 'number'], { type: ['number', 'null'] }],
    [['array', 'object'], { type: ['object', 'array'], items: {}, additionalProperties: {} }],
  ] as const)('schemaOfKinds(%j)', (kinds, schema) => {
    expect(schemaOfKinds(new Set(kinds))).toEqual(schema);
  });

  test.each([
    [{}, true, true],
    [{ description: 'anything', default: 1 }, true, true],
    [{ additionalProperties: {} }, false, false],
    [{ type: 'null' }, false, true],
    [{ type: ['string', 'null'] }, false, true],
    [{ type: 'string' }, false, false],
    [{ const: null }, false, true],
    [{ enum: ['a', null] }, false, true],
    [{ enum: ['a'] }, false, false],
    [{ anyOf: [{ type: 'string' }, { oneOf: [{ type: 'null' }] }] }, false, true],
    [{ anyOf: [{ type: 'string' }] }, false, false],
    [{ $ref: '#/$defs/A' }, false, false],
  ])('%j: typeless %s, takes null %s', (schema, typeless, nullable) => {
    expect(isTypeless(schema)).toBe(typeless);
    expect(takesNull(schema)).toBe(nullable);
  });
});

describe('walks that moved onto the toolkit', () => {
  test('Gemini’s OpenAPI document read as JSON Schema keeps a field named nullable', () => {
    const document = {
      type: 'object',
      properties: { nullable: { type: 'boolean' }, name: { type: 'string', nullable: true } },
      default: { nullable: true },
    };
    expect(openapiAsJsonSchema(document)).toEqual({
      type: 'object',
      properties: { nullable: { type: 'boolean' }, name: { type: ['string', 'null'] } },
      default: { nullable: true },
    });
  });
});

/** Documents of nested objects, lists, unions and definitions, with hostile names among the fields. */
const documents = fc.letrec<{ schema: JsonSchema }>((tie) => {
  const name = fc.oneof(fc.constantFrom('a', 'b', 'c'), fc.constantFrom(...HOSTILE_NAMES));
  const leaf = fc.constantFrom<JsonSchema>({ type: 'string' }, { type: 'number' }, { $ref: '#/$defs/a' }, {});
  const entries = fc.uniqueArray(fc.tuple(name, tie('schema')), { selector: ([key]) => key, maxLength: 4 });
  return {
    schema: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      entries.map((fields) => ({
        type: 'object',
        properties: own(fields),
        required: fields.map(([key]) => key),
      })),
      tie('schema').map((items) => ({ type: 'array', items })),
      fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
      entries.map((defs) => ({ $defs: own(defs), items: { $ref: '#/$defs/a' } })),
    ),
  };
}).schema;

/** The node a path leads to, reading own keys only. */
function nodeAt(schema: unknown, path: SchemaPath): unknown {
  return path.reduce<unknown>(
    (node, step) => getOwn(node as Record<string, unknown> | undefined, String(step)),
    schema,
  );
}

describe('properties of the walker', () => {
  const RUNS = propertyRuns(300);

  test(`each path the walker gives leads to its node, the map meets the same nodes, and a copy is the document (${RUNS} random documents)`, () => {
    fc.assert(
      fc.property(documents, (document) => {
        const walked: string[] = [];
        walkSchema(document, (node, { path }) => {
          expect(nodeAt(document, path)).toBe(node);
          walked.push(JSON.stringify(path));
        });
        const mapped: string[] = [];
        const copy = mapSchema(document, (node, { path }) => {
          mapped.push(JSON.stringify(path));
          return { ...node };
        });
        expect(mapped.sort()).toEqual(walked.sort());
        expect(JSON.stringify(copy)).toBe(JSON.stringify(document));
        expect(mapSchema(document, (node) => node)).toBe(document);
      }),
      { numRuns: RUNS },
    );
  });
});
