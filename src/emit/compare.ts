import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { Manifest, ManifestView } from '../manifest/manifest.js';
import type { ViewCsp } from '../manifest/tool-set.js';
import { digestOf } from '../shared/build/canonical-json.js';
import { type ComparedTool, compareSurfaces, describeComparison } from './surface-diff.js';
import { isViewFile } from './views.js';
import { type GeneratedFile, readText } from './write-files.js';

export interface StaleReport {
  /** The generated files whose bytes differ from the ones on disk, then the files `generate` would remove. */
  readonly stale: readonly string[];
  /**
   * What `toolprep check` prints: what changed in the tool surface (a change several tools share
   * once, with the first of their names), the tokens before and after, then the diff per tool and
   * per file, one diff for the tools that changed alike.
   */
  readonly text: string;
  /** The same with every tool named and every tool's diff: what `toolprep check --verbose` prints. */
  readonly verboseText: string;
}

/** How many of the tools that share a change `check` names, and how much of a value it shows. */
const SHARED_CHANGE = { toolsNamed: 6, valueLength: 160 };

/** Lines longer than this (the generated module's embedded JSON) are summarised in a diff, not printed. */
const LONGEST_PRINTED_LINE = 240;

/**
 * Compares generated files with the ones on disk and explains the difference, writing nothing.
 * `leftOver`: built views on disk that the generation no longer keeps, which `generate` removes.
 */
export async function compareWithDisk(
  root: string,
  files: readonly GeneratedFile[],
  manifest: { readonly path: string; readonly value: Manifest },
  leftOver: readonly string[] = [],
): Promise<StaleReport> {
  const compared = await Promise.all(
    files.map(async (file) => ({
      path: file.path,
      before: await readText(path.resolve(root, file.path)),
      after: file.text,
    })),
  );
  const stale = compared.filter((file) => file.before !== file.after);
  if (stale.length === 0 && leftOver.length === 0) return { stale: [], text: '', verboseText: '' };
  // The committed manifest was read above, with the other generated files.
  const committed = parseManifest(compared.find((file) => file.path === manifest.path)?.before);
  const tools = compareSurfaces(committed, manifest.value);
  const report = (verbose: boolean) => {
    const lines = [
      `[toolprep] check: the committed tool surface is stale: ${[...stale.map((file) => file.path), ...leftOver].join(', ')}`,
    ];
    const changes = describeComparison(tools, verbose ? {} : SHARED_CHANGE);
    if (changes.length > 0)
      lines.push('', 'What changed in the tool surface:', ...changes.map((line) => `  ${line}`));
    const views = describeViews(committed, manifest.value);
    if (views.length > 0) lines.push('', 'What changed in the views:', ...views.map((line) => `  ${line}`));
    if (leftOver.length > 0)
      lines.push(
        '',
        `Built views no longer kept (past views.keepVersions, or of a view that went), which \`toolprep generate\` removes:`,
        ...leftOver.map((file) => `  - ${file}`),
      );
    if (committed) lines.push(...describeTotals(committed, manifest.value));
    lines.push('', 'Run `toolprep generate` and commit the result.', '');
    // A built view is described above: its minified bytes make no diff a reader can use.
    for (const file of stale.filter((file) => !isViewFile(file.path))) {
      const patches =
        file.path === manifest.path && committed
          ? manifestPatches(file.path, tools, committed, manifest.value, verbose)
          : [patch(file.path, summariseLongLines(file.before ?? ''), summariseLongLines(file.after))];
      lines.push(...patches);
    }
    return lines.join('\n');
  };
  return {
    stale: [...stale.map((file) => file.path), ...leftOver],
    text: report(false),
    verboseText: report(true),
  };
}

/**
 * Each view whose current version changed, came or went, with the tools it is the view of: its
 * digest and bytes before and after, then what changed of what the host applies (its CSP by field,
 * its permissions, its border), one indented line each.
 */
