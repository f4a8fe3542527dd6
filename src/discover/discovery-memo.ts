import type { StampOf } from '../shared/build/file-stamp.js';
import type { Problem } from '../shared/build/problems.js';
import type { ContractRef } from './contract-ref.js';

/** What discovery found in one file, and what it read to find it. */
export interface FileDiscovery {
  /** The file's size and modification time when it was read. */
  readonly stamp: string;
  readonly refs: readonly ContractRef[];
  readonly warnings: readonly Problem[];
  /** Contracts made where discovery cannot follow them to an export: each an error. */
  readonly problems: readonly Problem[];
  readonly parsed: boolean;
  /** The local modules its imports were followed into (barrels), with their stamps. */
  readonly consulted: readonly { readonly file: string; readonly stamp: string }[];
  /** The foreign exports of the file and of each module outside `include` it led to, by file. */
  readonly foreignExports: Readonly<Record<string, readonly string[]>>;
}

/** Per-file results a long-lived caller keeps between runs, so that only changed files are parsed. */
export type DiscoveryMemo = Map<string, FileDiscovery>;

/**
 * Each file's discovery, from the memo when the file's stamp and those of the barrels it consulted
 * are unchanged, else read again (and kept); files no longer asked for are forgotten.
 */
export function discoveriesOf(
  files: readonly string[],
  memo: DiscoveryMemo,
  stampOf: StampOf,
  read: (file: string) => Omit<FileDiscovery, 'stamp'>,
): FileDiscovery[] {
  const wanted = new Set(files);
  for (const file of memo.keys()) if (!wanted.has(file)) memo.delete(file);
  for (const file of files) {
    const previous = memo.get(file);
    const stamp = stampOf(file);
    const current =
      previous?.stamp === stamp &&
      previous.consulted.every((barrel) => stampOf(barrel.file) === barrel.stamp);
    if (current) continue;
    memo.set(file, { stamp, ...read(file) });
  }
  return files.map((file) => memo.get(file) as FileDiscovery);
}
