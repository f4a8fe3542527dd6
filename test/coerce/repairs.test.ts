import type { AddressInfo } from 'node:net';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { prepareTool, prepareToolSet } from '@toolprep/build';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import fc from 'fast-check';
import { coerceJsonArgs, defineTool } from 'toolprep';
import { aiTools } from 'toolprep/ai';
import { runAnthropicToolUse } from 'toolprep/anthropic';
import { runToolCli } from 'toolprep/cli';
import { runGeminiFunctionCall } from 'toolprep/gemini';
import { serveHttp } from 'toolprep/mcp';
import { createMcpServer } from 'toolprep/mcp/server';
import { runChatToolCall } from 'toolprep/openai';
import { createToolRuntime } from 'toolprep/runtime';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z as z4 } from 'zod';
import { z as z3 } from 'zod3';
import { z as z3v3 } from 'zod325/v3';
import { describePlan } from '../../src/manifest/plan-text.js';
import { acceptsAtOf, coerceBothWays } from '../support/coerce.js';
import { walkGenerated } from '../support/generated-walk.js';
import { PROPERTY_TIMEOUT, propertyRuns } from '../support/property-runs.js';
import { sampleOf, type ZodNamespace } from '../support/schema-arbitrary.js';
import { LIBRARIES as LIBRARIES_UNDER_TEST } from '../support/schema-libraries.js';

/**
 * The repairs beyond the seeds' rule (decision 0029): each turns a value the contract's parser
 * would refuse into the one value it would accept, and leaves every value the parser accepts as
 * it is. Each row runs the compiled plan and the run-time reference, which must agree.
 */

interface Row {
  readonly name: string;
  readonly input: unknown;
  readonly args: unknown;
  /** What the repairs give; absent: the arguments unchanged. */
  readonly repaired?: unknown;
}
const row = (name: string, input: unknown, args: unknown, repaired?: unknown): Row => ({
  name,
  input,
  args,
  ...(repaired === undefined ? {} : { repaired }),
});

