import type { Dialect } from '../adapters/types.js';
import type { DefsKey } from '../shared/json-schema/definitions.js';

/** Where each dialect toolprep writes keeps its definitions. */
export const DEFS_KEY: Record<Dialect, DefsKey> = {
  'draft-2020-12': '$defs',
  'draft-07': 'definitions',
};
