import type { PreparedTool } from '../manifest/prepared-tool.js';
import { type SearchIndex, searchTerms } from '../manifest/search-index.js';
import { isRecord } from '../shared/run/is-record.js';

/**
 * How much each field of a tool counts in its search document: a term in the name counts as two in
 * the description. Measured on fixtures/large-set's 534 intents (bench/ANALYSIS.md): the arguments'
 * names and descriptions lift hit@5 by 9 points, the name's double weight a little more.
 */
export interface SearchWeights {
  readonly name: number;
  readonly title: number;
  readonly searchHint: number;
  readonly description: number;
  /** The input's top-level argument names. */
  readonly arguments: number;
  /** Their descriptions. */
  readonly argumentDescriptions: number;
  /** The tool's group names: 0 as shipped, since on large-set they ranked intents a little lower. */
  readonly groups: number;
}

export const SEARCH_WEIGHTS: SearchWeights = {
  name: 2,
  title: 2,
  searchHint: 2,
  description: 1,
  arguments: 1,
  argumentDescriptions: 1,
  groups: 0,
};

/** BM25's parameters: the usual Okapi values, the ones Codex and Anthropic's documentation name. */
const K1 = 1.2;
const B = 0.75;

/** A tool's search document: each field's text with its weight. */
export function searchFields(
  tool: PreparedTool,
  weights: SearchWeights = SEARCH_WEIGHTS,
): { readonly text: string; readonly weight: number }[] {
  const properties = tool.inputSchema.mcp.properties;
  const args = isRecord(properties) ? Object.entries(properties) : [];
  const fields = [
    { text: tool.name, weight: weights.name },
    { text: tool.title ?? '', weight: weights.title },
    { text: tool.searchHint ?? '', weight: weights.searchHint },
    { text: tool.description, weight: weights.description },
    { text: args.map(([key]) => key).join(' '), weight: weights.arguments },
    {
      text: args
        .map(([, schema]) =>
          isRecord(schema) && typeof schema.description === 'string' ? schema.description : '',
        )
        .join(' '),
      weight: weights.argumentDescriptions,
    },
    { text: (tool.groups ?? []).join(' '), weight: weights.groups },
  ];
  return fields.filter((field) => field.weight > 0 && field.text !== '');
}

/** The index of these tools, in this order (the generated module's, by name). */
export function buildSearchIndex(
  tools: readonly PreparedTool[],
  weights: SearchWeights = SEARCH_WEIGHTS,
): SearchIndex {
  const postings = new Map<string, number[]>();
  const lengths = tools.map((tool, document) => {
    const frequencies = new Map<string, number>();
    let length = 0;
    for (const { text, weight } of searchFields(tool, weights))
      for (const term of searchTerms(text)) {
        frequencies.set(term, (frequencies.get(term) ?? 0) + weight);
        length += weight;
      }
    for (const [term, frequency] of frequencies) {
      const list = postings.get(term) ?? [];
      list.push(document, frequency);
      postings.set(term, list);
    }
    return length;
  });
  return {
    k1: K1,
    b: B,
    lengths,
    postings: Object.fromEntries([...postings].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}
