import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface FileToWrite {
  /** Relative to the root. */
  readonly path: string;
  readonly text: string;
}

/**
 * Writes each file only when its bytes differ, through a temporary file and a rename, so that a
 * reader (a watcher, a bundler) never sees half a file and an unchanged file keeps its mtime.
 * Returns the paths written.
 */
export async function writeChangedFiles(root: string, files: readonly FileToWrite[]): Promise<string[]> {
  const written: string[] = [];
  for (const file of files) {
    const target = path.resolve(root, file.path);
    if ((await readText(target)) === file.text) continue;
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
