import type { PreparedTool } from '../manifest/prepared-tool.js';
import type { ProfileName } from '../manifest/profiles.js';
import { type PreparedSearch, rankSearchIndex, type SearchIndex } from '../manifest/search-index.js';
import type { PreparedToolSet } from '../manifest/tool-set.js';
import type { JsonSchema } from '../shared/json-schema/schema.js';
import { isRecord } from '../shared/run/is-record.js';
import { Failure } from './call-failure.js';
import { type Audience, isVisibleTo } from './visibility.js';

export interface SearchToolsOptions {
  /** How many tools at most. Default 5, as Claude Code's and the AI SDK's searches answer. */
  readonly limit?: number;
  /** Leave out the tools this profile leaves out. */
  readonly profile?: ProfileName;
  /** Leave out the tools this audience does not see (`isVisibleTo`): a search names no hidden tool. */
  readonly audience?: Audience;
}

/** A tool a search found: its name, the first sentence of its description, and its BM25 score. */
export interface FoundTool {
  readonly name: string;
  readonly summary: string;
  readonly score: number;
}

const parsed = new WeakMap<PreparedSearch, SearchIndex>();

/**
 * The tools of a generated module that best match a query, by the index built with it (config
 * `search`): parsed on the first search, never rebuilt. Throws for a tool set generated without
 * `search`.
 */
export function searchTools(
  toolSet: PreparedToolSet,
  query: string,
  options: SearchToolsOptions = {},
): FoundTool[] {
  if (!toolSet.search)
    throw new Error(
      '[toolprep] this tool set has no search index: set search: {} in toolprep.config.ts and regenerate',
    );
  return found(toolSet.search, toolSet.prepared, query, options);
}

function found(
  search: PreparedSearch,
  tools: readonly PreparedTool[],
  query: string,
  { limit = 5, profile, audience }: SearchToolsOptions,
): FoundTool[] {
  let index = parsed.get(search);
  if (!index) {
    index = JSON.parse(search.index) as SearchIndex;
    parsed.set(search, index);
  }
  const kept = (tool: PreparedTool) =>
    (profile === undefined || tool.excludedFrom?.[profile] === undefined) &&
    (audience === undefined || isVisibleTo(tool, audience));
  // Ranked past the limit, so that tools left out do not shorten the answer.
  const filtered = profile !== undefined || audience !== undefined;
  return rankSearchIndex(index, query, filtered ? tools.length : limit)
    .flatMap(({ document, score }) => {
      const tool = tools[document];
      return tool && kept(tool) ? [{ name: tool.name, summary: summaryOf(tool.description), score }] : [];
    })
    .slice(0, limit);
}

/** The first sentence, at most 200 characters: what a catalog entry shows (SEP-2636's advice). */
function summaryOf(description: string): string {
  const sentence = /^[\s\S]*?[.!?](?=\s|$)/.exec(description)?.[0] ?? description;
  return sentence.length <= 200 ? sentence : `${sentence.slice(0, 199)}…`;
}

/** What `search_tools` answers: the matches, and the definitions to load, in the caller's dialect. */
export interface SearchAnswer {
  readonly tools: readonly { readonly name: string; readonly description: string }[];
  readonly definitions: readonly {
    readonly name: string;
    readonly description: string;
    readonly inputSchema: JsonSchema;
  }[];
}

const LIMIT_MAX = 20;

/**
 * A call of `search_tools`: its arguments checked here (the tool has no contract to load), then the
 * search. A call through a profile gets that profile's documents, and `null` for `limit` is absent.
 */
export function answerSearch(
  search: PreparedSearch,
  tools: readonly PreparedTool[],
  args: unknown,
  profile: ProfileName | undefined,
  audience: Audience | undefined,
): SearchAnswer | Failure {
  const issues: { path: string[]; message: string }[] = [];
  const given = isRecord(args) ? args : {};
  if (!isRecord(args)) issues.push({ path: [], message: 'expected an object with a "query" string' });
  const { query, limit = null, ...stray } = given;
  if (typeof query !== 'string' || query.trim() === '')
    issues.push({ path: ['query'], message: 'query: expected words to search for' });
  if (
    limit !== null &&
    !(Number.isInteger(limit) && (limit as number) >= 1 && (limit as number) <= LIMIT_MAX)
  )
    issues.push({ path: ['limit'], message: `limit: expected a whole number from 1 to ${LIMIT_MAX}` });
  for (const key of Object.keys(stray)) issues.push({ path: [key], message: `${key}: unknown argument` });
  if (issues.length > 0)
    return new Failure({
      code: 'VALIDATION_ERROR',
      message: `Invalid arguments for ${search.tool?.name}: ${issues.map((issue) => issue.message).join('; ')}`,
      issues,
    });
  const matches = found(search, tools, query as string, {
    ...(limit === null ? {} : { limit: limit as number }),
    ...(profile === undefined ? {} : { profile }),
    ...(audience === undefined ? {} : { audience }),
  });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return {
    tools: matches.map(({ name, summary }) => ({ name, description: summary })),
    definitions: matches.map(({ name }) => {
      const tool = byName.get(name) as PreparedTool;
      const document = profile === undefined ? undefined : tool.profiles?.[profile];
      return {
        name,
        description: tool.description,
        inputSchema: document ? document.inputSchema : tool.inputSchema.mcp,
      };
    }),
  };
}