function describeViews(before: Manifest | undefined, after: Manifest): string[] {
  const current = (manifest: Manifest | undefined) =>
    new Map((manifest?.views ?? []).filter((view) => view.current).map((view) => [view.name, view]));
  const was = current(before);
  const now = current(after);
  const names = [...new Set([...was.keys(), ...now.keys()])].sort();
  return names.flatMap((name) => {
    const old = was.get(name);
    const built = now.get(name);
    if (old?.digest === built?.digest) return [];
    const tools = toolsOfView(built ? after : (before as Manifest), (built ?? old) as ManifestView);
    const of = ` (${tools.length === 1 ? 'tool' : 'tools'} ${tools.join(', ')})`;
    if (!old) return [`+ view ${name}${of}: ${built?.uri} (${built?.bytes} bytes, from ${built?.source})`];
    if (!built) return [`- view ${name}${of}: ${old.uri}`];
    return [
      `~ view ${name}${of}: ${old.digest} → ${built.digest} (${old.bytes} → ${built.bytes} bytes, from ${built.source})`,
      ...describeHostChanges(old, built).map((line) => `    ${line}`),
    ];
  });
}

/** The tools a manifest links to a view's current version, sorted. */
function toolsOfView(manifest: Manifest, view: ManifestView): string[] {
  return manifest.tools
    .filter((tool) => tool.view?.resourceUri === view.uri)
    .map((tool) => tool.name)
    .sort();
}

/** What changed of what a host applies to a view's iframe: each CSP field's origins, permissions, border. */
function describeHostChanges(old: ManifestView, built: ManifestView): string[] {
  const listChange = (label: string, was: readonly string[], now: readonly string[]) => {
    const added = now.filter((item) => !was.includes(item)).map((item) => `+ ${item}`);
    const removed = was.filter((item) => !now.includes(item)).map((item) => `− ${item}`);
    return added.length + removed.length > 0 ? [`${label}: ${[...added, ...removed].join(', ')}`] : [];
  };
  const fields = [
    ...new Set([...Object.keys(old.csp), ...Object.keys(built.csp)]),
  ].sort() as (keyof ViewCsp)[];
  const lines = fields.flatMap((field) =>
    listChange(`csp.${field}`, old.csp[field] ?? [], built.csp[field] ?? []),
  );
  lines.push(
    ...listChange('permissions', Object.keys(old.permissions ?? {}), Object.keys(built.permissions ?? {})),
  );
  if (old.prefersBorder !== built.prefersBorder)
    lines.push(`prefersBorder: ${old.prefersBorder ?? 'unset'} → ${built.prefersBorder ?? 'unset'}`);
  return lines;
}

/** The tokens (o200k_base) of the whole surface as `tools/list` sends it, and as each profile does, before and after. */
function describeTotals(before: Manifest, after: Manifest): string[] {
  const change = (was: number | undefined, now: number | undefined) => {
    const number = (value: number | undefined) =>
      value === undefined ? 'none' : value.toLocaleString('en-US');
    const delta = (now ?? 0) - (was ?? 0);
    const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
    return `${number(was)} → ${number(now)} tokens (${sign}${Math.abs(delta).toLocaleString('en-US')})`;
  };
  const lines = [
    '',
    `Tokens of the whole surface, as tools/list sends it: ${change(before.totals?.tokens, after.totals.tokens)}`,
  ];
  const profiles = new Set([
    ...Object.keys(before.totals?.profiles ?? {}),
    ...Object.keys(after.totals.profiles ?? {}),
  ]);
  for (const profile of [...profiles].sort()) {
    const size = (manifest: Manifest) =>
      (manifest.totals?.profiles as Record<string, { tokens: number }> | undefined)?.[profile]?.tokens;
    lines.push(`  as ${profile}: ${change(size(before), size(after))}`);
  }
  // Turn one differs from the whole surface only once a tool is deferred or the set has groups.
  const turnOne = (manifest: Manifest) =>
    manifest.totals?.turnOne as Manifest['totals']['turnOne'] | undefined;
  const deferring = [before, after].some(
    (manifest) => turnOne(manifest) && turnOne(manifest)?.deferred.tokens !== manifest.totals.tokens,
  );
  if (deferring)
    lines.push(
      `  on turn one, deferred tools by name: ${change(turnOne(before)?.deferred.tokens, turnOne(after)?.deferred.tokens)}`,
    );
  if (turnOne(before)?.groups || turnOne(after)?.groups)
    lines.push(
      `  on turn one, groups only: ${change(turnOne(before)?.groups?.tokens, turnOne(after)?.groups?.tokens)}`,
    );
  return lines;
}

