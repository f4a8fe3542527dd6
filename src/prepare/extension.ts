import { builderOf } from '../adapters/builders.js';
import type { ResolvedToolprepConfig } from '../config/options.js';
import { digestOf } from '../shared/build/canonical-json.js';
import { NO_EXTENSION, type PreparedExtension } from './prepared-extension.js';
import { presentSchema } from './present.js';

export function prepareExtension(extend: ResolvedToolprepConfig['extend']): PreparedExtension {
  if (!extend) return NO_EXTENSION;
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
