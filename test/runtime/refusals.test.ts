import type { AddressInfo } from 'node:net';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { prepareToolSet } from '@toolprep/build';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import fc from 'fast-check';
import { defineTool, type ToolContract } from 'toolprep';
import { runToolCli } from 'toolprep/cli';
import { serveHttp } from 'toolprep/mcp';
import { createMcpServer } from 'toolprep/mcp/server';
import { createToolRuntime, type ToolRuntime } from 'toolprep/runtime';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';
import { z as z3v3 } from 'zod325/v3';
import { propertyRuns } from '../support/property-runs.js';
import { HOSTILE_NAMES } from '../support/schema-arbitrary.js';

/**
 * Validation refusals written for the model: whatever library the contract is written with, each
 * refused field gets one message that names it and says what to send, on every surface.
 */

/** The same read_notes input in each library: a bounded path, an enum, a closed nested object. */
const READ_NOTES_INPUTS = {
  'zod 4': z.object({
    path: z.string().min(3),
    format: z.enum(['text', 'json']).optional(),
    options: z.strictObject({ depth: z.number().int().max(5) }).optional(),
  }),
  'zod 3.23': z3.object({
    path: z3.string().min(3),
    format: z3.enum(['text', 'json']).optional(),
    options: z3
      .object({ depth: z3.number().int().max(5) })
      .strict()
      .optional(),
  }),
  'zod/v3 (3.25)': z3v3.object({
    path: z3v3.string().min(3),
    format: z3v3.enum(['text', 'json']).optional(),
    options: z3v3
      .object({ depth: z3v3.number().int().max(5) })
      .strict()
      .optional(),
  }),
  ArkType: type({
    path: 'string >= 3',
    'format?': "'text' | 'json'",
    'options?': { '+': 'reject', depth: 'number.integer <= 5' },
  }),
  Valibot: toStandardJsonSchema(
    v.object({
      path: v.pipe(v.string(), v.minLength(3)),
      format: v.optional(v.picklist(['text', 'json'])),
      options: v.optional(v.strictObject({ depth: v.pipe(v.number(), v.integer(), v.maxValue(5)) })),
    }),
  ),
};
type Library = keyof typeof READ_NOTES_INPUTS;
const LIBRARY_NAMES = Object.keys(READ_NOTES_INPUTS) as Library[];

/** What each library's parser says of a path shorter than 3: kept, with the field named. */
const TOO_SHORT: Record<Library, string> = {
  'zod 4': '"path": Too small: expected string to have >=3 characters',
  'zod 3.23': '"path": String must contain at least 3 character(s)',
  'zod/v3 (3.25)': '"path": String must contain at least 3 character(s)',
  ArkType: '"path" must be at least length 3 (was 1)',
  Valibot: '"path": Invalid length: Expected >=3 but received 1',
};
/** ArkType's converter lists an enum's members in an order of its own. */
const FORMATS = (library: Library) => (library === 'ArkType' ? '"json", "text"' : '"text", "json"');

const readNotesRuntime = (library: Library): ToolRuntime =>
  createToolRuntime(
    prepareToolSet({
      readNotes: defineTool({
        name: 'read_notes',
        description: 'Read a note.',
        input: READ_NOTES_INPUTS[library] as never,
      }),
    }),
    { handlers: { read_notes: (args: unknown) => args } },
  );

async function refusal(runtime: ToolRuntime, tool: string, args: unknown): Promise<string> {
  const result = await runtime.call(tool, args);
  if (result.ok) throw new Error(`${tool} took ${JSON.stringify(args)}`);
  expect(result.error.code).toBe('VALIDATION_ERROR');
  return result.error.message;
}

