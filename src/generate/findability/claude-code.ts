import type { PreparedTool } from '../../manifest/prepared-tool.js';
import { escapeRegExp } from '../../shared/run/escape-reg-exp.js';
import type { Ranker } from './ranking.js';

/**
 * Claude Code's `ToolSearch` keyword scorer for MCP tools, as reconstructed from deminified
 * 2.1.88–2.1.183 builds (not published by Anthropic; an approximation, labelled so). A tool is
 * `mcp__<server>__<tool>`; per query word: a whole name part +12, else a part containing it +6; the
 * tool or server name equal to it +12, else containing it +4; the full name containing it +3 when
 * nothing else matched; a whole word of `searchHint` +4, of the description +2. Five results.
 */
const SERVER = 'server';

export function claudeCodeRanker(tools: readonly PreparedTool[]): Ranker {
  const documents = tools.map((tool) => {
    const coarse = [SERVER, tool.name.toLowerCase()];
    return {
      full: `mcp__${SERVER}__${tool.name}`.toLowerCase(),
      coarse,
      parts: coarse.flatMap((part) => part.split(/[\s_.]+/)).filter(Boolean),
      hint: (tool.searchHint ?? '').toLowerCase(),
      description: tool.description.toLowerCase(),
    };
  });
  return {
    name: 'claude-code',
    label: 'Claude Code ToolSearch (approximate: reconstructed weights)',
    top: 5,
    ties: 'order',
    scores(query) {
      const terms = query
        .toLowerCase()
        .split(/\s+/)
        .map((term) => term.replace(/^\+/, ''))
        .filter(Boolean);
      return documents.map((document) => {
        let total = 0;
        for (const term of terms) {
          let score = 0;
          if (document.parts.includes(term)) score += 12;
          else if (document.parts.some((part) => part.includes(term))) score += 6;
          if (document.coarse.includes(term)) score += 12;
          else if (document.coarse.some((part) => part.includes(term))) score += 4;
          if (score === 0 && document.full.includes(term)) score += 3;
          const word = new RegExp(`\\b${escapeRegExp(term)}\\b`);
          if (word.test(document.hint)) score += 4;
          if (word.test(document.description)) score += 2;
          total += score;
        }
        return total;
      });
    },
  };
}
