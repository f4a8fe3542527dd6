import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { Manifest } from '../manifest/manifest.js';
import { describeSurfaceChanges } from './surface-diff.js';
import { type GeneratedFile, readText } from './write-files.js';

export interface StaleReport {
  /** The generated files whose bytes differ from the ones on disk. */
  readonly stale: readonly string[];
  /** What changed in the tool surface, then the unified diff: what `toolprep check` prints. */
  readonly text: string;
}

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
