import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ResolvedToolprepConfig } from '../config/options.js';
import type { ContractRef } from '../discover/find-contracts.js';
import { readText, writeChangedFiles } from '../emit/write-files.js';
import type { PreparedTool } from '../manifest/types.js';
import { canonicalJson } from '../prepare/canonical.js';
import { convertSchema } from '../prepare/present.js';
import type { GenerateProblem } from './problems.js';

/** What one contract file gave last time, and what it was built from. */
export interface CachedFile {
  readonly key: string;
  /** Every local file the module was built from, with a hash of its content. */
  readonly inputs: readonly { readonly file: string; readonly hash: string }[];
  readonly tools: readonly { readonly exportName: string; readonly prepared: PreparedTool }[];
  readonly warnings: readonly GenerateProblem[];
}

interface CacheFile {
  readonly files: Record<string, CachedFile>;
}

const CACHE_NAME = 'prepared.json';

/**
 * A persistent cache of prepared tools per contract file, so that unchanged files are not evaluated
 * again. An entry holds only while toolprep, Zod, the options, the discovered exports and every
 * input file are what they were; any doubt means a miss, never a stale tool.
 */
export class PreparedCache {
  private readonly previous: Record<string, CachedFile>;
  private readonly next: Record<string, CachedFile> = {};
  private readonly environment: string;
  hits = 0;

  private constructor(
    private readonly root: string,
    private readonly directory: string,
    previous: Record<string, CachedFile>,
    config: ResolvedToolprepConfig,
  ) {
    this.previous = previous;
    this.environment = environmentKey(root, config);
  }

  static async open(root: string, directory: string, config: ResolvedToolprepConfig): Promise<PreparedCache> {
    const text = await readText(path.join(directory, CACHE_NAME));
    let files: Record<string, CachedFile> = {};
    try {
      files = text ? (JSON.parse(text) as CacheFile).files : {};
    } catch {
      // A damaged cache is an empty one.
    }
    return new PreparedCache(root, directory, files, config);
  }

  keyOf(refs: readonly ContractRef[]): string {
    return hash(canonicalJson([this.environment, refs.map((ref) => [ref.exportName, ref.jsdoc ?? null])]));
  }

  /** The cached entry for a file, if its key and every input still match. */
  lookup(file: string, key: string): CachedFile | undefined {
    const entry = this.previous[file];
    if (!entry || entry.key !== key) return undefined;
    if (!entry.inputs.every((input) => hashFile(path.resolve(this.root, input.file)) === input.hash))
      return undefined;
    this.hits++;
    this.next[file] = entry;
    return entry;
  }

  store(file: string, entry: Omit<CachedFile, 'inputs'> & { readonly inputs: readonly string[] }): void {
    this.next[file] = {
      ...entry,
      inputs: entry.inputs.map((input) => ({
        file: input,
        hash: hashFile(path.resolve(this.root, input)) ?? '',
      })),
    };
  }

  async save(): Promise<void> {
    const sorted = Object.fromEntries(Object.entries(this.next).sort(([a], [b]) => (a < b ? -1 : 1)));
    await writeChangedFiles(this.directory, [
      { path: CACHE_NAME, text: `${JSON.stringify({ files: sorted })}\n` },
    ]);
  }
}

function environmentKey(root: string, config: ResolvedToolprepConfig): string {
  const { extend, ...options } = config;
  // The extension schema is live Zod; its presentation stands for it in the key.
  const extendKey = extend
    ? { advertise: extend.advertise, schema: convertSchema(extend.schema, 'draft-2020-12', 'input').document }
    : null;
  return canonicalJson({
    toolprep: versionOf('toolprep/package.json', import.meta.url),
    zod: versionOf('zod/package.json', path.join(root, 'package.json')),
    options,
    extend: extendKey,
  });
}

function versionOf(specifier: string, from: string): string {
  try {
    const require = createRequire(from);
    return (JSON.parse(readFileSync(require.resolve(specifier), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

function hashFile(file: string): string | undefined {
  try {
    return hash(readFileSync(file));
  } catch {
    return undefined;
  }
}

function hash(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 32);
}
