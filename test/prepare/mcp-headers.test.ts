import { prepareTool } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

/**
 * `x-mcp-header` (MCP 2026-07-28): a contract mirrors an argument into an HTTP header; the build
 * writes the annotation into the MCP document, checks the specification's rules with an error
 * naming the tool and the field, and records the list a server checks each request against.
 */

const input = z.object({
  region: z.string(),
  limit: z.number().int().optional(),
  dryRun: z.boolean().optional(),
  location: z.object({ zone: z.string() }),
  tags: z.array(z.object({ name: z.string() })),
  ratio: z.number(),
  choice: z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]),
});

const prepared = (headers: Record<string, string>, schema: z.ZodType = input) =>
  prepareTool(defineTool({ name: 'deploy', description: 'Deploy.', input: schema as never, headers }));

describe('x-mcp-header', () => {
  test('the contract’s headers are written into the MCP document and listed with their types', () => {
    const tool = prepared({ region: 'Region', limit: 'Limit', dryRun: 'Dry-Run', 'location.zone': 'Zone' });
    const properties = tool.inputSchema.mcp.properties as Record<string, Record<string, unknown>>;
    expect(properties.region).toMatchObject({ type: 'string', 'x-mcp-header': 'Region' });
    expect((properties.location as { properties: Record<string, unknown> }).properties.zone).toMatchObject({
      'x-mcp-header': 'Zone',
    });
    expect(tool.mcpHeaders).toEqual([
      { path: ['region'], header: 'Region', type: 'string' },
      { path: ['limit'], header: 'Limit', type: 'integer' },
      { path: ['dryRun'], header: 'Dry-Run', type: 'boolean' },
      { path: ['location', 'zone'], header: 'Zone', type: 'string' },
    ]);
    // Only the MCP document carries it; the others are not MCP's.
    expect(JSON.stringify(tool.inputSchema.agent)).not.toContain('x-mcp-header');
  });

  test('an annotation a schema library wrote (Zod’s meta) is checked and listed the same way', () => {
    const tool = prepared({}, z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }));
    expect(tool.mcpHeaders).toEqual([{ path: ['region'], header: 'Region', type: 'string' }]);
  });

  test.each([
    [
      'a number (not an integer)',
      { ratio: 'Ratio' },
      /tool "deploy", input\.ratio: x-mcp-header is on "number", not a string, an integer or a boolean/,
    ],
    [
      'a field inside a list',
      { 'tags.name': 'Tag' },
      /tool "deploy", headers\.tags\.name: names no property of the input/,
    ],
    [
      'a field of a union',
      { 'choice.a': 'A' },
      /tool "deploy", headers\.choice\.a: names no property of the input/,
    ],
    [
      'no such field',
      { missing: 'Missing' },
      /tool "deploy", headers\.missing: names no property of the input/,
    ],
    [
      'an invalid header name',
      { region: 'My Region' },
      /tool "deploy", input\.region: x-mcp-header "My Region" is not a valid header name/,
    ],
    [
      'a name used twice, in another case',
      { region: 'Region', 'location.zone': 'REGION' },
      /tool "deploy", input\.location\.zone: x-mcp-header "REGION" is also the header of region/,
    ],
    ['an object', { location: 'Location' }, /input\.location: x-mcp-header is on "object"/],
  ])('%s is refused', (_case, headers, message) => {
    expect(() => prepared(headers)).toThrow(message);
  });

  test('an annotation a library put where it is not statically reachable is refused', () => {
    const schema = z.object({ items: z.array(z.object({ id: z.string().meta({ 'x-mcp-header': 'Id' }) })) });
    expect(() => prepared({}, schema)).toThrow(
      /input\.items\.id: has x-mcp-header where it is not statically reachable/,
    );
  });
});
