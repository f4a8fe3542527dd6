import { expect, test } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';
import { repeatedTexts } from '../../src/emit/repeated-text.js';
import { prepareTool } from '../../src/prepare/prepare-tool.js';
import { tokensOf } from '../../src/shared/build/tokens.js';

const CURSOR = 'Opaque cursor returned as `nextCursor` by the previous page; omit it for the first page.';

/** `count` tools that share a cursor field, and a `z.iso.datetime()` field in each but the first. */
const tools = (count: number) =>
  Array.from({ length: count }, (_, index) =>
    prepareTool(
      defineTool({
        name: `list_things_${index}`,
        description: `List things of kind ${index}.`,
        input: z.object({
          cursor: z.string().optional().describe(CURSOR),
          ...(index > 0 ? { since: z.iso.datetime(), until: z.iso.datetime().optional() } : {}),
        }),
      }),
    ),
  );

test('the text the tools repeat, costliest first, with its occurrences, tools and tokens', () => {
  const repeated = repeatedTexts(tools(4), 10);
  const pattern = z.toJSONSchema(z.iso.datetime()) as { pattern: string };
  const patternText = JSON.stringify(pattern.pattern);
  const cursorText = JSON.stringify(CURSOR);
  expect(repeated).toEqual([
    {
      keyword: 'pattern',
      text: patternText,
      occurrences: 6,
      tools: ['list_things_1', 'list_things_2', 'list_things_3'],
      tokensEach: tokensOf(patternText),
      tokens: 6 * tokensOf(patternText),
    },
    {
      keyword: 'description',
      text: cursorText,
      occurrences: 4,
      tools: ['list_things_0', 'list_things_1', 'list_things_2', 'list_things_3'],
      tokensEach: tokensOf(cursorText),
      tokens: 4 * tokensOf(cursorText),
    },
  ]);
  // The datetime pattern is the costly one: well over a hundred tokens a field.
  expect(repeated[0]?.tokensEach).toBeGreaterThan(100);
});

test('a text said once is not repeated; the limit keeps the costliest', () => {
  expect(repeatedTexts(tools(1), 10)).toEqual([]);
  expect(repeatedTexts(tools(3), 1).map((text) => text.keyword)).toEqual(['pattern']);
});
