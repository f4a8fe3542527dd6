import { prepareTool, ToolprepError } from '@toolprep/build';
import { defineTool, isToolContract } from 'toolprep';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const input = z.object({ q: z.string() });

describe('defineTool', () => {
  test('returns a frozen contract that toolprep recognises', () => {
    const contract = defineTool({ description: 'Search.', input, annotations: { readOnlyHint: true } });
    expect(Object.isFrozen(contract)).toBe(true);
    expect(Object.isFrozen(contract.annotations)).toBe(true);
    expect(isToolContract(contract)).toBe(true);
    expect(isToolContract({ description: 'Search.', input })).toBe(false);
  });

  test('is recognised across copies of toolprep by its brand, which stays out of keys and spreads', () => {
    const foreign = { description: 'x', '~toolprep': 'contract' };
    expect(isToolContract(foreign)).toBe(true);
    const contract = defineTool({ description: 'Search.', input });
    expect(Object.keys(contract)).toEqual(['description', 'input']);
    expect(isToolContract({ ...contract })).toBe(false);
  });
});

describe('tool names derived from the export name', () => {
  test.each([
    ['searchFiles', 'search_files'],
    ['SearchFiles', 'search_files'],
    ['search', 'search'],
    ['HTTPGet', 'http_get'],
    ['readFile2', 'read_file2'],
    ['already_snake', 'already_snake'],
    ['getURLForID', 'get_url_for_id'],
  ])('%s → %s', (exportName, expected) => {
    expect(prepareTool(defineTool({ description: 'd', input }), { exportName }).name).toBe(expected);
  });

  test('a given name wins over the export name', () => {
    expect(
      prepareTool(defineTool({ name: 'find', description: 'd', input }), { exportName: 'searchFiles' }).name,
    ).toBe('find');
  });
});

describe('tool name rules', () => {
  test.each([
    [
      'strict',
      'files.read',
      /tool name "files\.read" does not match \^\[a-zA-Z0-9_-\]\{1,64\}\$ \(names: 'strict'\); use "files_read" instead/,
    ],
    ['strict', 'read files', /use "read_files" instead/],
    ['strict', 'x'.repeat(65), /does not match .*\{1,64\}.*use "x{64}" instead/],
    ['strict', '', /tool name "" does not match/],
    [
      'mcp',
      'read files',
      /does not match \^\[a-zA-Z0-9_.-\]\{1,128\}\$ \(names: 'mcp'\); use "read_files" instead/,
    ],
    ['mcp', 'x'.repeat(129), /\{1,128\}/],
    ['mcp', 'héllo', /use "h_llo" instead/],
  ] as const)('names: %s refuses %j', (names, name, message) => {
    expect(() => prepareTool(defineTool({ name, description: 'd', input }), { names })).toThrow(message);
  });

  test.each([
    ['strict', 'read-files_2'],
    ['strict', 'x'.repeat(64)],
    ['mcp', 'files.read'],
    ['mcp', 'x'.repeat(128)],
  ] as const)('names: %s accepts %j', (names, name) => {
    expect(prepareTool(defineTool({ name, description: 'd', input }), { names }).name).toBe(name);
  });

  test('the error carries the problem as data: tool, field, message', () => {
    const attempt = () => prepareTool(defineTool({ name: 'a b', description: 'd', input }));
    expect(attempt).toThrow(ToolprepError);
    try {
      attempt();
    } catch (error) {
      expect((error as ToolprepError).problems).toEqual([
        expect.objectContaining({
          tool: 'a b',
          field: 'name',
          message: expect.stringContaining('use "a_b" instead'),
        }),
      ]);
    }
  });
});