/** The rows, written with a Zod namespace: Zod 4, Zod 3.23 and zod/v3 alike. */
function zodRows(z: ZodNamespace): Row[] {
  return [
    // scalarText
    row('"true" where only a boolean is taken', z.object({ b: z.boolean() }), { b: 'true' }, { b: true }),
    row('"false" where only a boolean is taken', z.object({ b: z.boolean() }), { b: 'false' }, { b: false }),
    row('"42" where only a number is taken', z.object({ n: z.number() }), { n: '42' }, { n: 42 }),
    row('"-1.5e2" where only a number is taken', z.object({ n: z.number() }), { n: '-1.5e2' }, { n: -150 }),
    row('"1e400" is no finite number: left to the parser', z.object({ n: z.number() }), { n: '1e400' }),
    row('"ten" is no JSON number: left to the parser', z.object({ n: z.number() }), { n: 'ten' }),
    row('"" is no number: left to the parser', z.object({ n: z.number().optional() }), { n: '' }),
    row('"42" where a string is taken stays a string', z.object({ id: z.union([z.string(), z.number()]) }), {
      id: '42',
    }),
    row('"true" beside a string member stays a string', z.object({ v: z.union([z.string(), z.boolean()]) }), {
      v: 'true',
    }),
    row(
      '"7" where a number or a boolean is taken',
      z.object({ v: z.union([z.number(), z.boolean()]) }),
      { v: '7' },
      { v: 7 },
    ),
    row('"42" for the literal 42', z.object({ n: z.literal(42) }), { n: '42' }, { n: 42 }),
    row('"null" where null is taken beside a number stays text', z.object({ n: z.number().nullable() }), {
      n: 'null',
    }),
    row(
      'z.coerce.boolean() takes "false" as it is (its parser reads true)',
      z.object({ b: z.coerce.boolean() }),
      {
        b: 'false',
      },
    ),
    row('z.coerce.number() takes "42" as it is', z.object({ n: z.coerce.number() }), { n: '42' }),
    row('a catch takes "42" (its fallback): left to it', z.object({ n: z.number().catch(0) }), { n: '42' }),
    row('inside a list', z.object({ ns: z.array(z.number()) }), { ns: ['1', 2, '3'] }, { ns: [1, 2, 3] }),
    // nullAbsent
    row(
      'null for an optional key that takes no null',
      z.object({ a: z.string().optional() }),
      { a: null },
      {},
    ),
    row('null for a required key: left to the parser', z.object({ a: z.string() }), { a: null }),
    row('null for a key that takes null stays', z.object({ a: z.string().nullable().optional() }), {
      a: null,
    }),
    row(
      'null for a defaulted key',
      z.object({ a: z.number().default(3), b: z.string() }),
      { a: null, b: 'x' },
      { b: 'x' },
    ),
    // loneValue
    row(
      'one string where only a list is taken',
      z.object({ tags: z.array(z.string()) }),
      { tags: 'foo' },
      { tags: ['foo'] },
    ),
    row(
      'one number where only a list is taken',
      z.object({ ns: z.array(z.number()) }),
      { ns: 3 },
      { ns: [3] },
    ),
    row(
      'one number as text, where only a list of numbers is taken',
      z.object({ ns: z.array(z.number()) }),
      { ns: '3' },
      {
        ns: [3],
      },
    ),
    row(
      'one object where only a list of objects is taken',
      z.object({ rows: z.array(z.object({ x: z.number() })) }),
      { rows: { x: 1 } },
      { rows: [{ x: 1 }] },
    ),
    row('a truncated list is not one value: left to the parser', z.object({ tags: z.array(z.string()) }), {
      tags: '["a"',
    }),
    row(
      'a list that takes at least two: left to the parser',
      z.object({ tags: z.array(z.string()).min(2) }),
      {
        tags: 'foo',
      },
    ),
    row('one value the element refuses: left to the parser', z.object({ ns: z.array(z.number()) }), {
      ns: 'x',
    }),
    row(
      'one value where a string or a list is taken stays',
      z.object({ p: z.union([z.string(), z.array(z.string())]) }),
      {
        p: 'a.png',
      },
    ),
    row('null is no one value', z.object({ tags: z.array(z.string()) }), { tags: null }),
    // caseFold
    row(
      'an enum member in another case',
      z.object({ color: z.enum(['Dark Blue', 'Light Green']) }),
      { color: 'dark blue' },
      { color: 'Dark Blue' },
    ),
    row(
      'a literal in another case where a union of literals and null is taken',
      z.object({ switch: z.union([z.literal('on'), z.literal('off'), z.null()]) }),
      { switch: 'ON' },
      { switch: 'on' },
    ),
    row(
      'beside a union member that takes other strings: left to the parser',
      z.object({ switch: z.union([z.literal('on'), z.string().startsWith('x')]) }),
      { switch: 'ON' },
    ),
    row('members one ignoring case fold nothing', z.object({ c: z.enum(['a', 'A']) }), { c: 'A ' }),
    row('no member in any case: left to the parser', z.object({ c: z.enum(['dark', 'light']) }), {
      c: 'blue',
    }),
  ];
}

const LIBRARIES: { readonly name: string; readonly rows: Row[] }[] = [
  { name: 'zod 4', rows: zodRows(z4) },
  { name: 'zod 3.23', rows: zodRows(z3 as unknown as ZodNamespace) },
  { name: 'zod/v3 (3.25)', rows: zodRows(z3v3 as unknown as ZodNamespace) },
  {
    name: 'ArkType',
    rows: [
      row('"true" for a boolean', type({ b: 'boolean' }), { b: 'true' }, { b: true }),
      row('"42" for a number', type({ n: 'number' }), { n: '42' }, { n: 42 }),
      row('"42" beside a string stays', type({ v: 'string | number' }), { v: '42' }),
      row('null for an optional key', type({ 'a?': 'string' }), { a: null }, {}),
      row('one string for a list', type({ tags: 'string[]' }), { tags: 'foo' }, { tags: ['foo'] }),
      row(
        'an enum in another case',
        type({ c: "'Dark Blue' | 'Light Green'" }),
        { c: 'light green' },
        { c: 'Light Green' },
      ),
      row(
        'an enum in another case beside null',
        type({ c: "'on' | 'off' | null" }),
        { c: 'OFF' },
        { c: 'off' },
      ),
    ],
  },
  {
    name: 'Valibot',
    rows: [
      row(
        '"true" for a boolean',
        toStandardJsonSchema(v.object({ b: v.boolean() })),
        { b: 'true' },
        { b: true },
      ),
      row('"42" for a number', toStandardJsonSchema(v.object({ n: v.number() })), { n: '42' }, { n: 42 }),
      row(
        'null for an optional key',
        toStandardJsonSchema(v.object({ a: v.optional(v.string()) })),
        { a: null },
        {},
      ),
      row(
        'one string for a list',
        toStandardJsonSchema(v.object({ tags: v.array(v.string()) })),
        { tags: 'foo' },
        { tags: ['foo'] },
      ),
      row(
        'an enum in another case',
        toStandardJsonSchema(v.object({ c: v.picklist(['Dark Blue', 'Light Green']) })),
        { c: 'DARK BLUE' },
        { c: 'Dark Blue' },
      ),
    ],
  },
];

