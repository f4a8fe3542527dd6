import type { Dialect } from '../adapters/types.js';
import type { DefsKey } from '../shared/json-schema/definitions.js';

// The toolkit's own, for prepare-tool.ts and test/prepare/hostile-walkers.test.ts until they import
// it from src/shared/json-schema/.
export { isSchemaObject } from '../shared/json-schema/schema.js';
export { mapSubschemas } from '../shared/json-schema/walk.js';
export type { Dialect };

/** Where each dialect toolprep writes keeps its definitions. */
export const DEFS_KEY: Record<Dialect, DefsKey> = {
  'draft-2020-12': '$defs',
  'draft-07': 'definitions',
};
