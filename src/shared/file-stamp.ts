import { statSync } from 'node:fs';

/**
 * A file's size and modification time, or `missing`: long-lived runs compare stamps to skip what
 * has not changed since they last read it. Synchronous: for a thousand small files, several times
 * faster than asynchronous stats.
 */
export function fileStamp(file: string): string {
  const info = statSync(file, { throwIfNoEntry: false });
  return info ? `${info.size}:${info.mtimeMs}` : 'missing';
}
