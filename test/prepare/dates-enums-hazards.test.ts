import { type PreparedTool, type PrepareToolOptions, type Problem, prepareTool } from '@toolprep/build';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import fc from 'fast-check';
import { defineTool } from 'toolprep';
import * as v from 'valibot';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { z as z3 } from 'zod3';
import { z as z3v3 } from 'zod325/v3';
import * as z325v4 from 'zod325/v4';
import { compileSchema } from '../support/ajv.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';
import { propertyRuns } from '../support/property-runs.js';
import type { ZodNamespace } from '../support/schema-arbitrary.js';
import { LIBRARIES } from '../support/schema-libraries.js';

/** The tool of one input schema, with the warnings it gave. */
function prepare(
  input: unknown,
  options: PrepareToolOptions = {},
): { tool: PreparedTool; warnings: Problem[] } {
  const warnings: Problem[] = [];
  const tool = prepareTool(defineTool({ name: 'tool', description: 'A tool.', input: input as never }), {
    warn: (problem) => warnings.push(problem),
    ...options,
  });
  return { tool, warnings };
}

/** A field's schema in both documents, each of which Ajv compiles. */
function presented(tool: PreparedTool, field: string): unknown[] {
  return [tool.inputSchema.mcp, tool.inputSchema.agent].map((document) => {
    compileSchema(document);
    return (document.properties as Record<string, unknown>)[field];
  });
}

const DATE_TIME = { type: 'string', format: 'date-time' };

type AnyObject = (shape: Record<string, unknown>) => { parse(value: unknown): unknown };

/** A Zod copy's API, as these cases use it. */
interface ZodCopy {
  readonly library: string;
  readonly object: AnyObject;
  coercedDate(): unknown;
  date(): unknown;
  string(): unknown;
}

const zodCopy = (library: string, zod: ZodNamespace): ZodCopy => ({
  library,
  object: zod.object,
  coercedDate: () => zod.coerce.date(),
  date: () => zod.date(),
  string: () => zod.string(),
});

const ZODS: readonly ZodCopy[] = [
  zodCopy('zod 4', z),
  zodCopy('zod 4 mini', zm),
  zodCopy('zod 3.25 zod/v4', z325v4),
  zodCopy('zod 3.23', z3),
  zodCopy('zod 3.25 zod/v3', z3v3),
];

describe('a coerced date is presented as the date-time text it is given', () => {
  test.each(ZODS)('$library: shown as text on the input side, its plan and parse as they were', (zod) => {
    const { object } = zod;
    const input = object({ since: zod.coercedDate() });
    const { tool, warnings } = prepare(input);
    expect(presented(tool, 'since')).toEqual([DATE_TIME, DATE_TIME]);
    expect(warnings).toEqual([]);
    // A position the plan does nothing for, as a string's.
    expect(tool.plan).toEqual(prepare(object({ since: zod.string() })).tool.plan);
    expect(input.parse({ since: '2026-01-01T00:00:00Z' })).toEqual({
      since: new Date('2026-01-01T00:00:00Z'),
    });
  });

  test.each(ZODS)('$library: its output side, a Date, is still not shown', (zod) => {
    const { object } = zod;
    const warnings: Problem[] = [];
    const tool = prepareTool(
      defineTool({
        name: 'tool',
        description: 'A tool.',
        input: object({ q: zod.string() }) as never,
        output: object({ at: zod.coercedDate() }) as never,
      }),
      { warn: (problem) => warnings.push(problem) },
    );
    expect(tool.outputSchema).toBeUndefined();
    expect(warnings).toMatchObject([
      {
        code: 'output-not-shown',
        field: 'output.at',
        message: expect.stringMatching(/^Date cannot be represented/),
      },
    ]);
  });

  test.each(ZODS)('$library: a plain date is still refused', (zod) => {
    const { object } = zod;
    expect(() => prepare(object({ at: zod.date() }))).toThrow(
      /tool "tool", input\.at: Date cannot be represented in JSON Schema/,
    );
  });

  test('its description and a null it takes are kept', () => {
    const { tool } = prepare(z.object({ at: z.coerce.date().describe('When').nullable().optional() }));
    expect(presented(tool, 'at')).toEqual(
      Array(2).fill({ anyOf: [{ ...DATE_TIME, description: 'When' }, { type: 'null' }] }),
    );
    const zod3 = prepare(z3.object({ at: z3.coerce.date().describe('When') })).tool;
    expect(presented(zod3, 'at')).toEqual(Array(2).fill({ ...DATE_TIME, description: 'When' }));
  });

  test.each([
    [
      'Valibot, pipe(string(), isoTimestamp(), toDate()): its converter writes the same',
      toStandardJsonSchema(v.object({ since: v.pipe(v.string(), v.isoTimestamp(), v.toDate()) })),
      DATE_TIME,
    ],
    // ArkType's converter shows a morph by what it takes, a string (with the ISO pattern for
    // `string.date.iso.parse`); its hook for a morph does not say what the morph gives.
    ['ArkType, string.date.iso.parse', type({ since: 'string.date.iso.parse' }), { type: 'string' }],
    ['ArkType, string.date.parse', type({ since: 'string.date.parse' }), { type: 'string' }],
  ])('%s', (_case, input, expected) => {
    for (const shown of presented(prepare(input).tool, 'since')) expect(shown).toMatchObject(expected);
  });
});

