import type { PreparedTool } from '../../manifest/prepared-tool.js';
import { isRecord } from '../../shared/run/is-record.js';
import { porter2 } from './porter2.js';
import type { Ranker } from './ranking.js';

/**
 * Codex's `tool_search`, reproduced from openai/codex (`build_mcp_search_text` in
 * core/src/tools/handlers, limit 8 in tools/src/tool_discovery.rs) and the `bm25` crate it runs:
 * Okapi BM25 (k1 1.2, b 0.75, idf ln(1 + (N − n + 0.5)/(n + 0.5)), a repeated query word counted
 * again) over the flat name, the callable and MCP names, the server's name, the title, the
 * description and the input's property keys, sorted. Its tokenizer: ASCII-folded, lower case,
 * Unicode word boundaries (UAX #29, so `create_issue` stays one word and `WEB-1423` is two),
 * NLTK's English stop words dropped, Snowball English stems. Codex gathers candidates in a hash
 * set, so its ties come out in any order: a tie counts against the tool. The server's name and
 * instructions (which Codex adds to every document) are not known at build time and are left out.
 */
const SERVER = 'server';

const STOP_WORDS = new Set(
  "i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself yourselves he him his himself she she's her hers herself it it's its itself they them their theirs themselves what which who whom this that that'll these those am is are was were be been being have has had having do does did doing a an the and but if or because as until while of at by for with about against between into through during before after above below to from up down in out on off over under again further then once here there when where why how all any both each few more most other some such no nor not only own same so than too very s t can will just don don't should should've now d ll m o re ve y ain aren aren't couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma mightn mightn't mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren weren't won won't wouldn wouldn't".split(
    ' ',
  ),
);

const words = new Intl.Segmenter('en', { granularity: 'word' });

export function tokenizeLikeCodex(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\u2018\u2019]/g, "'");
  return [...words.segment(folded.toLowerCase())]
    .filter((segment) => segment.isWordLike)
    .map((segment) => segment.segment)
    .filter((word) => !STOP_WORDS.has(word))
    .map(porter2);
}

function searchText(tool: PreparedTool): string {
  const properties = tool.inputSchema.mcp.properties;
  const keys = isRecord(properties) ? Object.keys(properties).sort() : [];
  return [
    `mcp__${SERVER}__${tool.name}`,
    tool.name,
    tool.name,
    SERVER,
    tool.title ?? '',
    tool.description,
    ...keys,
  ]
    .filter(Boolean)
    .join(' ');
}

export function codexRanker(tools: readonly PreparedTool[]): Ranker {
  const documents = tools.map((tool) => {
    const terms = tokenizeLikeCodex(searchText(tool));
    const frequencies = new Map<string, number>();
    for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    return { frequencies, length: terms.length };
  });
  const average =
    documents.reduce((sum, document) => sum + document.length, 0) / Math.max(documents.length, 1);
  const containing = new Map<string, number>();
  for (const { frequencies } of documents)
    for (const term of frequencies.keys()) containing.set(term, (containing.get(term) ?? 0) + 1);
  const count = documents.length;
  return {
    name: 'codex',
    label: 'Codex tool_search (BM25 k1 1.2, b 0.75)',
    top: 8,
    ties: 'band',
    scores(query) {
      const terms = tokenizeLikeCodex(query);
      return documents.map(({ frequencies, length }) => {
        let score = 0;
        for (const term of terms) {
          const tf = frequencies.get(term) ?? 0;
          if (tf === 0) continue;
          const n = containing.get(term) ?? 0;
          const idf = Math.log(1 + (count - n + 0.5) / (n + 0.5));
          score += (idf * tf * (1.2 + 1)) / (tf + 1.2 * (1 - 0.75 + (0.75 * length) / average));
        }
        return score;
      });
    },
  };
}
