import { prepareTool } from '@toolprep/build';
import { defineTool, type ToolAnnotations } from 'toolprep';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const input = z.object({ q: z.string() });

describe('contract checks', () => {
  test.each([
    [
      'a value that is not a contract',
      { description: 'd', input },
      /tool "unnamed": is not a tool contract \(create it with defineTool\(\) from "toolprep"\)/,
    ],
    [
      'no name and no export name',
      defineTool({ description: 'd', input }),
      /tool "unnamed", name: has no name/,
    ],
    [
      'an empty description',
      defineTool({ name: 't', description: '  ', input }),
      /tool "t", description: has an empty description/,
    ],
    [
      'no description at all',
      defineTool({ name: 't', input }),
      /tool "t", description: has an empty description .*JSDoc/,
    ],
    [
      'an unknown annotation',
      defineTool({ name: 't', description: 'd', input, annotations: { readonly: true } as ToolAnnotations }),
      /tool "t", annotations\.readonly: "readonly" is not an MCP tool annotation \(use one of title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint, or put it in `meta`\)/,
    ],
    [
      'an annotation of the wrong type',
      defineTool({
        name: 't',
        description: 'd',
        input,
        annotations: { readOnlyHint: 'yes' } as unknown as ToolAnnotations,
      }),
      /annotations\.readOnlyHint: must be a boolean/,
    ],
    [
      'input that is not Zod',
      defineTool({ name: 't', description: 'd', input: { q: 'string' } as never }),
      /tool "t", input: is not a schema toolprep reads \(write it with zod 4, zod 3 or a Standard JSON Schema library/,
    ],
    [
      'params that are not an object',
      defineTool({ name: 't', description: 'd', params: z.string() }),
      /tool "t", params: must be a Zod object, not string/,
    ],
    [
      'a scalar root input',
      defineTool({ name: 't', description: 'd', input: z.string() }),
      /tool "t", input: must be a Zod object or a union of objects, not type "string" \(wrap the value in z\.object/,
    ],
    [
      'an array root input',
      defineTool({ name: 't', description: 'd', input: z.array(z.string()) }),
      /input: must be a Zod object .* not type "array"/,
    ],
    [
      'a union root with a scalar member',
      defineTool({ name: 't', description: 'd', input: z.union([input, z.string()]) }),
      /a union with non-object members/,
    ],
    [
      'a key in both params and input',
      defineTool({
        name: 't',
        description: 'd',
        params: z.object({ id: z.string() }),
        input: z.object({ id: z.number(), q: z.string() }),
      }),
      /tool "t", params\.id: "id" is declared by both params and input \(rename one of them\)/,
    ],
  ])('refuses %s', (_case, contract, message) => {
    expect(() => prepareTool(contract)).toThrow(message);
  });

  test('reports every problem of a tool at once', () => {
    const contract = defineTool({
      name: 'bad name',
      description: '',
      input: z.object({ when: z.date(), size: z.bigint() }),
      annotations: { color: 'red' } as ToolAnnotations,
    });
    expect(() => prepareTool(contract)).toThrow(
      /tool "bad name", name: [^\n]*\n\[toolprep\] tool "bad name", description: [^\n]*\n\[toolprep\] tool "bad name", annotations\.color[^\n]*\n\[toolprep\] tool "bad name", input\.when: Date cannot[^\n]*\n\[toolprep\] tool "bad name", input\.size: BigInt cannot/,
    );
  });

  test('the JSDoc description is used when the contract has none', () => {
    expect(
      prepareTool(defineTool({ input }), { exportName: 'search', description: 'From JSDoc.' }).description,
    ).toBe('From JSDoc.');
  });
});