/**
 * The manifest's difference tool by tool, each tool against the one it was (so a rename is the
 * name's line, not the move the sorted manifest makes of it), then what changed beside the tools.
 * Unless verbose, the tools that changed alike (the same changes, none a rename) show one diff.
 */
function manifestPatches(
  file: string,
  tools: readonly ComparedTool[],
  before: Manifest,
  after: Manifest,
  verbose: boolean,
): string[] {
  const alike = toolsChangedAlike(tools);
  const patches = tools.flatMap((tool) => {
    const oldText = tool.before ? asInManifest(tool.before) : '';
    const newText = tool.after ? asInManifest(tool.after) : '';
    const name = tool.after?.name ?? tool.before?.name;
    if (oldText === newText) return [];
    const others = alike.get(tool) ?? [];
    if (verbose || others.length === 0) return [patch(`${file} (tool ${name})`, oldText, newText)];
    if (others[0] !== tool) return [];
    const more = others.length - 1;
    const note = `The diff of ${name}; the ${more === 1 ? 'other tool' : `${more} other tools`} that changed alike (${others
      .slice(1, 1 + SHARED_CHANGE.toolsNamed)
      .map((other) => other.after?.name)
      .join(
        ', ',
      )}${more > SHARED_CHANGE.toolsNamed ? ', …' : ''}) differ as it does; \`toolprep check --verbose\` prints each.`;
    return [`${note}\n${patch(`${file} (tool ${name})`, oldText, newText)}`];
  });
  const rest = (manifest: Manifest) => `${JSON.stringify({ ...manifest, tools: undefined }, null, 2)}\n`;
  if (rest(before) !== rest(after))
    patches.push(patch(`${file} (beside the tools)`, rest(before), rest(after)));
  return patches;
}

/** Each tool that changed as at least one other did (the same change keys, none a rename), with all of them, in order. */
function toolsChangedAlike(tools: readonly ComparedTool[]): Map<ComparedTool, ComparedTool[]> {
  const bySignature = new Map<string, ComparedTool[]>();
  for (const tool of tools) {
    if (tool.renamed || tool.changes.length === 0 || !tool.before || !tool.after) continue;
    const signature = tool.changes.map((change) => change.key).join('\u0001');
    bySignature.set(signature, [...(bySignature.get(signature) ?? []), tool]);
  }
  const alike = new Map<ComparedTool, ComparedTool[]>();
  for (const group of bySignature.values())
    if (group.length > 1) for (const tool of group) alike.set(tool, group);
  return alike;
}

/** A tool's entry as the manifest writes it, at its depth in the `tools` list. */
function asInManifest(tool: unknown): string {
  return `${JSON.stringify(tool, null, 2).replace(/^/gm, '    ')}\n`;
}

function patch(label: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${label}`, `b/${label}`, before, after, 'committed', 'generated').trimEnd();
}

/** Each line too long to read (the module's JSON) as its length and a digest, which still differ when it does. */
function summariseLongLines(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (line.length <= LONGEST_PRINTED_LINE) return line;
      return `${line.slice(0, 60)} … (a line of ${line.length.toLocaleString('en-US')} characters, digest ${digestOf(line)})`;
    })
    .join('\n');
}

function parseManifest(text: string | undefined): Manifest | undefined {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as Manifest);
  } catch {
    return undefined;
  }
}
