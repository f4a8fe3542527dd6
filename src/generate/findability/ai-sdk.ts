import type { PreparedTool } from '../../manifest/prepared-tool.js';
import { searchTerms } from '../../manifest/search-index.js';
import type { Ranker } from './ranking.js';

/**
 * The AI SDK 7's `toolSearch()` default search, exactly (`ai@7.0.173`,
 * src/tool-search/prepare-tool-search.ts): words of the name and description, camelCase and `_`
 * split (its `tokenize` is toolprep's `searchTerms`, the same expression); each distinct query
 * word scores 2 if it is a name word and 1 if a description word; tools scoring 0 are left out;
 * ties keep registration order (the generated module's, by name).
 */
export function aiSdkRanker(tools: readonly PreparedTool[]): Ranker {
  const documents = tools.map((tool) => ({
    name: new Set(searchTerms(tool.name)),
    description: new Set(searchTerms(tool.description)),
  }));
  return {
    name: 'ai-sdk',
    label: 'AI SDK 7 toolSearch() (exact)',
    top: 5,
    ties: 'order',
    scores(query) {
      const terms = [...new Set(searchTerms(query))];
      return documents.map(({ name, description }) =>
        terms.reduce((score, term) => score + (name.has(term) ? 2 : 0) + (description.has(term) ? 1 : 0), 0),
      );
    },
  };
}
