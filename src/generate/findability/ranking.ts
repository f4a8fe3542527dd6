import type { PreparedTool } from '../../manifest/prepared-tool.js';
import { rankSearchIndex } from '../../manifest/search-index.js';
import { buildSearchIndex } from '../../prepare/search-index.js';

/** A client's tool search, reproduced: a score per tool for a query, and how many results it shows. */
export interface Ranker {
  readonly name: string;
  /** What it reproduces, and how exactly. */
  readonly label: string;
  /** How many tools the client's search answers with by default. */
  readonly top: number;
  /** `order`: ties keep the tools' order (a stable sort); `band`: in any order, so a tie counts against. */
  readonly ties: 'order' | 'band';
  /** Each tool's score, by position; 0 is no match (left out of the answer). */
  scores(query: string): readonly number[];
}

/** toolprep's own index (config `search`), as `searchTools` ranks it. */
export function toolprepRanker(tools: readonly PreparedTool[]): Ranker {
  const index = buildSearchIndex(tools);
  return {
    name: 'toolprep',
    label: 'toolprep search index (BM25, weighted fields)',
    top: 5,
    ties: 'order',
    scores(query) {
      const scores = new Array<number>(tools.length).fill(0);
      for (const { document, score } of rankSearchIndex(index, query, tools.length)) scores[document] = score;
      return scores;
    },
  };
}

/** Where a tool comes in a ranker's answer to a query, from 1; undefined when it is not in the answer at all. */
export function rankOf(ranker: Ranker, scores: readonly number[], position: number): number | undefined {
  const own = scores[position] as number;
  if (!(own > 0)) return undefined;
  let rank = 1;
  scores.forEach((score, at) => {
    if (at === position) return;
    if (score > own || (score === own && (ranker.ties === 'band' || at < position))) rank++;
  });
  return rank;
}
