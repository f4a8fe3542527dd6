import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterEach, expect, test } from 'vitest';
import { createGeneratorContext } from '../../src/generate/context.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';

let project: FixtureProject | undefined;
afterEach(() => project?.remove());

// A tool that documents a tokenizer may name its special tokens: their text is counted as the
// ordinary text a provider's API encodes it as, and never stops the generation.
test("a description holding a special token's text is generated, its tokens counted as text", async () => {
  project = copyFixture('generate/basic');
  project.write(
    'src/tools/stop.ts',
    `import { defineTool } from 'toolprep';
import { z } from 'zod';

/** Cut a completion at <|endoftext|>, the end-of-text marker. */
export const cutCompletion = defineTool({ input: z.object({ text: z.string() }) });
`,
  );
  const outcome = await createGeneratorContext({ root: project.dir, write: false }).run();
  expect(outcome.problems).toEqual([]);
  const entry = outcome.generation?.manifest?.tools.find((tool) => tool.name === 'cut_completion');
  expect(entry?.description).toBe('Cut a completion at <|endoftext|>, the end-of-text marker.');
  const listed = countTokens(JSON.stringify(entry?.description), { disallowedSpecial: new Set() });
  expect(entry?.size.tokens).toBeGreaterThan(listed);
});
