import type { PreparedTool } from '../../manifest/prepared-tool.js';
import type { Ranker } from './ranking.js';

/**
 * The AI SDK 7's `toolSearch()` default search, exactly (`ai@7.0.173`,
 * src/tool-search/prepare-tool-search.ts): words of the name and description, camelCase and `_`
 * split; each distinct query word scores 2 if it is a name word and 1 if a description word;
 * tools scoring 0 are left out; ties keep registration order (the generated module's, by name).
 */
export function tokenizeLikeAiSdk(text: string): string[] {
  return (
    text
      .replace(/([a-z\d])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

export function aiSdkRanker(tools: readonly PreparedTool[]): Ranker {
  const documents = tools.map((tool) => ({
    name: new Set(tokenizeLikeAiSdk(tool.name)),
    description: new Set(tokenizeLikeAiSdk(tool.description)),
  }));
  return {
    name: 'ai-sdk',
    label: 'AI SDK 7 toolSearch() (exact)',
    top: 5,
    ties: 'order',
    scores(query) {
      const terms = [...new Set(tokenizeLikeAiSdk(query))];
      return documents.map(({ name, description }) =>
        terms.reduce((score, term) => score + (name.has(term) ? 2 : 0) + (description.has(term) ? 1 : 0), 0),
      );
    },
  };
}