const NOTHING = { not: {} };

describe('an empty enum is presented as a schema that takes nothing, which every validator compiles', () => {
  test.each([
    ['zod 4', z.object({ e: z.enum([]) })],
    ['zod 4 mini', zm.object({ e: zm.enum([]) })],
    ['zod 3.23', z3.object({ e: z3.enum([] as unknown as [string]) })],
    ['zod 3.25 zod/v3', z3v3.object({ e: z3v3.enum([] as unknown as [string]) })],
    ['zod 3.23 native enum', z3.object({ e: z3.nativeEnum({}) })],
  ])('%s', (_case, input) => {
    expect(presented(prepare(input).tool, 'e')).toEqual([NOTHING, NOTHING]);
  });

  test('a description is kept', () => {
    const input = z3.object({ e: z3.enum([] as unknown as [string]).describe('None yet') });
    expect(presented(prepare(input).tool, 'e')).toEqual(
      Array(2).fill({ ...NOTHING, description: 'None yet' }),
    );
  });

  // Valibot's converter writes `{ enum: [], type: "string" }` and ArkType's `{ enum: [] }` (its
  // `never`), which Ajv refuses: brought to `{ not: {} }` as Zod's.
  test.each([
    ['Valibot, picklist([])', toStandardJsonSchema(v.object({ e: v.picklist([]) }))],
    ['ArkType, type.enumerated()', type({ e: type.enumerated() })],
  ])('%s', (_case, input) => {
    expect(presented(prepare(input).tool, 'e')).toEqual([NOTHING, NOTHING]);
  });
});

const NULLABLE_X = { type: ['string', 'null'], enum: ['x', null] };
const NULLABLE_AB = { type: ['string', 'null'], enum: ['a', 'b', null] };
const NULLABLE_3 = { type: ['number', 'null'], enum: [3, null] };

