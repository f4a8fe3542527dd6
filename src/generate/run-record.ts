import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ContractRef } from '../discover/contract-ref.js';
import type { GeneratedFile, WriteMemo } from '../emit/write-files.js';
import { handshakeKey } from '../load/mcp-handshake.js';
import type { Manifest } from '../manifest/manifest.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import { canonicalJson, contentDigest } from '../shared/build/canonical-json.js';
import { fileStamp } from '../shared/build/file-stamp.js';
import type { Problem } from '../shared/build/problems.js';
import { projectPath } from '../shared/build/project-path.js';
import type { PreparedCache } from './cache.js';
import type { Project } from './project.js';

/**
 * The last generation that wrote no problem, as plain data: what a run gives again when every file
 * it read and wrote is as it was, with no discovery (no ts-morph) and no contract module loaded.
 * See docs/decisions/0056-a-run-where-nothing-changed.md.
 */
interface RecordedRun {
  readonly files: readonly GeneratedFile[];
  readonly manifest: Manifest;
  readonly contractFiles: readonly string[];
  readonly warnings: readonly Problem[];
  readonly tools: readonly { readonly prepared: PreparedTool; readonly ref: ContractRef }[];
  readonly stats: {
    readonly scanned: number;
    readonly parsed: number;
    readonly tools: number;
    readonly hidden: { readonly constraints: number; readonly tools: number };
  };
}

interface StoredRecord {
  readonly key: string;
  /** Every file the generation read, relative to the root, with its content digest (null: missing). */
  readonly inputs: readonly (readonly [string, string | null])[];
  /** The files it made, with the digest of their text. */
  readonly outputs: readonly (readonly [string, string])[];
  readonly run: Omit<RecordedRun, 'files' | 'manifest'>;
}

const RECORD_FILE = 'last-run.json';

/** What a record holds for besides its files: the options, the libraries, the file list, the SDK. */
function recordKey(project: Project, cache: PreparedCache): string {
  const files = project.files.map((file) => projectPath(project.root, file));
  return contentDigest(canonicalJson([cache.environment, files, handshakeKey(project.root) ?? null]));
}

/**
 * The recorded run, if its key, every input and every output on disk are as recorded; any doubt is
 * none. Each output read is told to `written` with its stamp before the read, so that the writer
 * need not read it again to find it unchanged (3.7 MB on the realistic project).
 */
export function recordedRun(
  project: Project,
  cache: PreparedCache,
  written: WriteMemo,
): RecordedRun | undefined {
  let record: StoredRecord;
  try {
    record = JSON.parse(readFileSync(path.join(project.cacheDir, RECORD_FILE), 'utf8')) as StoredRecord;
  } catch {
    return undefined;
  }
  if (record.key !== recordKey(project, cache)) return undefined;
  if (!record.inputs.every(([file, digest]) => (cache.digestOf(file) ?? null) === digest)) return undefined;
  const files: GeneratedFile[] = [];
  for (const [file, digest] of record.outputs) {
    const absolute = path.resolve(project.root, file);
    const stamp = fileStamp(absolute);
    let text: string;
    try {
      text = readFileSync(absolute, 'utf8');
    } catch {
      return undefined;
    }
    if (contentDigest(text) !== digest) return undefined;
    const output = { path: file, text };
    files.push(output);
    // True of the file whatever the rest of the record holds: the writer may take it.
    written.set(absolute, { file: output, stamp });
  }
  const manifestText = files.find((file) => file.path === project.config.manifest)?.text;
  if (manifestText === undefined) return undefined;
  return { ...record.run, files, manifest: JSON.parse(manifestText) as Manifest };
}

/** Records a generation that wrote no problem, with every file it read (`inputs`, relative). */
export function recordRun(
  project: Project,
  cache: PreparedCache,
  run: RecordedRun,
  inputs: readonly string[],
): void {
  const { files, manifest: _manifest, ...rest } = run;
  // toolprep's own outputs are checked as outputs: as with a watcher, a change to them is no change
  // of input (discovery may have read the generated module, which never defines a tool).
  const outputs = new Set(files.map((file) => projectPath(project.root, file.path)));
  const read = [...new Set(inputs)].filter((file) => !outputs.has(file)).sort();
  const record: StoredRecord = {
    key: recordKey(project, cache),
    inputs: read.map((file) => [file, cache.digestOf(file) ?? null]),
    outputs: files.map((file) => [file.path, contentDigest(file.pieces ?? file.text)]),
    run: { ...rest, tools: rest.tools.map(({ prepared, ref }) => ({ prepared, ref })) },
  };
  // A plain write: a record cut short is unreadable JSON, which is no record, never a wrong one.
  mkdirSync(project.cacheDir, { recursive: true });
  writeFileSync(path.join(project.cacheDir, RECORD_FILE), `${JSON.stringify(record)}\n`);
}
