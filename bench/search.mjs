// Search prepared at build (issue 33 items 4 and 5), on fixtures/large-set: the index's bytes per
// tool and query time, each client's ranker's hit@k on the fixture's intents, and what each part
// of toolprep's own index buys. Returns Markdown.
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { linkPackages } from '../scripts/packages.mjs';
import { REPO, stats } from './contracts.mjs';

const dist = (file) => path.join(REPO, 'packages/build/dist/src', file);

/** The fixture's tools as generated with `search: {}`, each with its intents, and the module text. */
async function generatedFixture() {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-bench-search-'));
  cpSync(path.join(REPO, 'fixtures/large-set'), dir, { recursive: true });
  linkPackages(dir);
  symlinkSync(path.join(REPO, 'node_modules/zod'), path.join(dir, 'node_modules/zod'), 'dir');
  try {
    const { generate } = await import(dist('generate/generate.js'));
    const result = await generate({ root: dir, cache: false, inline: { search: {} } });
    if (result.problems.length > 0)
      throw new Error(`large-set did not generate: ${result.problems[0].message}`);
    const tools = result.manifest.tools;
    if (tools.some((tool) => !tool.intents))
      throw new Error('large-set: every contract should carry intents');
    const module = result.files.find((file) => file.path === result.config.module).text;
    return { tools, module, turnOne: result.manifest.totals.turnOne };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const percent = (part, whole) => `${((100 * part) / whole).toFixed(1)}%`;

/** hit@1/3/5/8 and misses at the client's own k, from each intent's rank (undefined: not found). */
function hitRow(label, ranks, top) {
  const within = (k) => ranks.filter((rank) => rank !== undefined && rank <= k).length;
  const missing = ranks.filter((rank) => rank === undefined).length;
  return `| ${label} | ${[1, 3, 5, 8].map((k) => percent(within(k), ranks.length)).join(' | ')} | ${top} | ${ranks.length - within(top)} | ${missing} |`;
}

/** Okapi BM25 (k1 1.2, b 0.75) over weighted fields with a given tokenizer: the ablations. */
function bm25Ranks(tools, fieldsOf, tokenize) {
  const documents = tools.map((tool) => {
    const counts = new Map();
    let length = 0;
    for (const { text, weight } of fieldsOf(tool))
      for (const term of tokenize(text)) {
        counts.set(term, (counts.get(term) ?? 0) + weight);
        length += weight;
      }
    return { counts, length };
  });
  const average = documents.reduce((sum, document) => sum + document.length, 0) / documents.length;
  const containing = new Map();
  for (const { counts } of documents)
    for (const term of counts.keys()) containing.set(term, (containing.get(term) ?? 0) + 1);
  const ranks = [];
  tools.forEach((tool, position) => {
    for (const intent of tool.intents) {
      const terms = [...new Set(tokenize(intent))];
      const scores = documents.map(({ counts, length }) =>
        terms.reduce((score, term) => {
          const tf = counts.get(term) ?? 0;
          if (tf === 0) return score;
          const n = containing.get(term);
          const idf = Math.log(1 + (documents.length - n + 0.5) / (n + 0.5));
          return score + (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * length) / average));
        }, 0),
      );
      const own = scores[position];
      ranks.push(
        own > 0
          ? 1 + scores.filter((score, at) => score > own || (score === own && at < position)).length
          : undefined,
      );
    }
  });
  return ranks;
}

