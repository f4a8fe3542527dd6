import type { SchemaView } from './types.js';
import { zod4View } from './zod4/view.js';

/**
 * The schema libraries toolprep reads at run time, one view each. A new library is a folder beside
 * `zod4/` and one line here (and one in builders.ts).
 */
const VIEWS: readonly SchemaView[] = [zod4View as SchemaView];

/** The view of the library a schema belongs to, or undefined when toolprep cannot read it. */
export function viewOf(schema: unknown): SchemaView | undefined {
  return VIEWS.find((view) => view.owns(schema));
}