describe('a nullable literal or enum is one type list with an enum, no anyOf', () => {
  test.each([
    [
      'zod 4',
      z.object({
        l: z.literal('x').nullable(),
        e: z.enum(['a', 'b']).nullable(),
        n: z.literal(3).nullable(),
      }),
    ],
    [
      'zod 4 mini',
      zm.object({
        l: zm.nullable(zm.literal('x')),
        e: zm.nullable(zm.enum(['a', 'b'])),
        n: zm.nullable(zm.literal(3)),
      }),
    ],
    [
      'zod 3.23',
      z3.object({
        l: z3.literal('x').nullable(),
        e: z3.enum(['a', 'b']).nullable(),
        n: z3.literal(3).nullable(),
      }),
    ],
    [
      'zod 3.25 zod/v3',
      z3v3.object({
        l: z3v3.literal('x').nullable(),
        e: z3v3.enum(['a', 'b']).nullable(),
        n: z3v3.literal(3).nullable(),
      }),
    ],
    [
      'Valibot',
      toStandardJsonSchema(
        v.object({
          l: v.nullable(v.literal('x')),
          e: v.nullable(v.picklist(['a', 'b'])),
          n: v.nullable(v.literal(3)),
        }),
      ),
    ],
    ['ArkType', type({ l: "'x' | null", e: "'a' | 'b' | null", n: '3 | null' })],
  ])('%s', (_case, input) => {
    const { tool } = prepare(input);
    expect(presented(tool, 'l')).toEqual([NULLABLE_X, NULLABLE_X]);
    expect(presented(tool, 'e')).toEqual([NULLABLE_AB, NULLABLE_AB]);
    expect(presented(tool, 'n')).toEqual([NULLABLE_3, NULLABLE_3]);
  });

  test.each([
    // Two kinds of value: no one `[T, "null"]` says them.
    [
      'values of two kinds',
      z.literal(['a', 1]).nullable(),
      { anyOf: [{ enum: ['a', 1] }, { type: 'null' }] },
    ],
    // A member that says more than its values keeps its union, its words where it put them.
    [
      'a described member',
      z.literal('x').describe('X').nullable(),
      { anyOf: [{ type: 'string', const: 'x', description: 'X' }, { type: 'null' }] },
    ],
  ])('kept as a union: %s', (_case, field, expected) => {
    expect(presented(prepare(z.object({ f: field })).tool, 'f')).toEqual([expected, expected]);
  });

  test('annotations on the union stay; with flatten: false the converter’s union stays', () => {
    const field = z.enum(['a', 'b']).nullable().describe('Mode');
    expect(presented(prepare(z.object({ f: field })).tool, 'f')).toEqual(
      Array(2).fill({ ...NULLABLE_AB, description: 'Mode' }),
    );
    expect(presented(prepare(z.object({ f: field }), { flatten: false }).tool, 'f')).toEqual(
      Array(2).fill({ anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }], description: 'Mode' }),
    );
  });

  test('the profiles that take a type list keep it, with its enum', () => {
    const { tool } = prepare(z.object({ mode: z.enum(['a', 'b']).nullable() }), {
      profiles: ['openai-strict', 'anthropic-strict', 'gemini-openapi'],
    });
    const modeOf = (profile: 'openai-strict' | 'anthropic-strict' | 'gemini-openapi') =>
      (tool.profiles?.[profile]?.inputSchema.properties as Record<string, unknown> | undefined)?.mode;
    expect(modeOf('openai-strict')).toEqual(NULLABLE_AB);
    expect(modeOf('anthropic-strict')).toEqual(NULLABLE_AB);
    expect(modeOf('gemini-openapi')).toEqual({ type: 'string', enum: ['a', 'b'], nullable: true });
  });

  // Gemini's enum takes values of one kind: the profile writes `null` as a member of its own, so
  // `["a", "b"]` stays an enum (not prose in the description).
  test('the gemini profile keeps a nullable enum’s values as an enum', () => {
    const { tool } = prepare(z.object({ mode: z.enum(['a', 'b']).nullable() }), { profiles: ['gemini'] });
    expect(JSON.stringify(tool.profiles?.gemini?.inputSchema)).toContain('"enum":["a","b"]');
  });

  const RUNS = propertyRuns(100);
  const nullableValues = fc.oneof(
    fc.uniqueArray(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 4 }).map((values) => ({
      kind: 'enum' as const,
      values,
    })),
    fc
      .oneof(
        fc.string({ maxLength: 4 }),
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
      )
      .filter((value) => !Object.is(value, -0))
      .map((value) => ({ kind: 'literal' as const, value })),
  );
  const probe = fc.oneof(fc.constant(null), fc.string({ maxLength: 4 }), fc.integer(), fc.boolean());

  test.each(LIBRARIES)(
    `$name: the document takes exactly what the parser takes (${RUNS} random nullable literals and enums)`,
    (library) => {
      fc.assert(
        fc.property(nullableValues, fc.array(probe, { maxLength: 6 }), (inner, probes) => {
          const input = library.build({
            kind: 'object',
            mode: 'strip',
            fields: [{ name: 'f', optional: false, spec: { kind: 'nullable', inner } }],
          });
          fc.pre(input !== undefined);
          const { tool } = prepare(input);
          const listed = inner.kind === 'enum' ? inner.values : [inner.value];
          for (const document of [tool.inputSchema.mcp, tool.inputSchema.agent]) {
            expect((document.properties as Record<string, { anyOf?: unknown }>).f?.anyOf).toBeUndefined();
            const validate = compileSchema(document);
            for (const value of [...listed, ...probes]) {
              const accepted = library.accepts(input, { f: value });
              fc.pre(accepted !== undefined);
              expect(validate({ f: value })).toBe(accepted);
            }
          }
        }),
        { numRuns: RUNS },
      );
    },
  );
});

