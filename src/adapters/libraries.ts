import type { ListCheck } from '../manifest/plan.js';
import { standardView } from './standard/json-view.js';
import { standardListCheck } from './standard/list-checks.js';
import { standard } from './standard/runtime.js';
import type { RuntimeAdapter, SchemaView } from './types.js';
import { zod3 } from './zod3/runtime.js';
import { zod3View } from './zod3/view.js';
import { zod4 } from './zod4/runtime.js';
import { zod4View } from './zod4/view.js';

/** A schema library as read outside the build: its structural view, and its run-time adapter. */
export interface SchemaLibrary {
  readonly view: SchemaView;
  readonly runtime: RuntimeAdapter;
  /**
   * For a library whose union members cannot parse alone (their place is a JSON document): the
   * list check the plan compiles for a member, by which a list written as text is refused.
   */
  readonly documentListCheck?: (member: unknown) => Exclude<ListCheck, { defer: unknown }>;
}

/**
 * The schema libraries toolprep reads. A new library is a folder beside `zod4/`, one line here and
 * one in builders.ts. (A server does not load this list: its generated module imports the run-time
 * adapters of the libraries its contracts use.)
 */
const LIBRARIES: readonly SchemaLibrary[] = [
  { view: zod4View as SchemaView, runtime: zod4 },
  { view: zod3View as SchemaView, runtime: zod3 },
  // Last: any Standard JSON Schema library, Zod aside.
  { view: standardView, runtime: standard, documentListCheck: standardListCheck },
];

/** The library a schema belongs to, or undefined when toolprep cannot read it. */
export function libraryOf(schema: unknown): SchemaLibrary | undefined {
  return LIBRARIES.find((library) => library.view.owns(schema));
}
