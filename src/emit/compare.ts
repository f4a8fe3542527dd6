import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { Manifest } from '../manifest/manifest.js';
import { digestOf } from '../shared/build/canonical-json.js';
import { describeSurfaceChanges, pairTools } from './surface-diff.js';
import { type GeneratedFile, readText } from './write-files.js';

export interface StaleReport {
  /** The generated files whose bytes differ from the ones on disk. */
  readonly stale: readonly string[];
  /** What changed in the tool surface, then the diff per tool and per file: what `toolprep check` prints. */
  readonly text: string;
}

/** Lines longer than this (the generated module's embedded JSON) are summarised in a diff, not printed. */
const LONGEST_PRINTED_LINE = 240;

/** Compares generated files with the ones on disk and explains the difference, writing nothing. */
export async function compareWithDisk(
  root: string,
  files: readonly GeneratedFile[],
  manifest: { readonly path: string; readonly value: Manifest },
): Promise<StaleReport> {
  const compared = await Promise.all(
    files.map(async (file) => ({
      path: file.path,
      before: await readText(path.resolve(root, file.path)),
      after: file.text,
    })),
  );
  const stale = compared.filter((file) => file.before !== file.after);
  if (stale.length === 0) return { stale: [], text: '' };
  const lines = [
    `[toolprep] check: the committed tool surface is stale: ${stale.map((file) => file.path).join(', ')}`,
  ];
  // The committed manifest was read above, with the other generated files.
  const committed = parseManifest(compared.find((file) => file.path === manifest.path)?.before);
  const changes = describeSurfaceChanges(committed, manifest.value);
  if (changes.length > 0)
    lines.push('', 'What changed in the tool surface:', ...changes.map((line) => `  ${line}`));
  lines.push('', 'Run `toolprep generate` and commit the result.', '');
  for (const file of stale) {
    const patches =
      file.path === manifest.path && committed
        ? manifestPatches(file.path, committed, manifest.value)
        : [patch(file.path, summariseLongLines(file.before ?? ''), summariseLongLines(file.after))];
    lines.push(...patches);
  }
  return { stale: stale.map((file) => file.path), text: lines.join('\n') };
}

/**
 * The manifest's difference tool by tool, each tool against the one it was (so a rename is the
 * name's line, not the move the sorted manifest makes of it), then what changed beside the tools.
 */
function manifestPatches(file: string, before: Manifest, after: Manifest): string[] {
  const patches = pairTools(before, after).flatMap((pair) => {
    const oldText = pair.before ? asInManifest(pair.before) : '';
    const newText = pair.after ? asInManifest(pair.after) : '';
    const name = pair.after?.name ?? pair.before?.name;
    return oldText === newText ? [] : [patch(`${file} (tool ${name})`, oldText, newText)];
  });
  const rest = (manifest: Manifest) => `${JSON.stringify({ ...manifest, tools: undefined }, null, 2)}\n`;
  if (rest(before) !== rest(after))
    patches.push(patch(`${file} (beside the tools)`, rest(before), rest(after)));
  return patches;
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