const BOOLEAN_HAZARD = {
  severity: 'warning',
  code: 'coercion-hazard',
  message: 'z.coerce.boolean() reads every non-empty string as true: "false" is true',
  hint: 'use z.boolean(): toolprep turns "false" into false before the parser runs',
};
const NUMBER_HAZARD = {
  severity: 'warning',
  code: 'coercion-hazard',
  message: 'z.coerce.number() reads "" as 0 where the key may be left out',
  hint: 'use z.number(): toolprep turns "42" into 42 before the parser runs, and "" is refused',
};

describe('a parser known to misread model output is a warning, naming the tool and the field', () => {
  const zodHazards = (zod: ZodNamespace) =>
    zod.object({
      force: zod.coerce.boolean(),
      limit: zod.coerce.number().optional(),
      page: zod.coerce.number().default(1),
      count: zod.coerce.number(),
      plain: zod.boolean(),
      flags: zod.object({ dry: zod.coerce.boolean().optional() }),
      each: zod.array(zod.coerce.boolean()),
      either: zod.union([zod.coerce.boolean(), zod.string()]),
    });
  const ZOD_FOUND = [
    { ...BOOLEAN_HAZARD, field: 'input.force' },
    { ...NUMBER_HAZARD, field: 'input.limit' },
    { ...NUMBER_HAZARD, field: 'input.page' },
    { ...BOOLEAN_HAZARD, field: 'input.flags.dry' },
    { ...BOOLEAN_HAZARD, field: 'input.each[]' },
    { ...BOOLEAN_HAZARD, field: 'input.either' },
  ].map((problem) => ({ tool: 'tool', ...problem }));

  test.each([
    ['zod 4', zodHazards(z)],
    ['zod 3.23', zodHazards(z3)],
    ['zod 3.25 zod/v3', zodHazards(z3v3)],
  ])('%s: z.coerce.boolean() anywhere, z.coerce.number() where the key may be left out', (_case, input) => {
    expect(prepare(input).warnings).toEqual(ZOD_FOUND);
  });

  test('zod 4 mini, and params as well as input', () => {
    const warnings: Problem[] = [];
    prepareTool(
      defineTool({
        name: 'tool',
        description: 'A tool.',
        params: zm.object({ verbose: zm.coerce.boolean() }),
        input: zm.object({ size: zm.optional(zm.coerce.number()) }),
      }),
      { warn: (problem) => warnings.push(problem) },
    );
    expect(warnings).toEqual([
      { tool: 'tool', ...NUMBER_HAZARD, field: 'input.size' },
      { tool: 'tool', ...BOOLEAN_HAZARD, field: 'params.verbose' },
    ]);
  });

  test('Valibot: toBoolean() anywhere, toNumber() where the key may be left out; parseBoolean() is safe', () => {
    const input = toStandardJsonSchema(
      v.object({
        force: v.pipe(v.string(), v.toBoolean()),
        limit: v.optional(v.pipe(v.string(), v.toNumber())),
        count: v.pipe(v.string(), v.toNumber()),
        safe: v.pipe(v.string(), v.parseBoolean()),
        each: v.array(v.nullish(v.pipe(v.unknown(), v.toBoolean()))),
      }),
    );
    expect(prepare(input).warnings).toEqual([
      {
        tool: 'tool',
        severity: 'warning',
        code: 'coercion-hazard',
        field: 'input.force',
        message: 'v.toBoolean() reads every non-empty string as true: "false" is true',
        hint: 'use v.boolean(): toolprep turns "false" into false before the parser runs',
      },
      {
        tool: 'tool',
        severity: 'warning',
        code: 'coercion-hazard',
        field: 'input.limit',
        message: 'v.toNumber() reads "" as 0 where the key may be left out',
        hint: 'use v.number(): toolprep turns "42" into 42 before the parser runs, and "" is refused',
      },
      {
        tool: 'tool',
        severity: 'warning',
        code: 'coercion-hazard',
        field: 'input.each[]',
        message: 'v.toBoolean() reads every non-empty string as true: "false" is true',
        hint: 'use v.boolean(): toolprep turns "false" into false before the parser runs',
      },
    ]);
  });

  test('ArkType: its parsing keywords refuse what they cannot read ("" is no number), so none', () => {
    const input = type({
      'limit?': 'string.numeric.parse',
      'page?': 'string.integer.parse',
      since: 'string.date.parse',
    });
    expect(prepare(input).warnings).toEqual([]);
    expect(input({ limit: '' })).toBeInstanceOf(type.errors);
  });

  test('the parsers misread as the warnings say', () => {
    expect(z.object({ force: z.coerce.boolean() }).parse({ force: 'false' })).toEqual({ force: true });
    expect(z.object({ limit: z.coerce.number().optional() }).parse({ limit: '' })).toEqual({ limit: 0 });
    expect(v.parse(v.pipe(v.string(), v.toBoolean()), 'false')).toBe(true);
  });

  test('with the repair turned off, the hint says to turn it back on', () => {
    const { warnings } = prepare(z.object({ force: z.coerce.boolean() }), { repairs: { scalarText: false } });
    expect(warnings).toEqual([
      {
        tool: 'tool',
        ...BOOLEAN_HAZARD,
        field: 'input.force',
        hint: `${BOOLEAN_HAZARD.hint}, once repairs.scalarText is turned back on`,
      },
    ]);
  });

  test('a recursive schema is walked once, not again through itself', () => {
    const Node: z.ZodType = z.object({
      on: z.coerce.boolean(),
      get children() {
        return z.array(Node).optional();
      },
    });
    expect(prepare(z.object({ root: Node, other: Node })).warnings.map((problem) => problem.field)).toEqual([
      'input.root.on',
      'input.other.on',
    ]);
  });
});

describe('the CLI names the file, the tool and the field of a misreading parser', () => {
  const projects: FixtureProject[] = [];
  afterEach(() => {
    for (const project of projects.splice(0)) project.remove();
  });

  test('toolprep generate warns, and still writes the tool', () => {
    const project = copyFixture('project');
    projects.push(project);
    project.write(
      'src/tools/flags.ts',
      [
        "import { defineTool } from 'toolprep';",
        "import { z } from 'zod';",
        '',
        'export const setFlag = defineTool({',
        "  name: 'set_flag',",
        "  description: 'Set a flag.',",
        '  input: z.object({ name: z.string(), force: z.coerce.boolean() }),',
        '});',
        '',
      ].join('\n'),
    );
    const generated = project.cli('generate');
    expect(generated.status).toBe(0);
    expect(generated.stderr).toContain(
      '[toolprep] warning: src/tools/flags.ts:4 tool "set_flag", input.force: z.coerce.boolean() reads every non-empty string as true: "false" is true (use z.boolean(): toolprep turns "false" into false before the parser runs)\n',
    );
    expect(
      JSON.parse(project.read('toolprep.manifest.json')).tools.map((tool: { name: string }) => tool.name),
    ).toContain('set_flag');
  });
});
