import type { PreparedTool } from '../manifest/prepared-tool.js';
import { tokensOf } from '../shared/build/tokens.js';
import { isSchemaObject } from '../shared/json-schema/schema.js';
import { walkSchema } from '../shared/json-schema/walk.js';

/** A keyword's value that the tools' documents repeat, and what the repeats cost in all. */
export interface RepeatedText {
  /** The keyword it is the value of: `description`, `pattern`, `enum`… */
  readonly keyword: string;
  /** The value as JSON, as `tools/list` sends it. */
  readonly text: string;
  readonly occurrences: number;
  /** The tools it is in, by name, each once. */
  readonly tools: readonly string[];
  /** Tokens (o200k_base) of one occurrence. */
  readonly tokensEach: number;
  /** Of every occurrence: what the text costs the surface. */
  readonly tokens: number;
}

/** How many repeated texts `inspect` and the report page show: the costliest. */
export const REPEATED_SHOWN = 10;

/**
 * The keywords whose values are written by a person or a library and copied from field to field:
 * a shared description, a format's pattern (`z.iso.datetime()`'s), a status enum. Type names and
 * other one-word keywords cost a token or two and say nothing to act on.
 */
const TEXT_KEYWORDS = ['description', 'title', 'pattern', 'enum', 'examples'] as const;

/**
 * The texts the tools' input and output documents (as `tools/list` sends them) hold more than
 * once, the costliest in all first (then by text), at most `limit`.
 */
export function repeatedTexts(tools: readonly PreparedTool[], limit: number): RepeatedText[] {
  const found = new Map<string, { keyword: string; text: string; occurrences: number; tools: Set<string> }>();
  for (const tool of tools)
    for (const document of [tool.inputSchema.mcp, tool.outputSchema]) {
      if (!isSchemaObject(document)) continue;
      walkSchema(document, (node) => {
        for (const keyword of TEXT_KEYWORDS) {
          const value = node[keyword];
          if (typeof value !== 'string' && !Array.isArray(value)) continue;
          const text = JSON.stringify(value);
          const key = `${keyword}\u0000${text}`;
          const entry = found.get(key) ?? { keyword, text, occurrences: 0, tools: new Set<string>() };
          entry.occurrences += 1;
          entry.tools.add(tool.name);
          found.set(key, entry);
        }
        return undefined;
      });
    }
  return [...found.values()]
    .filter((entry) => entry.occurrences > 1)
    .map(({ keyword, text, occurrences, tools: names }) => {
      const tokensEach = tokensOf(text);
      return { keyword, text, occurrences, tools: [...names], tokensEach, tokens: occurrences * tokensEach };
    })
    .sort((a, b) => b.tokens - a.tokens || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .slice(0, limit);
}
