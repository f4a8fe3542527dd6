import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { describeSurfaceChanges } from '../emit/surface-diff.js';
import { readText } from '../emit/write-files.js';
import type { Manifest } from '../manifest/manifest.js';
import type { GenerateResult } from './generate.js';

export interface StaleReport {
  /** The generated files whose bytes differ from the ones on disk. */
  readonly stale: readonly string[];
  /** What changed in the tool surface, then the unified diff: what `toolprep check` prints. */
  readonly text: string;
}

/** Compares a generation with the files on disk and explains the difference, writing nothing. */
export async function compareWithDisk(root: string, result: GenerateResult): Promise<StaleReport> {
  const files = await Promise.all(
    result.files.map(async (file) => ({
      path: file.path,
      before: await readText(path.resolve(root, file.path)),
      after: file.text,
    })),
  );
  const stale = files.filter((file) => file.before !== file.after);
  if (stale.length === 0) return { stale: [], text: '' };
  const lines = [
    `toolprep check: the committed tool surface is stale: ${stale.map((file) => file.path).join(', ')}`,
  ];
  // The committed manifest was read above, with the other generated files.
  const committed = parseManifest(files.find((file) => file.path === result.config.manifest)?.before);
  const changes = describeSurfaceChanges(committed, result.manifest as Manifest);
  if (changes.length > 0)
    lines.push('', 'What changed in the tool surface:', ...changes.map((line) => `  ${line}`));
  lines.push('', 'Run `toolprep generate` and commit the result.', '');
  for (const file of stale) {
    lines.push(
      createTwoFilesPatch(
        `a/${file.path}`,
        `b/${file.path}`,
        file.before ?? '',
        file.after,
        'committed',
        'generated',
      ).trimEnd(),
    );
  }
  return { stale: stale.map((file) => file.path), text: lines.join('\n') };
}

function parseManifest(text: string | undefined): Manifest | undefined {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as Manifest);
  } catch {
    return undefined;
  }
}
