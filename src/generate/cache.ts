import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { appendFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LIBRARY_PACKAGES } from '../adapters/libraries.js';
import type { ResolvedToolprepConfig } from '../config/options.js';
import type { ContractRef } from '../discover/find-contracts.js';
import type { ToolSize } from '../manifest/manifest.js';
import { MANIFEST_FORMAT } from '../manifest/manifest.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import type { PreparedExtension } from '../prepare/prepared-extension.js';
import type { DeclaredDisclosure } from '../prepare/surface-arrangement.js';
import type { DeclaredView } from '../prepare/view-declaration.js';
import { BUILD_IDENTITY, packageVersion } from '../shared/build/build-identity.js';
import { canonicalJson, contentDigest } from '../shared/build/canonical-json.js';
import type { StampOf } from '../shared/build/file-stamp.js';
import type { Problem } from '../shared/build/problems.js';
import type { Project } from './project.js';

/** What one contract file gave last time, and what it was built from. */
export interface CachedFile {
  readonly key: string;
  /** Every local file the module was built from, with a hash of its content. */
  readonly inputs: readonly { readonly file: string; readonly hash: string }[];
  readonly tools: readonly {
    readonly exportName: string;
    readonly member?: string | number;
    readonly prepared: PreparedTool;
    readonly size: ToolSize;
    readonly hidden: number;
    readonly declared: DeclaredDisclosure;
    readonly intents?: readonly string[];
    readonly view?: DeclaredView;
  }[];
  readonly warnings: readonly Problem[];
}

/**
 * Every entry in one file, a line each (`"<file>"<tab><entry>`, both JSON; a later line of a file
 * overrides an earlier one): a run writes one file, not one per contract file (creating 1,000
 * files took 0.6 s here, writing one of 2.4 MB 6 ms).
 */
const ENTRIES = 'prepared.jsonl';

/**
 * A persistent cache of prepared tools per contract file, so that unchanged files are not evaluated
 * again. An entry holds only while toolprep, Zod, the options, the discovered exports and every
 * input file are what they were; any doubt means a miss, never a stale tool. A long-lived caller
 * reuses one instance across runs (`reopened`), so unchanged input files are not even re-read.
 */
export class PreparedCache {
  /** Entries as the last run kept them, with their lines: a hit is not serialised again. */
  private previous = new Map<string, { readonly entry: CachedFile; readonly line: string }>();
  private next = new Map<string, { readonly entry: CachedFile; readonly line: string }>();
  /** The entries file's lines by contract file, read at the first lookup, and let go once a run has looked. */
  private onDisk?: Map<string, string>;
  /** The files this run stored. */
  private readonly changed = new Set<string>();
  /** How many lines the entries file holds, as this process last read or wrote it; none when unknown. */
  private linesInFile?: number;
  /** Everything besides a file's own inputs that prepared tools depend on. */
  readonly environment: string;
  /** Input files hashed in this process, by size and mtime: an unchanged file is not read again. */
  private readonly hashes = new Map<string, { stamp: string; hash: string | undefined }>();
  hits = 0;
  private readonly root: string;
  private readonly directory: string;
  private stampOf: StampOf;

  constructor(project: Project, extension: PreparedExtension) {
    this.root = project.root;
    this.directory = project.cacheDir;
    this.stampOf = project.stampOf;
    this.environment = environmentKey(project.root, project.config, extension);
  }

  /** Starts another run in the same process: what the last run kept is what this one finds. */
  reopened(stampOf: StampOf): PreparedCache {
    this.stampOf = stampOf;
    this.previous = this.next;
    this.next = new Map();
    // What the file held and this process still needs, the run that read it kept.
    if (this.onDisk) this.onDisk = new Map();
    this.changed.clear();
    this.hits = 0;
    return this;
  }

  keyOf(refs: readonly ContractRef[]): string {
    return contentDigest(
      canonicalJson([
        this.environment,
        refs.map((ref) => [ref.exportName, ref.member ?? null, ref.fromFactory ?? false, ref.jsdoc ?? null]),
      ]),
    );
  }

  /** The cached entry for a file, if its key and every input still match. */
  lookup(file: string, key: string): CachedFile | undefined {
    const kept = this.previous.get(file) ?? this.readEntry(file);
    if (!kept || kept.entry.key !== key) return undefined;
    if (!kept.entry.inputs.every((input) => this.digestOf(input.file) === input.hash)) return undefined;
    this.hits++;
    this.next.set(file, kept);
    return kept.entry;
  }

  /**
   * Keeps a file's entry for the next run, unless one of its inputs was written after `loadedFrom`
   * (a `Date.now()` taken before its module was loaded): its tools may then be of the content
   * before the edit, and its hashes of the content after.
   */
  store(
    file: string,
    entry: Omit<CachedFile, 'inputs'> & { readonly inputs: readonly string[] },
    loadedFrom: number,
  ): void {
    const inputs = entry.inputs.map((input) => ({ file: input, hash: this.digestOf(input) ?? '' }));
    // Stated after hashing: an edit between the two is seen here.
    if (entry.inputs.some((input) => modifiedAfter(path.resolve(this.root, input), loadedFrom))) return;
    this.changed.add(file);
    const stored = { ...entry, inputs };
    this.next.set(file, { entry: stored, line: `${JSON.stringify(file)}\t${JSON.stringify(stored)}\n` });
  }

