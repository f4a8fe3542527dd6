import { REPEATED_SHOWN, repeatedTexts } from '../emit/repeated-text.js';
import { describeAccess } from '../manifest/access-text.js';
import type { Manifest, ManifestTool, Size } from '../manifest/manifest.js';
import { plural } from '../shared/build/plural.js';
import { profileChoicePhrases } from './outcome.js';

/** How `inspect` orders the tools in each group, and the groups: by name, or the largest first. */
export type ListingOrder = 'name' | 'size';

const NAME_WIDTH = 32;
const tokens = (count: number): string => `${String(count).padStart(7)} tokens`;

/**
 * `toolprep inspect` without a name: each tool with its size, under each of its groups with the
 * group's totals (a project without groups: one list), then the totals, what each client strategy
 * is sent before the first message, and the text the tools repeat with what it costs.
 */
export function surfaceListing(manifest: Manifest, order: ListingOrder = 'name'): string[] {
  const lines: string[] = [];
  const sorted = (tools: readonly ManifestTool[]): ManifestTool[] =>
    order === 'size' ? [...tools].sort((a, b) => b.size.tokens - a.size.tokens) : [...tools];
  const toolLine = (tool: ManifestTool, indent: string): string => {
    const deferred = tool.loading === 'deferred' ? '  deferred' : '';
    const also = (tool.groups?.length ?? 0) > 1 ? `  groups: ${tool.groups?.join(', ')}` : '';
    const access = tool.access ? `  ${describeAccess(tool.access)}` : '';
    return `${indent}${tool.name.padEnd(NAME_WIDTH - indent.length)} ${tokens(tool.size.tokens)}${deferred}  ${tool.source}${also}${access}`;
  };
  const groups = manifest.groups ?? [];
  if (groups.length === 0) for (const tool of sorted(manifest.tools)) lines.push(toolLine(tool, ''));
  else {
    const byName = new Map(manifest.tools.map((tool) => [tool.name, tool]));
    const shown = order === 'size' ? [...groups].sort((a, b) => b.size.tokens - a.size.tokens) : groups;
    for (const group of shown) {
      const members = group.tools.flatMap((name) => byName.get(name) ?? []);
      const described = group.description === undefined ? '' : `  ${group.description}`;
      lines.push(
        `${`${group.name} (${plural(members.length, 'tool')})`.padEnd(NAME_WIDTH)} ${tokens(group.size.tokens)}${described}`,
      );
      for (const tool of sorted(members)) lines.push(toolLine(tool, '  '));
    }
    // Every tool is in a group; one that is not must still be seen.
    const ungrouped = manifest.tools.filter((tool) => (tool.groups?.length ?? 0) === 0);
    if (ungrouped.length > 0) {
      lines.push(`${`in no group (${plural(ungrouped.length, 'tool')})`.padEnd(NAME_WIDTH)}`);
      for (const tool of sorted(ungrouped)) lines.push(toolLine(tool, '  '));
    }
  }
  lines.push(
    `${'total'.padEnd(NAME_WIDTH)} ${tokens(manifest.totals.tokens)}  ${plural(manifest.tools.length, 'tool')}${groups.length > 0 ? ` in ${plural(groups.length, 'group')}` : ''}`,
  );
  for (const [profile, size] of Object.entries(manifest.totals.profiles ?? {}))
    lines.push(`${`  as ${profile}`.padEnd(NAME_WIDTH)} ${tokens(size.tokens)}`);
  for (const phrase of profileChoicePhrases(manifest.tools)) lines.push(`  ${phrase}`);
  lines.push(...turnOneLines(manifest), ...repeatedLines(manifest));
  return lines;
}

/** Each strategy's first turn, with what it is made of. */
function turnOneLines(manifest: Manifest): string[] {
  const turnOne = manifest.totals.turnOne;
  const deferred = manifest.tools.filter((tool) => tool.loading === 'deferred').length;
  const eager = `${plural(manifest.tools.length - deferred, 'eager tool')} whole`;
  const row = (name: string, size: Size, made: string): string =>
    `${`  ${name}`.padEnd(NAME_WIDTH)} ${tokens(size.tokens)}  ${made}`;
  return [
    'turn one, what a client is sent before the first message:',
    row('everything', turnOne.everything, 'every tools/list entry whole'),
    row('deferred', turnOne.deferred, `${eager}, ${deferred} deferred by name and description`),
    ...(turnOne.groups
      ? [row('groups', turnOne.groups, `${eager}, ${plural(manifest.groups?.length ?? 0, 'group')} listed`)]
      : []),
  ];
}

/** The text the tools' documents repeat, costliest first. */
function repeatedLines(manifest: Manifest): string[] {
  const repeated = repeatedTexts(manifest.tools, REPEATED_SHOWN);
  if (repeated.length === 0) return [];
  return [
    'repeated text, costliest first (tokens in all, occurrences, tools, tokens each):',
    ...repeated.map(
      (text) =>
        `${tokens(text.tokens)}  ${`${text.occurrences}×`.padStart(5)} in ${plural(text.tools.length, 'tool')}, ${text.tokensEach} each  ${text.keyword} ${shortened(text.text)}`,
    ),
  ];
}

/** A text cut to one line of a terminal, its start and its end kept: patterns differ at either. */
function shortened(text: string, length = 80): string {
  const end = Math.floor(length / 3);
  return text.length > length ? `${text.slice(0, length - end - 1)}…${text.slice(-end)}` : text;
}