describe.each(LIBRARIES)('repairs: $name', ({ rows }) => {
  test.each(rows)('$name', ({ input, args, repaired }) => {
    expect(coerceBothWays(input, args)).toEqual({ value: repaired ?? args });
  });
});

describe('each repair can be turned off', () => {
  const input = z4.object({
    b: z4.boolean(),
    a: z4.string().optional(),
    tags: z4.array(z4.string()),
    c: z4.enum(['Dark', 'Light']),
  });
  const args = { b: 'true', a: null, tags: 'foo', c: 'dark' };
  test.each([
    ['scalarText', { a: undefined, tags: ['foo'], c: 'Dark', b: 'true' }],
    ['nullAbsent', { b: true, a: null, tags: ['foo'], c: 'Dark' }],
    ['loneValue', { b: true, tags: 'foo', c: 'Dark' }],
    ['caseFold', { b: true, tags: ['foo'], c: 'dark' }],
  ] as const)('repairs: { %s: false }', (off, expected) => {
    const on = (['scalarText', 'nullAbsent', 'loneValue', 'caseFold'] as const).filter((one) => one !== off);
    const prepared = prepareTool(defineTool({ name: 't', description: 'd', input }), {
      repairs: { [off]: false },
    });
    expect(prepared.plan.repairs).toEqual(on);
    const viaPlan = walkGenerated(prepared.plan, args, { acceptsAt: acceptsAtOf(input) });
    const viaReference = coerceJsonArgs(args, input, { repairs: on });
    const { a: _a, ...withoutA } = expected as Record<string, unknown>;
    const want = off === 'nullAbsent' ? expected : withoutA;
    expect(viaPlan).toEqual(want);
    expect(viaReference).toEqual(want);
  });

  test('the plan in words says what each position repairs', () => {
    const prepared = prepareTool(defineTool({ name: 't', description: 'd', input }));
    expect(describePlan(prepared.plan)).toEqual([
      'the arguments: an object sent as JSON text is parsed',
      'a: null is taken as left out',
      'b: true or false sent as text is taken as that boolean',
      'tags: an array sent as JSON text is parsed; one value sent alone is taken as a one-item list',
      'c: a value in another case takes its member’s case',
    ]);
  });
});