export async function benchmarkSearch({ quick }) {
  const { tools, module, turnOne } = await generatedFixture();
  const { checkFindability } = await import(dist('generate/findability/check.js'));
  const { searchFields, SEARCH_WEIGHTS } = await import(dist('prepare/search-index.js'));
  const { searchTerms } = await import(dist('manifest/search-index.js'));
  const { porter2 } = await import(dist('generate/findability/porter2.js'));
  const { searchTools } = await import(dist('runtime/index.js'));
  const { MANIFEST_FORMAT } = await import(dist('manifest/manifest.js'));

  // Bytes: the index as the module carries it (a JSON string literal), per tool, and gzipped.
  const literal = /\n {4}index: ("(?:[^"\\]|\\.)*"),/.exec(module)[1];
  const index = JSON.parse(literal);
  const count = tools.length;
  const moduleBytes = Buffer.byteLength(module);
  const indexBytes = Buffer.byteLength(literal);
  const gzipped = gzipSync(index).length;

  // Query time: the first search parses the index; the rest reuse it.
  const toolSet = { format: MANIFEST_FORMAT, prepared: tools, load: {}, adapters: [], search: { index } };
  const queries = tools.flatMap((tool) => tool.intents);
  const first = performance.now();
  searchTools(toolSet, queries[0]);
  const firstMs = performance.now() - first;
  const rounds = quick ? 3 : 15;
  const times = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    for (const query of queries) searchTools(toolSet, query);
    times.push((performance.now() - started) / queries.length);
  }
  const query = stats(times);

  // Findability per ranker, at the ranker's own k.
  const { ranks, rankers, warnings } = checkFindability(tools, {
    rankers: ['toolprep', 'ai-sdk', 'codex', 'claude-code'],
    similar: 0.8,
  });
  const rows = rankers.map((ranker) =>
    hitRow(
      `${ranker.name}: ${ranker.label}`,
      ranks.filter((rank) => rank.ranker === ranker.name).map((rank) => rank.rank),
      ranker.top,
    ),
  );

  // What each part of toolprep's index buys, one change at a time from BM25 over name and description.
  const fold = (word) =>
    word.length <= 3 || !word.endsWith('s') || word.endsWith('ss') || word.endsWith('us')
      ? word
      : word.endsWith('ies')
        ? `${word.slice(0, -3)}y`
        : word.slice(0, -1);
  const stopWords = new Set(
    'a an and are as at be by can do does for from has have how i in is it its me my of on or our so that the their them then there these this to was we what when where which who will with you your'.split(
      ' ',
    ),
  );
  const only = (weights) => (tool) => searchFields(tool, weights);
  // The ablation's BM25 must rank as the shipped index does, or its other rows mean nothing.
  const shipped = bm25Ranks(tools, only(SEARCH_WEIGHTS), searchTerms);
  const toolprepRanks = ranks.filter((rank) => rank.ranker === 'toolprep').map((rank) => rank.rank);
  if (JSON.stringify(shipped) !== JSON.stringify(toolprepRanks))
    throw new Error('bench/search.mjs: the ablation ranks otherwise than the shipped index');
  const none = {
    name: 0,
    title: 0,
    searchHint: 0,
    description: 0,
    arguments: 0,
    argumentDescriptions: 0,
    groups: 0,
  };
  const plain = { ...none, name: 1, description: 1 };
  const withArguments = { ...plain, title: 1, searchHint: 1, arguments: 1, argumentDescriptions: 1 };
  const ablations = [
    ['name and description, all weights 1', only(plain), searchTerms],
    ['+ title, searchHint, argument names and descriptions', only(withArguments), searchTerms],
    ['+ name, title and searchHint ×2 (toolprep index as shipped)', only(SEARCH_WEIGHTS), searchTerms],
    ['shipped, with group names', only({ ...SEARCH_WEIGHTS, groups: 1 }), searchTerms],
    ['shipped, with name ×3', only({ ...SEARCH_WEIGHTS, name: 3 }), searchTerms],
    [
      'shipped, with 48 stop words dropped',
      only(SEARCH_WEIGHTS),
      (text) => searchTerms(text).filter((word) => !stopWords.has(word)),
    ],
    [
      'shipped, with plurals folded (issues → issue)',
      only(SEARCH_WEIGHTS),
      (text) => searchTerms(text).map(fold),
    ],
    ['shipped, with Porter2 stems', only(SEARCH_WEIGHTS), (text) => searchTerms(text).map(porter2)],
  ].map(([label, fieldsOf, tokenize]) => hitRow(label, bm25Ranks(tools, fieldsOf, tokenize), 5));

  const header =
    '| ranker | hit@1 | hit@3 | hit@5 | hit@8 | client k | out of top k | not found |\n|---|---|---|---|---|---|---|---|';
  return `fixtures/large-set: ${count} tools, ${queries.length} intents (three per tool, written as a user asks, not in the tools' words), generated with \`search: {}\`.

### Turn one per client strategy

What a client is sent before the first message (\`totals.turnOne\`, o200k_base tokens), every tool deferred by size:

| strategy | what is sent | bytes | tokens |
|---|---|---|---|
${[
  ['everything', 'every `tools/list` entry whole'],
  ['deferred', 'eager tools whole, each deferred tool by name and description'],
  ['groups', 'eager tools whole and the `groups/list` answer'],
]
  .map(
    ([strategy, what]) =>
      `| ${strategy} | ${what} | ${turnOne[strategy].bytes.toLocaleString('en')} | ${turnOne[strategy].tokens.toLocaleString('en')} |`,
  )
  .join('\n')}

### The index in the generated module

| | bytes | per tool |
|---|---|---|
| generated module | ${moduleBytes.toLocaleString('en')} | ${Math.round(moduleBytes / count).toLocaleString('en')} |
| search index (JSON string literal) | ${indexBytes.toLocaleString('en')} (${percent(indexBytes, moduleBytes)} of the module) | ${Math.round(indexBytes / count)} |
| search index, gzipped | ${gzipped.toLocaleString('en')} | ${Math.round(gzipped / count)} |

Query time (\`searchTools\`, top 5, over the ${queries.length} intents): first search, parsing the index, ${firstMs.toFixed(2)} ms; then ${(query.median * 1000).toFixed(1)} µs per query (${(query.min * 1000).toFixed(1)}–${(query.max * 1000).toFixed(1)}), ${rounds} rounds.

### Findability per ranker (\`toolprep check\`)

Where each intent's tool comes when the intent is the query. "client k": how many results that client's search answers with; "out of top k" is what \`toolprep check\` fails on by default.

${header}
${rows.join('\n')}

Near-duplicate search documents warned about (cosine ≥ 0.8 of the weighted terms): ${warnings.length} pairs${warnings.length > 0 ? ` (${warnings.map((warning) => `${warning.tool}/${/"([^"]+)"/.exec(warning.message)[1]}`).join(', ')})` : ''}.

### What each part of toolprep's index buys (BM25, k 5)

${header}
${ablations.join('\n')}`;
}
