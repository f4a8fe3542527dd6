import { readFileSync } from 'node:fs';
import path from 'node:path';
import { prepareTool } from '@toolprep/build';
import { coerceJsonArgs, defineTool } from 'toolprep';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { INVERSE_STEPS, type ProfileName } from '../../src/manifest/profiles.js';
import { REPO } from '../support/fixture-project.js';
import { walkGenerated } from '../support/generated-walk.js';

/**
 * The test vectors of ../shared/research/provider-profiles.md §6, one row each: what the profile
 * shows for a field, or the build error it gives; what a model sends; and what the inverse steps
 * make of it before the contract's parser, which then accepts or rejects it. The plan and the
 * run-time reference agree on every row.
 */

const Node: z.ZodType = z.object({
  name: z.string(),
  get children() {
    return z.array(Node).optional();
  },
});

interface Row {
  readonly id: string;
  readonly profile: ProfileName;
  readonly input: z.ZodObject;
  /** Each listed property as the profile shows it, and the profile's `required`, when given. */
  readonly shows?: Record<string, unknown>;
  readonly required?: readonly string[];
  /** The build error, instead. */
  readonly error?: RegExp;
  readonly sends?: unknown;
  /** What the inverse steps give; the input itself when absent. */
  readonly becomes?: unknown;
  /** The contract's parse of it: its value, or a pattern its error matches. */
  readonly parses?: unknown;
  readonly rejects?: RegExp;
}

