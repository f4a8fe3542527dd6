import { builderOf } from '../adapters/builders.js';
import type { ResolvedToolprepConfig } from '../config/options.js';
import type { RuntimeAdapter } from '../manifest/tool-set.js';
import { digestOf } from '../shared/build/canonical-json.js';
import { presentSchema } from './present.js';

/** The extension keys every tool takes, as the manifest records them and as caches key on them. */
export interface PreparedExtension {
  /** Sorted; none without `extend`. The runtime refuses extension keys that differ. */
  readonly keys: readonly string[];
  /** Digest of what the extension shows and whether it is advertised: equal for equal schemas. */
  readonly digest: string;
  /** The run-time adapter of its schema's library: a server needs it to parse the keys. */
  readonly library?: RuntimeAdapter;
}

export function prepareExtension(extend: ResolvedToolprepConfig['extend']): PreparedExtension {
  if (!extend) return { keys: [], digest: digestOf(null) };
  // The config check has made sure it is an object schema of a library toolprep reads.
  const builder = builderOf(extend.schema);
  if (!builder)
    throw new Error('[toolprep] extend.schema passed the config check unread; this is a bug in toolprep');
  const { document } = presentSchema(builder, extend.schema, 'draft-2020-12', 'input');
  return {
    keys: builder.runtime.keysOf(extend.schema).sort(),
    digest: digestOf({ advertise: extend.advertise, document }),
    library: builder.runtime,
  };
}
