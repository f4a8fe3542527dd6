import type { RuntimeAdapter } from '../manifest/tool-set.js';
import { digestOf } from '../shared/build/canonical-json.js';

/** The extension keys every tool takes, as the manifest records them and as caches key on them. */
export interface PreparedExtension {
  /** Sorted; none without `extend`. The runtime refuses extension keys that differ. */
  readonly keys: readonly string[];
  /** Digest of what the extension shows and whether it is advertised: equal for equal schemas. */
  readonly digest: string;
  /** The run-time adapter of its schema's library: a server needs it to parse the keys. */
  readonly library?: RuntimeAdapter;
}

/**
 * A project without `extend`. Apart from extension.ts, which loads every schema library's
 * converter: a run where nothing changed reads the record with this, and loads none of them.
 */
export const NO_EXTENSION: PreparedExtension = { keys: [], digest: digestOf(null) };
