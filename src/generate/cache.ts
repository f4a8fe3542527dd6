import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { BUILDER_PACKAGES } from '../adapters/builders.js';
import type { ResolvedToolprepConfig } from '../config/options.js';
import type { ContractRef } from '../discover/find-contracts.js';
import type { ToolSize } from '../manifest/manifest.js';
import { MANIFEST_FORMAT } from '../manifest/manifest.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import type { PreparedExtension } from '../prepare/extension.js';
import type { DeclaredDisclosure } from '../prepare/surface-arrangement.js';
import type { DeclaredView } from '../prepare/view-declaration.js';
import { canonicalJson } from '../shared/build/canonical-json.js';
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

/** One file per contract file under the cache directory: a run rewrites only the entries it changed. */
const ENTRIES = 'prepared';

function entryPath(file: string): string {
  return `${ENTRIES}/${hash(file).slice(0, 20)}.json`;
}

/**
 * A persistent cache of prepared tools per contract file, so that unchanged files are not evaluated
 * again. An entry holds only while toolprep, Zod, the options, the discovered exports and every
 * input file are what they were; any doubt means a miss, never a stale tool. A long-lived caller
 * reuses one instance across runs (`reopened`), so unchanged input files are not even re-read.
 */
export class PreparedCache {
  private previous: Record<string, CachedFile> = {};
  private next: Record<string, CachedFile> = {};
  private readonly changed = new Set<string>();
  private readonly environment: string;
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
    this.next = {};
    this.changed.clear();
    this.hits = 0;
    return this;
  }

  keyOf(refs: readonly ContractRef[]): string {
    return hash(
      canonicalJson([
        this.environment,
        refs.map((ref) => [ref.exportName, ref.member ?? null, ref.fromFactory ?? false, ref.jsdoc ?? null]),
      ]),
    );
  }

  /** The cached entry for a file, if its key and every input still match. */
  lookup(file: string, key: string): CachedFile | undefined {
    const entry = this.previous[file] ?? this.readEntry(file);
    if (!entry || entry.key !== key) return undefined;
    if (!entry.inputs.every((input) => this.hashOf(input.file) === input.hash)) return undefined;
    this.hits++;
    this.next[file] = entry;
    return entry;
  }

  store(file: string, entry: Omit<CachedFile, 'inputs'> & { readonly inputs: readonly string[] }): void {
    this.changed.add(file);
    this.next[file] = {
      ...entry,
      inputs: entry.inputs.map((input) => ({ file: input, hash: this.hashOf(input) ?? '' })),
    };
  }

  /** Entries held in memory: the last run's and this one's, and the input files hashed. */
  get size(): number {
    return Object.keys(this.previous).length + Object.keys(this.next).length + this.hashes.size;
  }

  /** Writes the entries this run stored. */
  async save(): Promise<void> {
    if (this.changed.size === 0) return;
    // Plain writes: an entry cut short is unreadable JSON, which is a miss, never a wrong tool.
    mkdirSync(path.join(this.directory, ENTRIES), { recursive: true });
    for (const file of this.changed) {
      writeFileSync(
        path.join(this.directory, entryPath(file)),
        `${JSON.stringify({ file, ...this.next[file] })}\n`,
      );
    }
  }

  private readEntry(file: string): CachedFile | undefined {
    try {
      const entry = JSON.parse(
        readFileSync(path.join(this.directory, entryPath(file)), 'utf8'),
      ) as CachedFile & { file: string };
      // A hash collision or an old format is a miss.
      return entry.file === file ? entry : undefined;
    } catch {
      return undefined;
    }
  }

  private hashOf(file: string): string | undefined {
    const absolute = path.resolve(this.root, file);
    const stamp = this.stampOf(absolute);
    const known = this.hashes.get(absolute);
    if (known?.stamp === stamp) return known.hash;
    const value = stamp === 'missing' ? undefined : hash(readFileSync(absolute));
    this.hashes.set(absolute, { stamp, hash: value });
    return value;
  }
}

/** Everything besides a file's own inputs that its prepared tools depend on. */
function environmentKey(root: string, config: ResolvedToolprepConfig, extension: PreparedExtension): string {
  // The extension schema is a live schema; its digest stands for it.
  const { extend: _extend, ...options } = config;
  const libraries = BUILDER_PACKAGES.map((name) => [
    name,
    versionOf(`${name}/package.json`, path.join(root, 'package.json')),
  ]);
  return canonicalJson({
    toolprep: [versionOf('@toolprep/build/package.json', import.meta.url), MANIFEST_FORMAT, BUILD_IDENTITY],
    libraries,
    options,
    extension: extension.digest,
  });
}

/**
 * The hash of the sources this build of toolprep was compiled from (`dist/.sources-hash`, written
 * by the build and shipped with it): a cache made by other code of the same version is a miss.
 */
const BUILD_IDENTITY = (() => {
  try {
    return readFileSync(new URL('../../.sources-hash', import.meta.url), 'utf8').trim();
  } catch {
    return 'unknown';
  }
})();

function versionOf(specifier: string, from: string): string {
  try {
    const require = createRequire(from);
    return (JSON.parse(readFileSync(require.resolve(specifier), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

function hash(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 32);
}
