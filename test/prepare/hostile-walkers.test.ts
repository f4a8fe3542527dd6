import { type JsonSchema, prepareTool } from '@toolprep/build';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { defineTool } from 'toolprep';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { draft07To202012 } from '../../src/adapters/documents.js';
import { emitModule } from '../../src/emit/module.js';
import { describeSurfaceChanges } from '../../src/emit/surface-diff.js';
import { compileDocument } from '../../src/generate/document-validator.js';
import { documentedValues } from '../../src/generate/sample-values.js';
import { supersetViolations } from '../../src/generate/superset.js';
import type { Manifest } from '../../src/manifest/manifest.js';
import { flattenUnions, mergeRootUnion } from '../../src/prepare/flatten.js';
import { forEachNode, mapTree, mergeAllOf } from '../../src/prepare/profiles/tree.js';
import { toolSize } from '../../src/prepare/tool-size.js';
import { definitionGraph, inlineAcyclicReferences } from '../../src/shared/json-schema/definitions.js';
import { fieldRows } from '../../src/shared/json-schema/schema-text.js';
import { mapSubschemas } from '../../src/shared/json-schema/walk.js';
import { getOwn } from '../../src/shared/run/own-property.js';

/**
 * Each JSON Schema walker, the sampler, the validator of the superset proof, the surface diff and
 * the generated module, given a key named `__proto__` (and `constructor`): each keeps it as an own
 * key, as any other. The contracts themselves: hostile-keys.test.ts.
 */

/** An object whose keys are own properties, whatever they are (`{ __proto__: x }` sets a prototype). */
const own = (entries: readonly (readonly [string, unknown])[]): Record<string, unknown> =>
  Object.fromEntries(entries);

/** A document's own `__proto__` property, if it has one. */
const protoOf = (schema: unknown): unknown =>
  getOwn((schema as JsonSchema).properties as Record<string, unknown> | undefined, '__proto__');

/** A document as JSON text gives it: `__proto__` as an own key. */
const PROTO_DOCUMENT = JSON.parse(
  '{"type":"object","properties":{"__proto__":{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]},"b":{"type":"string"}},"required":["__proto__"]}',
) as JsonSchema;

