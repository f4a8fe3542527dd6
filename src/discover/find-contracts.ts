import { exportPath } from '../shared/build/export-path.js';
import { fileStamp, type StampOf } from '../shared/build/file-stamp.js';
import type { Problem } from '../shared/build/problems.js';
import type { ContractRef } from './contract-ref.js';
import { type DiscoveryMemo, discoveriesOf } from './discovery-memo.js';
import { createFileReader, type FileReader } from './file-reader.js';

export type { ContractRef } from './contract-ref.js';
export type { DiscoveryMemo } from './discovery-memo.js';

export interface Discovery {
  readonly refs: readonly ContractRef[];
  readonly warnings: readonly Problem[];
  /** Contracts made where discovery cannot follow them to an export (`contract-out-of-sight`). */
  readonly problems: readonly Problem[];
  /**
   * Per contract file (relative): the exports the loader's walk leaves alone — those whose values
   * come from other modules (`*` for an `export *`), which are found where they are defined, and
   * those a barrel's named re-export leaves out on purpose.
   */
  readonly foreignExports: ReadonlyMap<string, readonly string[]>;
  /** Files read past the pre-filter. */
  readonly parsed: number;
}

/**
 * Finds exported `defineTool(...)` results in the given files, reading source text only: imports
 * of `defineTool` from "toolprep" (renamed, or through a namespace, or through a local barrel that
 * re-exports it) are followed; a local function of the same name is not a tool. With a memo, a file
 * whose stamp and consulted barrels are unchanged since the last run is not read again.
 */
export function findContracts(
  root: string,
  files: readonly string[],
  memo: DiscoveryMemo = new Map(),
  stampOf: StampOf = fileStamp,
): Discovery {
  // TypeScript is loaded and a project made only when some file has to be read the full way.
  let reader: FileReader | undefined;
  const included = new Set(files);
  const found = discoveriesOf(files, memo, stampOf, (file) => {
    reader ??= createFileReader(root, included, stampOf);
    return reader.discover(file);
  });
  // Two barrels may re-export one file outside `include`: its tools are found once.
  const unique = new Map(
    found
      .flatMap((entry) => entry.refs)
      .map((ref) => [`${ref.file}#${exportPath(ref.exportName, ref.member)}`, ref]),
  );
  const refs = [...unique.values()].sort((a, b) => compare(a.file, b.file) || a.line - b.line);
  return {
    refs,
    warnings: found.flatMap((entry) => entry.warnings),
    problems: found.flatMap((entry) => entry.problems),
    foreignExports: new Map(found.flatMap((entry) => Object.entries(entry.foreignExports))),
    parsed: found.filter((entry) => entry.parsed).length,
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
