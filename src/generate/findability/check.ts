import type { FINDABILITY_RANKERS, ResolvedToolprepConfig } from '../../config/options.js';
import type { ManifestTool } from '../../manifest/manifest.js';
import type { PreparedTool } from '../../manifest/prepared-tool.js';
import { searchTerms } from '../../manifest/search-index.js';
import { searchFields } from '../../prepare/search-index.js';
import type { Problem } from '../../shared/build/problems.js';
import { aiSdkRanker } from './ai-sdk.js';
import { claudeCodeRanker } from './claude-code.js';
import { codexRanker } from './codex.js';
import { type Ranker, rankOf, toolprepRanker } from './ranking.js';

type RankerName = (typeof FINDABILITY_RANKERS)[number];
type FindabilityOptions = ResolvedToolprepConfig['findability'];

const RANKERS: { readonly [Name in RankerName]: (tools: readonly PreparedTool[]) => Ranker } = {
  toolprep: toolprepRanker,
  'ai-sdk': aiSdkRanker,
  codex: codexRanker,
  'claude-code': claudeCodeRanker,
};

/** One intent under one ranker: where its tool came (undefined: not in the answer at all). */
interface IntentRank {
  readonly tool: string;
  readonly intent: string;
  readonly ranker: string;
  readonly rank: number | undefined;
  readonly top: number;
}

export interface Findability {
  readonly ranks: readonly IntentRank[];
  /** An intent whose tool falls out of a ranker's top k. */
  readonly problems: readonly Problem[];
  /** Pairs of tools whose search documents nearly coincide. */
  readonly warnings: readonly Problem[];
  readonly rankers: readonly Ranker[];
}

/**
 * Ranks every intent of every tool under each chosen ranker, over the tools in the order a client
 * is given them (the manifest's, by name), and compares the tools' search documents pairwise.
 */
export function checkFindability(tools: readonly ManifestTool[], options: FindabilityOptions): Findability {
  const rankers = options.rankers.map((name) => RANKERS[name](tools));
  const ranks: IntentRank[] = [];
  const problems: Problem[] = [];
  tools.forEach((tool, position) => {
    for (const intent of tool.intents ?? [])
      for (const ranker of rankers) {
        const rank = rankOf(ranker, ranker.scores(intent), position);
        const top = options.top ?? ranker.top;
        ranks.push({ tool: tool.name, intent, ranker: ranker.name, rank, top });
        if (rank !== undefined && rank <= top) continue;
        problems.push({
          severity: 'error',
          code: 'intent-not-found',
          tool: tool.name,
          field: 'intents',
          file: tool.source.split('#')[0],
          message: `intent "${intent}" ${rank === undefined ? 'is not found' : `ranks ${rank}`} under ${ranker.name}, outside its top ${top} (${ranker.label})`,
          hint: 'put the words of such requests in the name, the description or searchHint, or set findability.rankers',
        });
      }
  });
  return { ranks, problems, warnings: similarDocuments(tools, options.similar), rankers };
}

/** Pairs of tools whose weighted search terms have a cosine similarity of `threshold` or more. */
function similarDocuments(tools: readonly ManifestTool[], threshold: number): Problem[] {
  // Each document a vector of term weights, its terms numbered and sorted, so that each of the
  // n² / 2 dot products is one merge of two arrays (a map lookup per term took 66 ms at 180 tools).
  const numbers = new Map<string, number>();
  const vectors = tools.map((tool) => {
    const weights = new Map<number, number>();
    for (const { text, weight } of searchFields(tool))
      for (const term of searchTerms(text)) {
        let number = numbers.get(term);
        if (number === undefined) {
          number = numbers.size;
          numbers.set(term, number);
        }
        weights.set(number, (weights.get(number) ?? 0) + weight);
      }
    const terms = Int32Array.from(weights.keys()).sort();
    const values = Float64Array.from(terms, (term) => weights.get(term) ?? 0);
    const norm = Math.sqrt(values.reduce((sum, value) => sum + value * value, 0));
    return { terms, values, norm };
  });
  const warnings: Problem[] = [];
  for (let a = 0; a < tools.length; a++)
    for (let b = a + 1; b < tools.length; b++) {
      const [left, right] = [vectors[a], vectors[b]] as [(typeof vectors)[number], (typeof vectors)[number]];
      let dot = 0;
      for (let i = 0, j = 0; i < left.terms.length && j < right.terms.length; ) {
        const one = left.terms[i] as number;
        const other = right.terms[j] as number;
        if (one === other) dot += (left.values[i++] as number) * (right.values[j++] as number);
        else if (one < other) i++;
        else j++;
      }
      const similarity = dot / (left.norm * right.norm || 1);
      if (similarity < threshold) continue;
      const [first, second] = [tools[a], tools[b]] as [ManifestTool, ManifestTool];
      warnings.push({
        severity: 'warning',
        code: 'similar-search-documents',
        tool: first.name,
        message: `its search document and "${second.name}"'s are ${Math.round(similarity * 100)}% alike: a search for one may return the other`,
        hint: 'say in each description what sets it apart, or merge the two tools',
      });
    }
  return warnings;
}