describe('each JSON Schema walker given a __proto__ property', () => {
  test('mapSubschemas and mapTree copy it as an own property', () => {
    const copied = mapSubschemas(PROTO_DOCUMENT, (child) => ({ ...child }));
    expect(protoOf(copied)).toEqual(protoOf(PROTO_DOCUMENT));
    const mapped = mapTree(PROTO_DOCUMENT, (node) => ({ ...node, seen: true }));
    expect(protoOf(protoOf(mapped))).toEqual({ type: 'string', seen: true });
  });

  test('forEachNode visits it, required', () => {
    const places: string[] = [];
    forEachNode(PROTO_DOCUMENT, (_node, { path, optional }) => places.push(`${path.join('/')} ${optional}`));
    expect(places).toEqual([
      ' false',
      'properties/__proto__ false',
      'properties/__proto__/properties/__proto__ false',
      'properties/b true',
    ]);
  });

  test('flattening and merging keep it', () => {
    const variant = (tag: string) =>
      JSON.parse(
        `{"type":"object","properties":{"kind":{"const":"${tag}"},"__proto__":{"type":"string"}},"required":["kind","__proto__"]}`,
      );
    const flat = flattenUnions({ oneOf: [variant('a'), variant('b')] });
    expect(protoOf(flat)).toEqual({ type: 'string' });
    expect(flat.required).toEqual(['kind', '__proto__']);
    const other = { type: 'object', properties: { constructor: { type: 'number' } } };
    const merged = mergeRootUnion({ anyOf: [variant('a'), other] });
    expect(protoOf(merged)).toEqual({ type: 'string', description: 'Required in form 1' });
    expect((merged.properties as Record<string, unknown>).constructor).toEqual({
      type: 'number',
      description: 'Form 2 only',
    });
    const intersected = mergeAllOf({ allOf: [variant('a'), other] });
    expect(protoOf(intersected)).toEqual({ type: 'string' });
    expect(Object.keys(intersected?.properties as object)).toEqual(['kind', '__proto__', 'constructor']);
  });

  test('draft-07 to 2020-12, reference inlining and the definition graph keep it', () => {
    const draft07 = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"$ref":"#/definitions/__proto__"}},"definitions":{"__proto__":{"type":"array","items":[{"type":"string"}]},"constructor":{"type":"string"}}}',
    ) as JsonSchema;
    const converted = draft07To202012(draft07);
    expect(protoOf(converted)).toEqual({ $ref: '#/$defs/__proto__' });
    expect(Object.hasOwn(converted.$defs as object, '__proto__')).toBe(true);
    const graph = definitionGraph(converted);
    expect(graph.targetOf('#/$defs/__proto__')).toBe('__proto__');
    expect(graph.targetOf('#/$defs/hasOwnProperty')).toBeUndefined();
    expect(inlineAcyclicReferences(converted)).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: own([['__proto__', { type: 'array', prefixItems: [{ type: 'string' }] }]]),
    });
  });

  test("the Standard adapter reports a left-out __proto__ in the converter's order, and reads no data", () => {
    // A default shaped like an object schema that requires `__proto__`: data, the user's own.
    const fallback = JSON.parse('{"required":["__proto__"],"properties":{},"k":"x"}');
    const input = toStandardJsonSchema(
      v.objectWithRest(
        {
          ['__proto__']: v.string(),
          when: v.date(),
          o: v.optional(v.object({ k: v.string() }), fallback),
        } as never,
        v.date(),
      ),
    );
    const warnings: string[] = [];
    const tool = prepareTool(defineTool({ name: 't', description: 'A tool.', input: input as never }), {
      unrepresentable: 'degrade',
      warn: (problem) => warnings.push(`${problem.field}: ${problem.message}`),
    });
    expect(warnings).toEqual([
      'input.when: Date cannot be represented in JSON Schema; shown as {}',
      'input..*: Date cannot be represented in JSON Schema; shown as {}',
      `input.__proto__: a field named "__proto__" is left out by valibot's JSON Schema converter; shown as {}`,
    ]);
    expect(protoOf(tool.inputSchema.mcp)).toEqual({});
    const { o } = tool.inputSchema.mcp.properties as Record<string, JsonSchema>;
    expect(o?.default).toEqual({ required: ['__proto__'], properties: {}, k: 'x' });
    expect(Object.isFrozen(fallback)).toBe(false);
  });

  test('the sampler writes it as an own key', () => {
    const values = documentedValues(PROTO_DOCUMENT).map((sample) => sample.value);
    expect(values.length).toBeGreaterThan(1);
    for (const value of values) {
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.hasOwn(value as object, '__proto__')).toBe(true);
    }
    expect(documentedValues(PROTO_DOCUMENT).map((sample) => sample.path)).toContainEqual([
      '__proto__',
      '__proto__',
    ]);
  });

  test('the superset proof answers null for a left-out __proto__ under openai-strict', () => {
    const input = z.object({ ['__proto__']: z.string().optional(), constructor: z.number().optional() });
    const tool = prepareTool(defineTool({ name: 't', description: 'A tool.', input }), {
      profiles: ['openai-strict'],
    });
    expect(supersetViolations(tool, [{}, own([['__proto__', 'a']]), { constructor: 1 }])).toEqual([]);
  });

  test('inspect reads it as a field', () => {
    expect(fieldRows(PROTO_DOCUMENT).map((row) => [row.depth, row.key, row.required, row.type])).toEqual([
      [0, '__proto__', true, 'object'],
      [1, '__proto__', true, 'string'],
      [0, 'b', false, 'string'],
    ]);
  });

  test('the surface diff names fields such as constructor when they come and go', () => {
    const manifestOf = (properties: Record<string, unknown>): Manifest =>
      ({
        tools: [
          {
            name: 't',
            description: 'A tool.',
            source: 'src/t.ts#t',
            inputSchema: { mcp: { type: 'object', properties } },
            digest: JSON.stringify(Object.keys(properties)),
          },
        ],
      }) as unknown as Manifest;
    const before = manifestOf({ b: { type: 'string' } });
    const after = manifestOf(
      own([
        ['constructor', { type: 'string' }],
        ['__proto__', { type: 'number' }],
      ]),
    );
    expect(describeSurfaceChanges(before, after)).toEqual([
      '~ tool t',
      '    - field b removed',
      '    + field constructor added (optional, string)',
      '    + field __proto__ added (optional, number)',
    ]);
    expect(describeSurfaceChanges(after, before)).toEqual([
      '~ tool t',
      '    - field constructor removed',
      '    - field __proto__ removed',
      '    + field b added (optional, string)',
    ]);
  });

  test('the validator of the superset proof checks a __proto__ field, and reads own keys only', () => {
    const strict = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"number"}},"required":["__proto__"],"additionalProperties":false}',
    ) as JsonSchema;
    const validate = compileDocument(strict);
    expect(validate(own([['__proto__', 'a']]))).toBe(true);
    expect(validate(own([['__proto__', 1]]))).toBe(false);
    expect(validate.errors?.[0]?.instancePath).toBe('/__proto__');
    expect(validate({})).toBe(false);
    expect(
      validate(
        own([
          ['__proto__', 'a'],
          ['constructor', 'x'],
        ]),
      ),
    ).toBe(false);
    expect(
      validate(
        own([
          ['__proto__', 'a'],
          ['other', 1],
        ]),
      ),
    ).toBe(false);
    const record = JSON.parse(
      '{"type":"object","propertyNames":{"enum":["__proto__","k"]},"additionalProperties":{"type":"number"}}',
    ) as JsonSchema;
    expect(
      compileDocument(record)(
        own([
          ['__proto__', 1],
          ['k', 2],
        ]),
      ),
    ).toBe(true);
    expect(compileDocument(record)(own([['__proto__', 'x']]))).toBe(false);
  });
});

describe('a tool named __proto__', () => {
  test("the generated module's loaders hold it as an own key", () => {
    const prepared = prepareTool(
      defineTool({ name: '__proto__', description: 'A tool.', input: z.object({}) }),
    );
    const text = emitModule(
      [{ prepared, file: 'src/tools/proto.ts', exportName: 'proto', size: toolSize(prepared) }],
      {
        modulePath: 'src/toolprep.generated.ts',
        importExtension: '.js',
        extensionKeys: [],
      },
    ).join('');
    const block = /\n {2}load: (\{\n[\s\S]*?\n {2}\}),\n/.exec(text)?.[1];
    const load = new Function(`return ${block};`)() as Record<string, unknown>;
    expect(Object.getPrototypeOf(load)).toBe(Object.prototype);
    expect(typeof getOwn(load, '__proto__')).toBe('function');
  });
});
