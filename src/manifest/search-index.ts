import type { PreparedTool } from './prepared-tool.js';

/**
 * The search index the generated module carries (config `search`), built once at build time and
 * read by `searchTools` on the first search: Okapi BM25 over one document per tool, whose fields
 * were repeated by their weight (name words count twice, the description once), so a term's
 * weighted frequency and each document's weighted length are all a query needs. Documents are the
 * tool set's `prepared`, in order. docs/guide/large-tool-sets.md says what each field weighs.
 */
export interface SearchIndex {
  readonly k1: number;
  readonly b: number;
  /** Each document's weighted length, by position in `prepared`. */
  readonly lengths: readonly number[];
  /** Per term: document position and weighted frequency, pairs flattened, positions ascending. */
  readonly postings: { readonly [term: string]: readonly number[] };
}

/** What the generated module carries for search: the index as JSON text, and the tool, if served. */
export interface PreparedSearch {
  /** `SearchIndex` as JSON text: a string costs nothing to load, and is parsed on the first search only. */
  readonly index: string;
  /** `search_tools`, prepared like any tool (config `search.tool`); absent when it is not served. */
  readonly tool?: PreparedTool;
}

/** The name the search tool is served under. */
export const SEARCH_TOOL_NAME = 'search_tools';

/**
 * The terms of a text, as the index and every query read it: camelCase and snake_case split, lower
 * case, runs of letters and digits. No stop words and no stemming: on fixtures/large-set's intents
 * both ranked the right tool lower (bench/ANALYSIS.md), BM25's idf already discounts common words.
 */
export function searchTerms(text: string): string[] {
  return (
    text
      .replace(/([a-z\d])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** A document's position in the index and its BM25 score for a query. */
export interface ScoredDocument {
  readonly document: number;
  readonly score: number;
}

/**
 * The documents that match a query's terms, best first (ties by position, which is by name), at
 * most `limit`. Each distinct term counts once: a repeated word in a query is not more wanted.
 */
export function rankSearchIndex(index: SearchIndex, query: string, limit: number): ScoredDocument[] {
  const count = index.lengths.length;
  if (count === 0) return [];
  const average = index.lengths.reduce((sum, length) => sum + length, 0) / count;
  const scores = new Map<number, number>();
  for (const term of new Set(searchTerms(query))) {
    const postings = Object.hasOwn(index.postings, term) ? index.postings[term] : undefined;
    if (!postings) continue;
    const frequency = postings.length / 2;
    const idf = Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
    for (let at = 0; at < postings.length; at += 2) {
      const document = postings[at] as number;
      const tf = postings[at + 1] as number;
      const norm = tf + index.k1 * (1 - index.b + (index.b * (index.lengths[document] as number)) / average);
      scores.set(document, (scores.get(document) ?? 0) + (idf * tf * (index.k1 + 1)) / norm);
    }
  }
  return [...scores]
    .map(([document, score]) => ({ document, score }))
    .sort((a, b) => b.score - a.score || a.document - b.document)
    .slice(0, limit);
}
