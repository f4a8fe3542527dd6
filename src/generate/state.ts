import type { DiscoveryMemo } from '../discover/find-contracts.js';
import type { ManifestEntries } from '../emit/manifest.js';
import type { ModuleTexts } from '../emit/module.js';
import type { ToolWalks } from '../emit/walks-module.js';
import type { WriteMemo } from '../emit/write-files.js';
import type { HandshakeMemo } from '../load/mcp-handshake.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import type { PreparedExtension } from '../prepare/prepared-extension.js';
import { canonicalJson } from '../shared/build/canonical-json.js';
import { GenerationalMemo } from '../shared/build/generational-memo.js';
import { PreparedCache } from './cache.js';
import type { ConfigMemo, Project } from './project.js';

/**
 * Everything a generator keeps between runs, in one place, owned by one generator context (a
 * one-shot run makes a fresh one). Each part is bounded by the project, never by the number of
 * runs: discovery and writes hold one entry per file, the cache the last run's files, the emit
 * memos the last run's tools. See docs/decisions/0008-one-generator-state.md.
 */
export interface GeneratorState extends ConfigMemo {
  /** Per source file: what discovery found, by stamp, and the barrels it read. */
  readonly discovery: DiscoveryMemo;
  /** The prepared-tool cache, for one set of options. */
  cache?: { readonly key: string; readonly value: PreparedCache };
  /** Per output file: what was last written or read, by stamp. */
  readonly written: WriteMemo;
  readonly manifestEntries: ManifestEntries;
  readonly moduleTexts: ModuleTexts;
  readonly toolWalks: ToolWalks;
  /** Each tool the surface's arrangement changed (`arrangeSurface`), by its digest and arrangement. */
  readonly arrangedTools: GenerationalMemo<PreparedTool>;
  /** What the project's MCP SDK answered first, by the files and versions it came from. */
  handshake?: HandshakeMemo;
  /** Whether a generation of this state wrote the run record (docs/decisions/0056). */
  recorded?: boolean;
}

export function createGeneratorState(): GeneratorState {
  return {
    discovery: new Map(),
    written: new Map(),
    manifestEntries: new GenerationalMemo(),
    moduleTexts: new GenerationalMemo(),
    toolWalks: new GenerationalMemo(),
    arrangedTools: new GenerationalMemo(),
  };
}

/** The prepared-tool cache for these options: the state's own when the options are the same. */
export function cacheFor(
  state: GeneratorState,
  project: Project,
  extension: PreparedExtension,
): PreparedCache {
  const { extend: _extend, ...options } = project.config;
  // The options in their order, as the cache's own key takes them (cache.ts, environmentKey).
  const key = canonicalJson({
    directory: project.cacheDir,
    options: JSON.stringify(options),
    extension: extension.digest,
  });
  if (state.cache?.key === key) return state.cache.value.reopened(project.stampOf);
  const value = new PreparedCache(project, extension);
  state.cache = { key, value };
  return value;
}

/** Ends a generation that emitted: what it did not use is forgotten. */
export function endGeneration(state: GeneratorState): void {
  state.manifestEntries.endRun();
  state.moduleTexts.endRun();
  state.toolWalks.endRun();
  state.arrangedTools.endRun();
}

/** How many entries each part of the state holds: what the bounded-memory test reads. */
export function stateEntries(state: GeneratorState): Record<string, number> {
  return {
    discovery: state.discovery.size,
    config: state.config ? 1 : 0,
    cache: state.cache?.value.size ?? 0,
    written: state.written.size,
    manifestEntries: state.manifestEntries.size,
    moduleTexts: state.moduleTexts.size,
    toolWalks: state.toolWalks.size,
    arrangedTools: state.arrangedTools.size,
    handshake: state.handshake ? 1 : 0,
  };
}