describe.each(LIBRARY_NAMES)('read_notes written with %s', (library) => {
  const runtime = readNotesRuntime(library);
  test.each<[string, unknown, string]>([
    [
      'a misspelt key beside the required key it stands for',
      { file: 'a.md' },
      'did you mean "path"? "file" is not a field of read_notes',
    ],
    ['a key in another case', { Path: 'a.md' }, 'did you mean "path"? "Path" is not a field of read_notes'],
    [
      'a close optional key, named when the call fails for another reason',
      { path: 'a', formt: 'json' },
      `${TOO_SHORT[library]}; did you mean "format"? "formt" is not a field of read_notes`,
    ],
    [
      'an unknown key with no close match, named with the fields there are',
      { path: 'a', verbose: true },
      `${TOO_SHORT[library]}; "verbose" is not a field of read_notes (fields: "path", "format", "options")`,
    ],
    [
      'an undeclared key the contract itself refuses, in its own words replaced',
      { path: 'a.md', options: { depth: 2, dpeth: 3 } },
      '"options.dpeth" is not a field of read_notes (fields of "options": "depth")',
    ],
    [
      'an enum refusal, listing the members',
      { path: 'a.md', format: 'xml' },
      `"format" must be one of ${FORMATS(library)} (got "xml")`,
    ],
    ['a missing required key, with its type', { format: 'text' }, '"path" is required: a string'],
    ['a value of the wrong kind', { path: 7 }, '"path" must be a string (got 7)'],
    [
      'a nested field, by its path',
      { path: 'a.md', options: { depth: 'two' } },
      '"options.depth" must be an integer (got "two")',
    ],
    ['a nested required key', { path: 'a.md', options: {} }, '"options.depth" is required: an integer'],
    ["a bound, in the parser's own words", { path: 'a' }, TOO_SHORT[library]],
  ])('%s', async (_case, args, expected) => {
    expect(await refusal(runtime, 'read_notes', args)).toBe(`Invalid arguments: ${expected}`);
  });

  test('what the parser takes is unchanged: a stray key the contract strips is still stripped, without a word', async () => {
    const accepted = await runtime.call('read_notes', { path: 'a.md', formt: 'json' });
    expect(accepted.ok).toBe(true);
  });
});

const COLORS = Array.from({ length: 25 }, (_, index) => `c${index}`) as [string, ...string[]];
const Tree: z.ZodType = z.object({
  name: z.string(),
  get children() {
    return z.array(Tree).optional();
  },
});
/** A union that holds itself: reading what it takes must come to an end. */
const Nested: z.ZodType = z.lazy(() => z.union([z.string(), z.array(Nested)]));
const shapes = createToolRuntime(
  prepareToolSet({
    paint: defineTool({
      name: 'paint',
      description: 'Paint.',
      input: z.object({
        color: z.enum(COLORS),
        paths: z.union([z.string(), z.array(z.string())]).optional(),
        size: z.number().int().nullable().optional(),
      }),
    }),
    move: defineTool({
      name: 'move_note',
      description: 'Move a note.',
      input: z.object({ from: z.string(), to: z.string() }),
    }),
    pick: defineTool({
      name: 'pick',
      description: 'Pick a shape.',
      input: z.object({
        shape: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('circle'), radius: z.number() }),
          z.object({ kind: z.literal('square'), side: z.number() }),
        ]),
      }),
    }),
    plant: defineTool({ name: 'plant', description: 'Plant a tree.', input: z.object({ tree: Tree }) }),
    store: defineTool({ name: 'store', description: 'Store a value.', input: z.object({ value: Nested }) }),
  }),
  {
    handlers: {
      paint: () => 'ok',
      move_note: () => 'ok',
      pick: () => 'ok',
      plant: () => 'ok',
      store: () => 'ok',
    },
  },
);

test.each<[string, string, unknown, string]>([
  [
    'a long enum: twenty members, and the rest counted',
    'paint',
    { color: 'red' },
    `"color" must be one of ${COLORS.slice(0, 20)
      .map((color) => `"${color}"`)
      .join(', ')} and 5 more (got "red")`,
  ],
  [
    'a union whose parser says only "Invalid input": what each member takes',
    'paint',
    { color: 'c1', paths: [1], size: 'big' },
    '"paths" must be a string or string[] (got [1]); "size" must be an integer or null (got "big")',
  ],
  [
    'a long value, cut',
    'move_note',
    { from: 'a', to: 'x'.repeat(100).split('') },
    `"to" must be a string (got a list of 100 items)`,
  ],
  [
    'two misspelt keys, each told its closest',
    'move_note',
    { too: 'b', form: 'a' },
    'did you mean "from"? "form" is not a field of move_note; did you mean "to"? "too" is not a field of move_note',
  ],
  [
    'a key named like a prototype member is no field',
    'move_note',
    JSON.parse('{"__proto__": "a", "to": "b"}'),
    'did you mean "from"? "__proto__" is not a field of move_note',
  ],
  [
    'a tag of a flattened union, with its members',
    'pick',
    { shape: { kind: 'triangle' } },
    '"shape.kind" must be one of "circle", "square" (got "triangle")',
  ],
  [
    "a variant's required key, in the flattened document",
    'pick',
    { shape: { kind: 'circle' } },
    '"shape.radius" is required: a number',
  ],
  [
    'a key inside a recursive schema, through its reference',
    'plant',
    { tree: { name: 'oak', children: [{ name: 'elm', children: [{}] }] } },
    '"tree.children.0.children.0.name" is required: a string',
  ],
  [
    'a list of a recursive schema, by what it is',
    'plant',
    { tree: { name: 'oak', children: 'elm' } },
    '"tree.children" must be object[] (got "elm")',
  ],
])('%s', async (_case, tool, args, expected) => {
  expect(await refusal(shapes, tool, args)).toBe(`Invalid arguments: ${expected}`);
});

