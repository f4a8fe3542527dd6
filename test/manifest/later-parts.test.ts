import { prepareTool } from '@toolprep/build';
import fc from 'fast-check';
import { defineTool } from 'toolprep';
import { preparedToolsOf } from 'toolprep/runtime';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { splitLaterParts } from '../../src/manifest/later-parts.js';
import type { PreparedTool } from '../../src/manifest/prepared-tool.js';

/** The two texts the generated module holds, read back as the module reads them. */
function readBack(tools: readonly PreparedTool[]): PreparedTool[] {
  const split = tools.map(splitLaterParts);
  return preparedToolsOf(
    JSON.stringify(split.map((parts) => parts.now)),
    JSON.stringify(split.map((parts) => parts.later)),
  );
}

const object = fc.dictionary(fc.string(), fc.jsonValue());
/** A prepared tool's shape: its later parts present or not, among any other keys. */
const toolShape = fc.record(
  {
    name: fc.string(),
    inputSchema: fc.record({ mcp: object, agent: object }),
    plan: object,
    profiles: fc.dictionary(fc.string(), object),
    extra: fc.jsonValue(),
  },
  { requiredKeys: ['name', 'inputSchema', 'plan'] },
) as unknown as fc.Arbitrary<PreparedTool>;

describe('the prepared tools in two texts', () => {
  test('read back, every tool serialises as it was, key order included', () => {
    fc.assert(
      fc.property(fc.array(toolShape, { maxLength: 5 }), (tools) => {
        expect(JSON.stringify(readBack(tools))).toBe(JSON.stringify(tools));
      }),
    );
  });

  test('a real prepared tool reads, spreads and compares as the whole', () => {
    const tool = prepareTool(
      defineTool({
        name: 'search',
        description: 'Searches.',
        input: z.object({ query: z.string(), limit: z.number().int().optional() }),
      }),
      { profiles: ['openai-strict'] },
    ) as PreparedTool;
    const [back] = readBack([tool]);
    expect(back?.plan).toEqual(tool.plan);
    expect({ ...back }).toEqual(tool);
    expect(Object.keys(back ?? {})).toEqual(Object.keys(tool));
    expect(Object.keys(back?.inputSchema ?? {})).toEqual(Object.keys(tool.inputSchema));
  });

  test('nothing of the later text is parsed until a later part is read', () => {
    const tools = [{ name: 'a', inputSchema: { mcp: {}, agent: {} }, plan: {} }] as unknown as PreparedTool[];
    const now = JSON.stringify(tools.map((tool) => splitLaterParts(tool).now));
    // Not JSON: reading a later part would throw; listing does not read one.
    const [read] = preparedToolsOf(now, 'not JSON');
    expect(read?.name).toBe('a');
    expect(read?.inputSchema.mcp).toEqual({});
    expect(() => read?.plan).toThrow(SyntaxError);
  });

  test('a frozen tool still reads its later parts', () => {
    const tool = { name: 'a', inputSchema: { mcp: {}, agent: { type: 'object' } }, plan: { root: 0 } };
    const [read] = readBack([tool as unknown as PreparedTool]);
    Object.freeze(read);
    expect(read?.plan).toEqual({ root: 0 });
    expect(read?.plan).toBe(read?.plan);
  });
});
