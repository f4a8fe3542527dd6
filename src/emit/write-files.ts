import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileStamp } from '../shared/build/file-stamp.js';

/** A file toolprep generates: the manifest or the module. */
export interface GeneratedFile {
  /** Relative to the root. */
  readonly path: string;
  readonly text: string;
}

/**
 * What a long-lived writer knows of each file it last read or wrote: its text, and its stamp then.
 * While the stamp holds, the file need not be read again to compare (5 MB at 1,000 tools).
 */
export type WriteMemo = Map<string, { readonly text: string; readonly stamp: string }>;

/** The temporary file an output is written through ends so: a watcher must ignore it too. */
export const TEMPORARY_SUFFIX = /\.[0-9a-f]{8}\.tmp$/;

/**
 * Writes each file only when its bytes differ, through a temporary file and a rename, so that a
 * reader (a watcher, a bundler) never sees half a file and an unchanged file keeps its mtime.
 * Returns the paths written.
 */
export async function writeChangedFiles(
  root: string,
  files: readonly GeneratedFile[],
  memo?: WriteMemo,
): Promise<string[]> {
  const written: string[] = [];
  for (const file of files) {
    const target = path.resolve(root, file.path);
    const known = memo?.get(target);
    const onDisk = known && known.stamp === fileStamp(target) ? known.text : await readText(target);
    if (onDisk !== file.text) {
      await mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        await writeFile(temporary, file.text);
        await rename(temporary, target);
      } finally {
        await rm(temporary, { force: true });
      }
      written.push(file.path);
    }
    memo?.set(target, { text: file.text, stamp: fileStamp(target) });
  }
  return written;
}

export async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