const ROWS: Row[] = [
  // 6.1 openai-strict
  {
    id: 'O1',
    profile: 'openai-strict',
    input: z.object({ q: z.string(), limit: z.number().int().optional() }),
    shows: { limit: { type: ['integer', 'null'] } },
    required: ['q', 'limit'],
    sends: { q: 'cats', limit: null },
    becomes: { q: 'cats' },
  },
  {
    id: 'O2',
    profile: 'openai-strict',
    input: z.object({ note: z.string().nullable() }),
    shows: { note: { type: ['string', 'null'] } },
    sends: { note: null },
  },
  {
    id: 'O3',
    profile: 'openai-strict',
    input: z.object({ note: z.string().nullish() }),
    shows: { note: { type: ['string', 'null'] } },
    required: ['note'],
    sends: { note: null },
  },
  {
    id: 'O4',
    profile: 'openai-strict',
    input: z.object({ unit: z.enum(['c', 'f']).optional() }),
    shows: { unit: { type: ['string', 'null'], enum: ['c', 'f', null] } },
    sends: { unit: null },
    becomes: {},
  },
  {
    id: 'O5',
    profile: 'openai-strict',
    input: z.object({ limit: z.number().int().min(1).max(50).default(10) }),
    shows: { limit: { type: ['integer', 'null'], minimum: 1, maximum: 50, description: 'Default: 10.' } },
    sends: { limit: null },
    becomes: {},
    parses: { limit: 10 },
  },
  {
    id: 'O6',
    profile: 'openai-strict',
    input: z.object({ opts: z.object({ deep: z.boolean().optional() }).optional() }),
    shows: {
      opts: {
        anyOf: [
          {
            type: 'object',
            properties: { deep: { type: ['boolean', 'null'] } },
            required: ['deep'],
            additionalProperties: false,
          },
          { type: 'null' },
        ],
      },
    },
    sends: { opts: { deep: null } },
    becomes: { opts: {} },
  },
  {
    id: 'O6 (null object)',
    profile: 'openai-strict',
    input: z.object({ opts: z.object({ deep: z.boolean().optional() }).optional() }),
    sends: { opts: null },
    becomes: {},
  },
  {
    id: 'O7',
    profile: 'openai-strict',
    input: z.object({
      ops: z.array(
        z.discriminatedUnion('op', [
          z.object({ op: z.literal('add'), v: z.number() }),
          z.strictObject({ op: z.literal('del'), id: z.string().nullable() }),
        ]),
      ),
    }),
    sends: {
      ops: [
        { op: 'del', v: null, id: null },
        { op: 'add', v: 2, id: null },
      ],
    },
    // Variant by variant: the strict `del` refuses `v`, so its `null` goes; the plain `add` strips
    // an undeclared key itself, so its `id: null` is left for the parser (it is accepted as it is).
    becomes: {
      ops: [
        { op: 'del', id: null },
        { op: 'add', v: 2, id: null },
      ],
    },
    parses: {
      ops: [
        { op: 'del', id: null },
        { op: 'add', v: 2 },
      ],
    },
  },
  {
    id: 'O8',
    profile: 'openai-strict',
    input: z.object({
      r: z.record(z.enum(['a', 'b']), z.number()),
      pr: z.partialRecord(z.enum(['a', 'b']), z.number()),
    }),
    shows: {
      r: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
      pr: {
        type: 'object',
        properties: { a: { type: ['number', 'null'] }, b: { type: ['number', 'null'] } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
    },
    sends: { r: { a: 1, b: 2 }, pr: { a: 1, b: null } },
    becomes: { r: { a: 1, b: 2 }, pr: { a: 1 } },
  },
  {
    id: 'O9',
    profile: 'openai-strict',
    input: z.object({ t: z.tuple([z.string(), z.number()]) }),
    shows: {
      t: {
        type: 'array',
        items: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        minItems: 2,
        maxItems: 2,
        description: 'Items in order: string, number.',
      },
    },
    sends: { t: ['x', 1] },
  },
  {
    id: 'O9 (out of order)',
    profile: 'openai-strict',
    input: z.object({ t: z.tuple([z.string(), z.number()]) }),
    sends: { t: ['1', 'x'] },
    rejects: /t\.1: Invalid input: expected number, received string/,
  },
  {
    id: 'O10',
    profile: 'openai-strict',
    input: z.object({ tree: Node.optional() }),
    shows: { tree: { anyOf: [{ $ref: '#/$defs/__schema0' }, { type: 'null' }] } },
    sends: { tree: { name: 'a', children: [{ name: 'b', children: null }] } },
    becomes: { tree: { name: 'a', children: [{ name: 'b' }] } },
  },
  {
    id: 'O11',
    profile: 'openai-strict',
    input: z.object({ m: z.record(z.string(), z.number()) }),
    error:
      /tool "t", input\.m, profile openai-strict: a record with free keys cannot be expressed under openai-strict/,
  },
  {
    id: 'O11 (any value)',
    profile: 'openai-strict',
    input: z.object({ x: z.unknown() }),
    error: /tool "t", input\.x, profile openai-strict: takes any value, which openai-strict cannot express/,
  },
  // 6.2 gemini and 6.3 gemini-openapi
  {
    id: 'G1',
    profile: 'gemini',
    input: z.object({ note: z.string().nullable() }),
    shows: { note: { type: ['string', 'null'] } },
    required: ['note'],
    sends: { note: null },
  },
  {
    id: 'G1',
    profile: 'gemini-openapi',
    input: z.object({ note: z.string().nullable() }),
    shows: { note: { type: 'string', nullable: true } },
    required: ['note'],
    sends: { note: null },
  },
  {
    id: 'G2',
    profile: 'gemini',
    input: z.object({ limit: z.number().int().optional() }),
    shows: { limit: { type: 'integer' } },
    required: [],
    sends: { limit: null },
    becomes: {},
  },
  {
    id: 'G2',
    profile: 'gemini-openapi',
    input: z.object({ limit: z.number().int().optional() }),
    shows: { limit: { type: 'integer' } },
    sends: { limit: null },
    becomes: {},
  },
  {
    id: 'G3',
    profile: 'gemini',
    input: z.object({ kind: z.literal('x') }),
    shows: { kind: { type: 'string', enum: ['x'] } },
    sends: { kind: 'x' },
  },
  {
    id: 'G3',
    profile: 'gemini-openapi',
    input: z.object({ kind: z.literal('x') }),
    shows: { kind: { type: 'string', enum: ['x'] } },
    sends: { kind: 'x' },
  },
  {
    id: 'G4',
    profile: 'gemini',
    input: z.object({ level: z.literal([1, 2, 3]) }),
    shows: { level: { type: 'number', enum: [1, 2, 3] } },
    sends: { level: 4 },
    rejects: /level: Invalid option/,
  },
  {
    id: 'G4',
    profile: 'gemini-openapi',
    input: z.object({ level: z.literal([1, 2, 3]) }),
    shows: { level: { type: 'number', description: 'One of 1, 2, 3.' } },
    sends: { level: 4 },
    rejects: /level: Invalid option/,
  },
  {
    id: 'G5',
    profile: 'gemini',
    input: z.object({ m: z.record(z.string(), z.number()) }),
    shows: { m: { type: 'object', additionalProperties: { type: 'number' } } },
    sends: { m: { a: 1 } },
  },
  {
    id: 'G5',
    profile: 'gemini-openapi',
    input: z.object({ m: z.record(z.string(), z.number()) }),
    error:
      /input\.m, profile gemini-openapi: a record with free keys cannot be expressed under gemini-openapi/,
  },
  {
    id: 'G6',
    profile: 'gemini',
    input: z.object({ t: z.tuple([z.string(), z.number()]) }),
    shows: {
      t: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], minItems: 2, maxItems: 2 },
    },
    sends: { t: ['x', 1] },
  },
  {
    id: 'G6',
    profile: 'gemini-openapi',
    input: z.object({ t: z.tuple([z.string(), z.number()]) }),
    shows: {
      t: {
        type: 'array',
        items: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        minItems: 2,
        maxItems: 2,
        description: 'Items in order: string, number.',
      },
    },
    sends: { t: ['x', 1] },
  },
  {
    id: 'G7',
    profile: 'gemini',
    input: z.object({ u: z.union([z.string(), z.array(z.string())]).optional() }),
    shows: { u: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] } },
    sends: { u: null },
    becomes: {},
  },
  {
    id: 'G7 (one value)',
    profile: 'gemini-openapi',
    input: z.object({ u: z.union([z.string(), z.array(z.string())]).optional() }),
    sends: { u: 'a.png' },
  },
  {
    id: 'G8',
    profile: 'gemini',
    input: z.object({ 'file-path': z.string() }),
    error:
      /input\.file-path, profile gemini: Gemini takes a parameter name .* not "file-path" \(rename it, for example to "file_path"\)/,
  },
  {
    id: 'G8',
    profile: 'gemini-openapi',
    input: z.object({ 'file-path': z.string() }),
    error: /input\.file-path, profile gemini-openapi: Gemini takes a parameter name/,
  },
  {
    id: 'G9',
    profile: 'gemini',
    input: z.object({ tree: Node.optional() }),
    shows: { tree: { $ref: '#/$defs/__schema0' } },
    sends: { tree: { name: 'a' } },
  },
  {
    id: 'G9',
    profile: 'gemini-openapi',
    input: z.object({ tree: Node.optional() }),
    error:
      /profile gemini-openapi: a recursive schema \(__schema0\) cannot be expressed under gemini-openapi \(use the gemini profile/,
  },
  {
    id: 'G10',
    profile: 'gemini',
    input: z.object({ email: z.email() }),
    shows: { email: { type: 'string', format: 'email' } },
    sends: { email: 'x' },
    rejects: /email: Invalid email address/,
  },
  {
    id: 'G10',
    profile: 'gemini-openapi',
    input: z.object({ email: z.email() }),
    shows: { email: { type: 'string', description: 'Format: email.' } },
    sends: { email: 'x' },
    rejects: /email: Invalid email address/,
  },
  // 6.4 anthropic and 6.5 anthropic-strict
  {
    id: 'A1',
    profile: 'anthropic-strict',
    input: z.object({ q: z.string(), limit: z.number().int().optional() }),
    shows: { limit: { type: 'integer' } },
    required: ['q'],
    sends: { q: 'x', limit: null },
    becomes: { q: 'x' },
  },
  {
    id: 'A2',
    profile: 'anthropic-strict',
    input: z.object({ n: z.number().min(1).max(10) }),
    shows: { n: { type: 'number', description: 'Minimum 1. Maximum 10.' } },
    sends: { n: 11 },
    rejects: /n: Too big: expected number to be <=10/,
  },
  {
    id: 'A3',
    profile: 'anthropic-strict',
    input: z.object({ when: z.iso.date() }),
    shows: { when: { type: 'string', format: 'date' } },
    sends: { when: '2024-02-30' },
    rejects: /when: Invalid ISO date/,
  },
  {
    id: 'A4',
    profile: 'anthropic-strict',
    input: z.object({ d: z.iso.duration() }),
    shows: { d: { type: 'string', format: 'duration' } },
    sends: { d: 'P1D' },
  },
  {
    id: 'A5',
    profile: 'anthropic-strict',
    input: z.object({ color: z.enum(['Dark Blue', 'Light Green']) }),
    shows: { color: { type: 'string', enum: ['Dark Blue', 'Light Green'] } },
    sends: { color: 'Dark blue' },
    becomes: { color: 'Dark Blue' },
  },
  {
    id: 'A6',
    profile: 'anthropic-strict',
    input: z.object({ tags: z.array(z.string()).min(1).max(5) }),
    shows: {
      tags: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'At most 5 items.' },
    },
    sends: { tags: ['a', 'b', 'c', 'd', 'e', 'f'] },
    rejects: /tags: Too big: expected array to have <=5 items/,
  },
  {
    id: 'A7',
    profile: 'anthropic-strict',
    input: z.object({ id: z.uuid().nullable() }),
    shows: { id: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }] } },
    sends: { id: null },
  },
  {
    id: 'A8',
    profile: 'anthropic-strict',
    input: z.object({ s: z.string().regex(/^[a-z]+\d*$/) }),
    shows: { s: { type: 'string', pattern: '^[a-z]+\\d*$' } },
    sends: { s: 'ab12' },
  },
  {
    id: 'A9',
    profile: 'anthropic-strict',
    input: z.object({ tree: Node }),
    error:
      /input\.tree, profile anthropic-strict: a recursive schema cannot be expressed under anthropic-strict/,
  },
  {
    id: 'A9',
    profile: 'anthropic',
    input: z.object({ tree: Node }),
    shows: { tree: { $ref: '#/$defs/__schema0' } },
    sends: { tree: { name: 'a', children: [] } },
  },
  {
    id: 'A10',
    profile: 'anthropic-strict',
    input: z.object({ m: z.record(z.string(), z.number()) }),
    error:
      /input\.m, profile anthropic-strict: a record with free keys cannot be expressed under anthropic-strict/,
  },
  {
    id: 'A10',
    profile: 'anthropic',
    input: z.object({ m: z.record(z.string(), z.number()) }),
    shows: {
      m: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } },
    },
    sends: { m: { a: 1 } },
  },
];

