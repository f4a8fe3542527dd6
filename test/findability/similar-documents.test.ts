import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checkFindability } from '../../src/generate/findability/check.js';
import type { ManifestTool } from '../../src/manifest/manifest.js';
import { searchTerms } from '../../src/manifest/search-index.js';
import { searchFields } from '../../src/prepare/search-index.js';
import { propertyRuns } from '../support/property-runs.js';

/**
 * `toolprep check` warns of pairs of tools whose search documents (weighted terms) have a cosine
 * similarity of `findability.similar` or more: a search for one may return the other.
 */

const RUNS = propertyRuns(100);
const WORDS = [
  'note',
  'notes',
  'list',
  'create',
  'delete',
  'archive',
  'tag',
  'search',
  'user',
  'the',
  'by',
  'id',
];

function tool(name: string, description: string, fields: readonly string[]): ManifestTool {
  return {
    name,
    description,
    source: `src/tools/${name}.ts#${name}`,
    inputSchema: {
      mcp: {
        type: 'object',
        properties: Object.fromEntries(fields.map((field) => [field, { type: 'string' }])),
      },
    },
  } as unknown as ManifestTool;
}

/** The definition, written plainly: each pair's cosine over term → weight maps. */
function similarPairs(tools: readonly ManifestTool[], threshold: number): string[] {
  const vectors = tools.map((one) => {
    const vector = new Map<string, number>();
    for (const { text, weight } of searchFields(one))
      for (const term of searchTerms(text)) vector.set(term, (vector.get(term) ?? 0) + weight);
    return vector;
  });
  const norm = (vector: Map<string, number>) => Math.hypot(...vector.values());
  const pairs: string[] = [];
  vectors.forEach((left, a) => {
    vectors.slice(a + 1).forEach((right, offset) => {
      let dot = 0;
      for (const [term, value] of left) dot += value * (right.get(term) ?? 0);
      const similarity = dot / (norm(left) * norm(right) || 1);
      // Away from the threshold by more than rounding: the two sums may differ in the last place.
      if (similarity >= threshold + 1e-9) pairs.push(`${tools[a]?.name} ${tools[a + 1 + offset]?.name}`);
    });
  });
  return pairs;
}

const warnedPairs = (tools: readonly ManifestTool[], threshold: number) =>
  checkFindability(tools, { rankers: [], similar: threshold }).warnings.map(
    (warning) => `${warning.tool} ${/"([^"]+)"'s/.exec(warning.message)?.[1]}`,
  );

describe('similar search documents', () => {
  test('two tools that say the same are warned of, naming both and how alike they are', () => {
    const tools = [
      tool('list_notes', 'List the notes of a user.', ['user']),
      tool('list_user_notes', 'List the notes of a user.', ['user']),
      tool('delete_tag', 'Delete a tag by id.', ['id']),
    ];
    const { warnings } = checkFindability(tools, { rankers: [], similar: 0.8 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      severity: 'warning',
      code: 'similar-search-documents',
      tool: 'list_notes',
    });
    expect(warnings[0]?.message).toMatch(/^its search document and "list_user_notes"'s are \d+% alike/);
  });

  test(`the pairs warned of are those the cosine of their term weights puts at the threshold or over (${RUNS} random sets)`, () => {
    const words = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(words, fc.array(fc.constantFrom(...WORDS), { maxLength: 3 })), {
          minLength: 2,
          maxLength: 8,
        }),
        fc.double({ min: 0.3, max: 1, noNaN: true }),
        (specs, threshold) => {
          const tools = specs.map(([description, fields], index) =>
            tool(`tool_${index}`, description.join(' '), fields),
          );
          const warned = warnedPairs(tools, threshold);
          // Every pair clearly over the threshold is warned of; any other warned pair is at it, within rounding.
          for (const pair of similarPairs(tools, threshold)) expect(warned).toContain(pair);
          for (const pair of warned) expect(similarPairs(tools, threshold - 2e-9)).toContain(pair);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
