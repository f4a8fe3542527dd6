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
  /** Its key in the registry, by which the build side finds its builder. */
  readonly name: LibraryName;
  readonly view: SchemaView;
  readonly runtime: RuntimeAdapter;
  /**
   * For a library whose union members cannot parse alone (their place is a JSON document): the
   * list check the plan compiles for a member, by which a list written as text is refused.
   */
  readonly documentListCheck?: (member: unknown) => Exclude<ListCheck, { defer: unknown }>;
  /** The npm packages whose version changes what the build makes of its schemas: cached tools key on them. */
  readonly packages: readonly string[];
}

/**
 * The registry of the schema libraries toolprep reads, in the order a schema is asked about. A new
 * library is a folder beside `zod4/`, one line here and its builder under the same name in
 * builders.ts (the type there requires one per library). A server does not load this list: its
 * generated module imports the run-time adapters of the libraries its contracts use.
 */
const LIBRARIES = [
  { name: 'zod4', view: zod4View as SchemaView, runtime: zod4, packages: ['zod'] },
  { name: 'zod3', view: zod3View as SchemaView, runtime: zod3, packages: ['zod'] },
  // Last: any Standard JSON Schema library, Zod aside.
  {
    name: 'standard',
    view: standardView,
    runtime: standard,
    documentListCheck: standardListCheck,
    packages: ['arktype', 'valibot', '@valibot/to-json-schema'],
  },
] as const;

export type LibraryName = (typeof LIBRARIES)[number]['name'];

/** The library a schema belongs to, or undefined when toolprep cannot read it. */
export function libraryOf(schema: unknown): SchemaLibrary | undefined {
  return LIBRARIES.find((library) => library.view.owns(schema));
}

/**
 * The libraries' names for messages, in the registry's order: `zod 4`, `zod 3`, … Marked pure: a
 * bundle that imports only `defineTool` (every contract does) then leaves the registry out.
 */
export const LIBRARY_TITLES: readonly string[] = /* @__PURE__ */ LIBRARIES.map(
  (library) => library.view.library,
);

/**
 * Every library's packages, once each, sorted. Here, not beside the builders: a run where nothing
 * changed keys its record on them without loading a converter.
 */
export const LIBRARY_PACKAGES: readonly string[] = /* @__PURE__ */ [
  ...new Set(LIBRARIES.flatMap((library) => library.packages)),
].sort();