  /** Every local file the modules of this run's entries were built from, relative to the root. */
  inputFiles(): string[] {
    return [...this.next.values()].flatMap(({ entry }) => entry.inputs.map((input) => input.file));
  }

  /** Entries held in memory: the last run's and this one's, and the input files hashed. */
  get size(): number {
    return this.previous.size + this.next.size + (this.onDisk?.size ?? 0) + this.hashes.size;
  }

  /**
   * Writes what this run stored, off the main thread: the promise settles when the write has
   * ended, and never rejects. The lines of a few changed files are appended; the file is replaced
   * whole (written beside, then renamed) with this run's entries alone when it would otherwise
   * hold more than twice as many lines, or when it was missing or held a line cut short. A file
   * that cannot be written or read is a miss next time, never a wrong tool.
   */
  async save(): Promise<void> {
    if (this.changed.size === 0) return;
    const target = path.join(this.directory, ENTRIES);
    const lines = this.linesInFile;
    if (lines !== undefined && lines + this.changed.size <= 2 * this.next.size) {
      this.linesInFile = undefined;
      const text = [...this.changed].map((file) => this.next.get(file)?.line).join('');
      await appendFile(target, text).then(
        () => {
          this.linesInFile = lines + this.changed.size;
        },
        () => undefined,
      );
      return;
    }
    this.linesInFile = undefined;
    const text = [...this.next.values()].map(({ line }) => line).join('');
    const temporary = `${target}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await mkdir(this.directory, { recursive: true });
      await writeFile(temporary, text);
      await rename(temporary, target);
      this.linesInFile = this.next.size;
    } catch {
      await rm(temporary, { force: true }).catch(() => undefined);
    }
  }

  private readEntry(file: string): { readonly entry: CachedFile; readonly line: string } | undefined {
    if (!this.onDisk) {
      const read = readEntries(path.join(this.directory, ENTRIES));
      this.onDisk = read.lines;
      this.linesInFile = read.whole;
    }
    const line = this.onDisk.get(file);
    if (line === undefined) return undefined;
    try {
      return { entry: JSON.parse(line.slice(line.indexOf('\t') + 1)) as CachedFile, line };
    } catch {
      // A line cut short is a miss.
      return undefined;
    }
  }

  /** A file's content digest (none when it is missing), read once per stamp in this process. */
  digestOf(file: string): string | undefined {
    const absolute = path.resolve(this.root, file);
    const stamp = this.stampOf(absolute);
    const known = this.hashes.get(absolute);
    if (known?.stamp === stamp) return known.hash;
    const value = stamp === 'missing' ? undefined : contentDigest(readFileSync(absolute));
    this.hashes.set(absolute, { stamp, hash: value });
    return value;
  }
}

/**
 * The entries file's lines by contract file (none when it is missing or unreadable), and how many
 * lines it holds when each is whole.
 */
function readEntries(file: string): { lines: Map<string, string>; whole?: number } {
  const lines = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { lines };
  }
  let whole = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const tab = line.indexOf('\t');
    try {
      if (tab < 0) throw new SyntaxError('no tab');
      lines.set(JSON.parse(line.slice(0, tab)) as string, `${line}\n`);
      whole++;
    } catch {
      // A line that names no file is no entry.
    }
  }
  return { lines, ...(whole > 0 && text.endsWith('\n') ? { whole } : {}) };
}

/** Everything besides a file's own inputs that its prepared tools depend on. */
function environmentKey(root: string, config: ResolvedToolprepConfig, extension: PreparedExtension): string {
  // The extension schema is a live schema; its digest stands for it.
  const { extend: _extend, ...options } = config;
  const libraries = LIBRARY_PACKAGES.map((name) => [
    name,
    packageVersion(`${name}/package.json`, path.join(root, 'package.json')),
  ]);
  return canonicalJson({
    toolprep: [
      packageVersion('@toolprep/build/package.json', import.meta.url),
      MANIFEST_FORMAT,
      BUILD_IDENTITY,
    ],
    libraries,
    // In their order: the order of groups and of a profile's tool patterns is meaningful.
    options: JSON.stringify(options),
    extension: extension.digest,
  });
}

/**
 * Whether a file was written between `time` (ms since the epoch) and now, or is gone: read now,
 * not from the run's stamps. A time later than now is a stamp set by hand or a skewed clock, not
 * an edit during the run: such a file is kept, as any other.
 */
function modifiedAfter(file: string, time: number): boolean {
  const info = statSync(file, { throwIfNoEntry: false });
  return !info || (info.mtimeMs > time && info.mtimeMs <= Date.now());
}
