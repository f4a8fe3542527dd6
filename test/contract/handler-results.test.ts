import { prepareToolSet } from '@toolprep/build';
import { content, defineTool, image, type ToolResult } from 'toolprep';
import { createToolRuntime } from 'toolprep/runtime';
import { expect, test } from 'vitest';
import { z } from 'zod';

/**
 * What a handler may return: the runtime's answer and the handler types' (`ToolResult`, which the
 * generated `ToolHandlers` gives each handler) agree. Each row is checked twice: by tsc, where a
 * result the types refuse carries `@ts-expect-error`, and here, by a call through the runtime.
 */
const stats = defineTool({ description: 'Count notes.', output: z.object({ notes: z.number() }) });
const statsOrNone = defineTool({
  description: 'Count notes, if any.',
  output: z.object({ notes: z.number() }).optional(),
});
const status = defineTool({
  description: 'Say how fresh the notes are.',
  output: z.object({ status: z.enum(['fresh', 'stale']), checked: z.number().default(0) }),
});
const anything = defineTool({ description: 'Return anything.' });
const contracts = { stats, statsOrNone, status, anything };
type Returns<Name extends keyof typeof contracts> = ToolResult<(typeof contracts)[Name]>;

const png = new Uint8Array([1, 2, 3]);
const rows: [description: string, tool: keyof typeof contracts, result: unknown, accepted: boolean][] = [
  ['a value of the output', 'stats', { notes: 3 } satisfies Returns<'stats'>, true],
  [
    'content with its structured value (note_stats)',
    'stats',
    content(['3 notes'], { structured: { notes: 3 } }) satisfies Returns<'stats'>,
    true,
  ],
  [
    'content whose structured value is the schema’s input side (an enum member, a default left out)',
    'status',
    content(['fresh'], { structured: { status: 'fresh' } }) satisfies Returns<'status'>,
    true,
  ],
  [
    'content whose structured value the output refuses',
    'stats',
    // @ts-expect-error: `notes` is a number
    content(['3 notes'], { structured: { notes: 'three' } }) satisfies Returns<'stats'>,
    false,
  ],
  [
    'content with no structured value, where the output takes none',
    'statsOrNone',
    content(['no notes']) satisfies Returns<'statsOrNone'>,
    true,
  ],
  [
    'content with no structured value, where the output needs one',
    'stats',
    // @ts-expect-error: the output needs `structured`
    content(['3 notes']) satisfies Returns<'stats'>,
    false,
  ],
  [
    'one part alone, where the output takes none',
    'statsOrNone',
    image(png, 'image/png') satisfies Returns<'statsOrNone'>,
    true,
  ],
  [
    'one part alone, where the output needs a value',
    'stats',
    // @ts-expect-error: a part carries no structured value
    image(png, 'image/png') satisfies Returns<'stats'>,
    false,
  ],
  // @ts-expect-error: a string is no `{ notes }`
  ['text, where the output is an object', 'stats', '3 notes' satisfies Returns<'stats'>, false],
  ['text, without an output', 'anything', '3 notes' satisfies Returns<'anything'>, true],
  ['content, without an output', 'anything', content(['3 notes']) satisfies Returns<'anything'>, true],
  [
    'content with structured, without an output',
    'anything',
    content(['3 notes'], { structured: { notes: 3 } }) satisfies Returns<'anything'>,
    true,
  ],
];

test.each(rows)('%s: accepted %s', async (_, tool, result, accepted) => {
  const tools = prepareToolSet(contracts);
  const handlers = Object.fromEntries(tools.prepared.map((prepared) => [prepared.name, () => result]));
  const runtime = createToolRuntime(tools, { handlers });
  const name = tools.prepared.find(
    (prepared) => prepared.name.replaceAll('_', '') === tool.toLowerCase(),
  )?.name;
  const call = await runtime.call(name ?? tool, {});
  expect(call.ok ? 'accepted' : call.error.code).toBe(accepted ? 'accepted' : 'OUTPUT_ERROR');
});