const prepare = (input: z.ZodType, profile: ProfileName) =>
  prepareTool(defineTool({ name: 't', description: 'A tool.', input }), {
    profiles: [profile],
    warn: () => {},
  });

describe('the research vectors, profile by profile', () => {
  test.each(ROWS.map((row) => [`${row.id} ${row.profile}`, row] as const))('%s', (_name, row) => {
    if (row.error) {
      expect(() => prepare(row.input, row.profile)).toThrow(row.error);
      return;
    }
    const tool = prepare(row.input, row.profile);
    const document = tool.profiles?.[row.profile]?.inputSchema as Record<string, unknown>;
    expect(document.$schema).toBeUndefined();
    expect(document.type).toBe('object');
    const properties = document.properties as Record<string, unknown>;
    for (const [key, shown] of Object.entries(row.shows ?? {})) expect(properties[key]).toEqual(shown);
    if (row.required) expect(document.required ?? []).toEqual(row.required);

    const inverse = INVERSE_STEPS[row.profile];
    const after = walkGenerated(tool.plan, row.sends, { inverse });
    expect(coerceJsonArgs(row.sends, row.input, { inverse })).toEqual(after);
    expect(after).toEqual(row.becomes ?? row.sends);
    const parsed = row.input.safeParse(after);
    if (row.rejects) {
      expect(parsed.success).toBe(false);
      const issues = (parsed.error as z.ZodError).issues.map(
        (issue) => `${issue.path.join('.')}: ${issue.message}`,
      );
      expect(issues.join('\n')).toMatch(row.rejects);
    } else {
      expect(parsed.error).toBeUndefined();
      if (row.parses) expect(parsed.data).toEqual(row.parses);
    }
  });
});

test("the profiles guide's example documents are what the profiles give", () => {
  const guide = readFileSync(path.join(REPO, 'docs/guide/profiles.md'), 'utf8');
  const block = /```jsonc\n([\s\S]*?)```/.exec(guide)?.[1] ?? '';
  const shown = Object.fromEntries(
    block
      .split(/^\/\/ /m)
      .filter(Boolean)
      .map((part) => {
        const [name = '', ...json] = part.split('\n');
        return [name.trim(), JSON.parse(json.join('\n'))];
      }),
  );
  expect(Object.keys(shown)).toEqual(['openai-strict', 'anthropic-strict']);
  const searchNotes = defineTool({
    name: 'search_notes',
    description: 'Search the notes.',
    input: z.object({
      query: z.string().min(1),
      limit: z.number().int().min(1).max(50).default(10),
      sort: z.enum(['Newest', 'Oldest']).optional(),
    }),
  });
  const { profiles } = prepareTool(searchNotes, { profiles: ['openai-strict', 'anthropic-strict'] });
  for (const [profile, document] of Object.entries(shown))
    expect(profiles?.[profile as ProfileName]?.inputSchema).toEqual(document);
});
