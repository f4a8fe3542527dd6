import { prepareTool } from '@toolprep/build';
import fc from 'fast-check';
import { defineTool } from 'toolprep';
import { preparedToolsOf } from 'toolprep/runtime';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { splitLaterParts } from '../../src/manifest/later-parts.js';
import type { PreparedTool } from '../../src/manifest/prepared-tool.js';

/** The texts the generated module holds: the first, and the deferred ones, a line per tool. */
function textsOf(tools: readonly PreparedTool[]): [string, string, string] {
  const split = tools.map(splitLaterParts);
  const lines = (text: number) => split.map((parts) => JSON.stringify(parts.deferred[text])).join('\n');
  return [JSON.stringify(split.map((parts) => parts.now)), lines(0), lines(1)];
}

/** The tools read back as the generated module reads them. */
function readBack(tools: readonly PreparedTool[]): PreparedTool[] {
  return preparedToolsOf(...textsOf(tools));
}

const object = fc.dictionary(fc.string(), fc.jsonValue());
/** A prepared tool's shape: its later parts present or not, among any other keys. */
const toolShape = fc.record(
  {
    name: fc.string(),
    inputSchema: fc.record({ mcp: object, agent: object }),
    plan: object,
    profiles: fc.dictionary(fc.string(), object),
    outputSchema: object,
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

  test('a list reads the first text and the MCP documents; the later text is parsed on the first read of a later part', () => {
    const tools = [{ name: 'a', inputSchema: { mcp: {}, agent: {} }, plan: {} }] as unknown as PreparedTool[];
    const [now, documents] = textsOf(tools);
    // Not JSON: reading a later part would throw; listing does not read one.
    const [read] = preparedToolsOf(now, documents, 'not JSON');
    expect(read?.name).toBe('a');
    expect(read?.inputSchema.mcp).toEqual({});
    expect(() => read?.plan).toThrow(SyntaxError);
  });

  test("a tool's deferred parts are parsed from its own line only", () => {
    const tools = ['a', 'b'].map((name) => ({
      name,
      inputSchema: { mcp: { title: name }, agent: {} },
      plan: { root: name },
    })) as unknown as PreparedTool[];
    const [now, documents, later] = textsOf(tools);
    // The second tool's lines are not JSON: the first tool reads its parts without them.
    const broken = (text: string) => `${text.split('\n')[0]}\nnot JSON`;
    const [first, second] = preparedToolsOf(now, broken(documents), broken(later));
    expect(first?.inputSchema.mcp).toEqual({ title: 'a' });
    expect(first?.plan).toEqual({ root: 'a' });
    expect(() => second?.inputSchema.mcp).toThrow(SyntaxError);
    expect(() => second?.plan).toThrow(SyntaxError);
  });

  test('a deferred part set before its first read, or read through an object made from the tool', () => {
    const tools = ['a', 'b'].map((name) => ({
      name,
      inputSchema: { mcp: {}, agent: {} },
      plan: { root: name },
    }));
    const [first, second] = readBack(tools as unknown as PreparedTool[]);
    Object.assign(first as object, { plan: { root: 'set' } });
    expect(first?.plan).toEqual({ root: 'set' });
    expect((Object.create(second as object) as PreparedTool).plan).toEqual({ root: 'b' });
    expect(Object.getOwnPropertyDescriptor(second, 'plan')).toMatchObject({ value: { root: 'b' } });
  });

  test('a copy made from the tool, by its property descriptors or by spreading, reads its later parts', () => {
    const tools = ['a', 'b'].map((name) => ({
      name,
      inputSchema: { mcp: { title: name }, agent: {} },
      plan: { root: name },
    }));
    const [, second] = readBack(tools as unknown as PreparedTool[]);
    const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(second)) as PreparedTool;
    expect(copy.plan).toEqual({ root: 'b' });
    expect(copy.inputSchema.mcp).toEqual({ title: 'b' });
    expect(Object.keys(copy)).toEqual(Object.keys(tools[1] as object));
    expect(JSON.parse(JSON.stringify({ ...second }))).toEqual(tools[1]);
  });

  test('an AI SDK document that is the MCP one under another $schema is written as that $schema', () => {
    const mcp = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {} };
    const agent = { ...mcp, $schema: 'http://json-schema.org/draft-07/schema#' };
    const other = { ...agent, required: [] };
    const tools = [
      { name: 'same', inputSchema: { mcp, agent }, plan: {} },
      { name: 'other', inputSchema: { mcp, agent: other }, plan: {} },
    ] as unknown as PreparedTool[];
    const [, , later] = textsOf(tools);
    expect(later.split('\n')[0]).toBe('["http://json-schema.org/draft-07/schema#",{},null]');
    const [same, differs] = readBack(tools);
    expect(JSON.stringify(same?.inputSchema.agent)).toBe(JSON.stringify(agent));
    expect(JSON.stringify(differs?.inputSchema.agent)).toBe(JSON.stringify(other));
    // A copy: the MCP document is not the AI SDK's.
    expect(same?.inputSchema.agent).not.toBe(same?.inputSchema.mcp);
    expect((same?.inputSchema.agent.properties as object) === same?.inputSchema.mcp.properties).toBe(false);
  });

  test('a key named __proto__ stays an own key', () => {
    const tool = JSON.parse('{"name":"a","inputSchema":{"mcp":{},"agent":{}},"plan":{},"__proto__":{"x":1}}');
    const [read] = readBack([tool]);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(JSON.stringify(read)).toBe(JSON.stringify(tool));
  });

  test('a frozen tool still reads its later parts', () => {
    // Its AI SDK document is the MCP one under another $schema: written as that $schema.
    const mcp = { $schema: 'mcp', type: 'object' };
    const tool = { name: 'a', inputSchema: { mcp, agent: { ...mcp, $schema: 'agent' } }, plan: { root: 0 } };
    const [read] = readBack([tool as unknown as PreparedTool]);
    Object.freeze(read);
    expect(read?.plan).toEqual({ root: 0 });
    expect(read?.plan).toBe(read?.plan);
    Object.freeze(read?.inputSchema);
    expect(read?.inputSchema.agent).toEqual({ $schema: 'agent', type: 'object' });
    expect(read?.inputSchema.agent).toBe(read?.inputSchema.agent);
  });
});