test('a union that holds itself is read to an end', async () => {
  expect(await refusal(shapes, 'store', { value: ['a', { b: 1 }] })).toMatch(
    /^Invalid arguments: "value" must be a string or .+\[\] \(got \["a",\{"b":1\}\]\)$/,
  );
});

test('the issues are the refusals: one per field, each with its path and its message', async () => {
  const result = await readNotesRuntime('zod 4').call('read_notes', { file: 'a.md', format: 'xml' });
  expect(result).toEqual({
    ok: false,
    error: {
      code: 'VALIDATION_ERROR',
      message:
        'Invalid arguments: did you mean "path"? "file" is not a field of read_notes; "format" must be one of "text", "json" (got "xml")',
      issues: [
        { path: ['path'], message: 'did you mean "path"? "file" is not a field of read_notes' },
        { path: ['format'], message: '"format" must be one of "text", "json" (got "xml")' },
      ],
    },
  });
});

test('extension keys the documents do not show are no stray keys', async () => {
  const extend = z.object({ tenant: z.string() });
  const runtime = createToolRuntime(
    prepareToolSet(
      { move: defineTool({ name: 'move_note', description: 'Move.', input: z.object({ to: z.string() }) }) },
      { extend: { schema: extend, advertise: false } },
    ),
    { handlers: { move_note: () => 'ok' }, extend: { schema: extend } },
  );
  expect(await refusal(runtime, 'move_note', { tenant: 'acme', to: 1 })).toBe(
    'Invalid arguments: "to" must be a string (got 1)',
  );
});

test('any declared name, hostile ones too, is what a lone stray key beside it is taken for', async () => {
  const name = fc.oneof(fc.constantFrom(...HOSTILE_NAMES), fc.string({ maxLength: 12 }));
  // Zod 4's parser never checks a field named `__proto__` (it takes any object): no refusal to word.
  const declaredName = name.filter((declared) => declared !== '__proto__');
  await fc.assert(
    fc.asyncProperty(
      fc.tuple(declaredName, name).filter(([declared, sent]) => declared !== sent),
      async ([declared, sent]) => {
        const tool: ToolContract = defineTool({
          name: 'tool',
          description: 'A tool.',
          input: z.object({ [declared]: z.string() }),
        });
        const runtime = createToolRuntime(prepareToolSet({ tool }), { handlers: { tool: () => 'ok' } });
        // A computed key is an own property, `__proto__` included.
        expect(await refusal(runtime, 'tool', { [sent]: 'x' })).toBe(
          `Invalid arguments: did you mean "${declared}"? "${sent}" is not a field of tool`,
        );
      },
    ),
    { numRuns: propertyRuns(100) },
  );
});

describe('on every surface, the same words', () => {
  const runtime = readNotesRuntime('zod 4');
  const MISSPELT = 'Invalid arguments: did you mean "path"? "file" is not a field of read_notes';
  const texts = (result: unknown) =>
    (result as { content: { text: string }[] }).content.map((part) => part.text).join('\n');
  let url: string;
  let close: () => void;
  beforeAll(async () => {
    const server = await serveHttp(runtime, { name: 'notes', version: '1.0.0' }, 0);
    url = `http://localhost:${(server.address() as AddressInfo).port}/mcp`;
    close = () => server.close();
  });
  afterAll(() => close?.());

  test('MCP 2025, the SDK v1 client: a tool result with isError', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(runtime, { name: 'notes', version: '1.0.0' }).connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    const result = await client.callTool({ name: 'read_notes', arguments: { file: 'a.md' } });
    expect(result.isError).toBe(true);
    expect(texts(result)).toBe(MISSPELT);
    await client.close();
  });

  test('MCP 2026-07-28, the SDK v2 client: a tool result with isError', async () => {
    const client = new ClientV2(
      { name: 'test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const result = await client.callTool({
      name: 'read_notes',
      arguments: { path: 'a.md', format: 'xml' },
    });
    expect(result.isError).toBe(true);
    expect(texts(result)).toBe('Invalid arguments: "format" must be one of "text", "json" (got "xml")');
    await client.close();
  });

  test('the shell CLI: on stderr, exit code 1', async () => {
    const stderr: string[] = [];
    const code = await runToolCli(runtime, ['read_notes', '--json', '{"file":"a.md"}'], {
      stdout: () => undefined,
      stderr: (text) => stderr.push(text),
    });
    expect({ code, stderr }).toEqual({ code: 1, stderr: [MISSPELT] });
  });
});