/** The calls models send, as the issue trackers report them, through the runtime and over MCP. */
describe('what models send, through the runtime and over MCP with the official clients', () => {
  const received: unknown[] = [];
  const alerts = defineTool({
    name: 'set_alerts',
    description: 'Set alerts.',
    input: z4.object({
      delete_all: z4.boolean(),
      limit: z4.number().int().optional(),
      tags: z4.array(z4.string()).optional(),
      color: z4.enum(['Dark Blue', 'Light Green']).optional(),
      note: z4.string().optional(),
    }),
  });
  // Prepared for the provider surfaces' profiles too: each sends the tool as its profile shows it.
  const runtime = createToolRuntime(
    prepareToolSet({ alerts }, { profiles: ['openai-strict', 'anthropic', 'gemini'], warn: () => {} }),
    {
      handlers: {
        set_alerts: (args: unknown) => {
          received.push(args);
          return 'ok';
        },
      },
    },
  );
  const sent = { delete_all: 'false', limit: '10', tags: 'urgent', color: 'dark blue', note: null };
  const meant = { delete_all: false, limit: 10, tags: ['urgent'], color: 'Dark Blue' };
  let url: string;
  let close: () => void;
  beforeAll(async () => {
    const server = await serveHttp(runtime, { name: 'alerts', version: '1.0.0' }, 0);
    url = `http://localhost:${(server.address() as AddressInfo).port}/mcp`;
    close = () => server.close();
  });
  afterAll(() => close?.());

  test('the runtime', async () => {
    received.length = 0;
    const result = await runtime.call('set_alerts', sent);
    expect(result).toMatchObject({ ok: true });
    expect(received).toEqual([meant]);
  });

  test('MCP 2025 (SDK v1 client)', async () => {
    received.length = 0;
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(runtime, { name: 'alerts', version: '1.0.0' }).connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    const result = await client.callTool({ name: 'set_alerts', arguments: sent });
    expect(result.isError).toBeFalsy();
    expect(received).toEqual([meant]);
    await client.close();
  });

  test('MCP 2026-07-28 (SDK v2 client)', async () => {
    received.length = 0;
    const client = new ClientV2(
      { name: 'test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const result = await client.callTool({ name: 'set_alerts', arguments: sent });
    expect(result.isError).toBeFalsy();
    expect(received).toEqual([meant]);
    await client.close();
  });

  /** Every other surface: each hands the model's arguments to the runner, which repairs them the same way. */
  test.each([
    [
      'the AI SDK',
      async () => {
        const execute = aiTools(runtime).set_alerts?.execute as (
          input: unknown,
          options: object,
        ) => Promise<unknown>;
        return execute(sent, { toolCallId: 'call-1', messages: [] });
      },
    ],
    [
      'OpenAI Chat Completions',
      () =>
        runChatToolCall(runtime, {
          id: 'call-1',
          type: 'function',
          function: { name: 'set_alerts', arguments: JSON.stringify(sent) },
        }),
    ],
    [
      'Anthropic Messages',
      () => runAnthropicToolUse(runtime, { id: 'toolu_1', name: 'set_alerts', input: sent }),
    ],
    ['Gemini', () => runGeminiFunctionCall(runtime, { name: 'set_alerts', args: sent })],
    [
      'the shell CLI',
      () =>
        runToolCli(runtime, ['set_alerts', '--json', JSON.stringify(sent)], {
          stdout: () => {},
          stderr: (text: string) => {
            throw new Error(text);
          },
        }),
    ],
  ])('%s', async (_surface, call) => {
    received.length = 0;
    await call();
    expect(received).toEqual([meant]);
  });
});

/** The places in a value one mistake of a model can be made at, each with the value it would send. */
function mistakesIn(
  value: unknown,
  path: readonly (string | number)[] = [],
): { path: (string | number)[]; sent: unknown }[] {
  const here = (sent: unknown) => [{ path: [...path], sent }];
  if (typeof value === 'boolean' || typeof value === 'number') return here(JSON.stringify(value));
  if (typeof value === 'string') {
    const other = value.toUpperCase() === value ? value.toLowerCase() : value.toUpperCase();
    return other === value ? [] : here(other);
  }
  if (Array.isArray(value))
    return [
      // One item alone: a scalar, as models send one tag for a list of tags.
      ...(value.length === 1 && ['string', 'number', 'boolean'].includes(typeof value[0])
        ? here(value[0])
        : []),
      ...value.flatMap((item, index) => mistakesIn(item, [...path, index])),
    ];
  if (typeof value === 'object' && value !== null)
    return Object.keys(value).flatMap((key) =>
      mistakesIn((value as Record<string, unknown>)[key], [...path, key]),
    );
  return [];
}

function withMistake(value: unknown, path: readonly (string | number)[], sent: unknown): unknown {
  if (path.length === 0) return sent;
  const [step, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(value))
    return value.map((item, index) => (index === step ? withMistake(item, rest, sent) : item));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value as object))
    Object.defineProperty(copy, key, {
      value:
        key === step
          ? withMistake((value as Record<string, unknown>)[key], rest, sent)
          : (value as Record<string, unknown>)[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return copy;
}

describe.each(LIBRARIES_UNDER_TEST)('a repair is accepted: $name', (library) => {
  const RUNS = Math.ceil(propertyRuns(2000) / 4);
  test(
    `one mistake in an accepted value (a scalar as text, a lone item, an enum's case): whatever the plan changes, the parser accepts (${RUNS} random contracts)`,
    () => {
      let repairs = 0;
      fc.assert(
        fc.property(
          library.inputs.chain((spec) =>
            fc.record({ spec: fc.constant(spec), value: sampleOf(spec), pick: fc.nat() }),
          ),
          ({ spec, value, pick }) => {
            const input = library.build(spec);
            fc.pre(input !== undefined && library.accepts(input, value) === true);
            const mistakes = mistakesIn(value);
            fc.pre(mistakes.length > 0);
            const { path, sent } = mistakes[pick % mistakes.length] as (typeof mistakes)[number];
            const damaged = withMistake(value, path, sent);
            const outcome = coerceBothWays(input, damaged);
            if (!('value' in outcome) || JSON.stringify(outcome.value) === JSON.stringify(damaged)) return;
            repairs++;
            expect(library.accepts(input, outcome.value)).toBe(true);
          },
        ),
        { numRuns: RUNS },
      );
      expect(repairs).toBeGreaterThan(0);
    },
    PROPERTY_TIMEOUT,
  );
});
