import type { PreparedTool } from './prepared-tool.js';
import type { ProfileName } from './profiles.js';
import type { PreparedView } from './tool-set.js';

/**
 * The manifest's format version. The runtime refuses a tool set of another format and says to
 * regenerate. Format 2: deferred refusals name positions in the arguments (format 1 named Zod's
 * own keys), and the extension keys are recorded. Format 3: provider profiles' documents, and the
 * inverse steps their calls run in the plan. Format 4: a plan that defers a check says so
 * (`defers`), and the runtime reads that instead of searching the plan, so a plan of format 3
 * would be misread. Format 5: a tool's `access`, which a runtime of format 4 would not read and so
 * would show a scoped tool to every caller. Format 6: the generated walks module is one function of
 * the leaf steps with a prelude of what tools share (decision 0070), where a runtime of format 5
 * would look each tool up as a property of that function and walk most with the closures unseen.
 * Format 7: the generated module passes each tool's MCP input document and its later parts as
 * lines, one per tool (decision 0079), which a runtime of format 6 would read as one JSON text.
 * docs/reference/manifest.md describes it.
 */
export const MANIFEST_FORMAT = 7;

/** Bytes, and tokens as OpenAI's o200k_base encoding counts them. */
export interface Size {
  readonly bytes: number;
  readonly tokens: number;
}

export interface ManifestTool extends PreparedTool {
  /** Where the contract is: `src/tools/files.ts#readFiles`. */
  readonly source: string;
  /**
   * The tool as a model is shown it: its `tools/list` entry, and under each profile its
   * definition (name, description and the profile's document).
   */
  readonly size: ToolSize;
  /** Requests that should lead a model to the tool (the contract's `intents`); never served. */
  readonly intents?: readonly string[];
}

/**
 * A view (MCP Apps) as built: what the tool set's `views` holds but its HTML, and where that is.
 * Sorted by name, each view's current version first, then the older ones kept, newest first.
 */
export interface ManifestView extends Omit<PreparedView, 'html'> {
  /** The entry it was built from: `src/tools/notes-view.html`. */
  readonly source: string;
  /** The HTML, relative to the root: `toolprep.views/notes.<digest>.html`. */
  readonly file: string;
}

/** A group of tools, as `groups/list` shows it, with what its tools cost together. */
export interface ManifestGroup {
  readonly name: string;
  readonly description?: string;
  /** Its tools' names, sorted. */
  readonly tools: readonly string[];
  /** Its tools' `tools/list` entries together. */
  readonly size: Size;
}

/**
 * What a client is sent before the first message, by the way it takes a tool set: `everything`
 * (every `tools/list` entry whole), `deferred` (eager tools whole, each deferred tool's name and
 * description), `groups` (eager tools whole and the `groups/list` answer; absent when the project
 * has no groups). Summed per tool and per group, as the other totals are.
 */
export interface TurnOne {
  readonly everything: Size;
  readonly deferred: Size;
  readonly groups?: Size;
}

/** A tool as a model is shown it, under MCP and under each profile prepared. */
export type ToolSize = Size & { readonly profiles?: { readonly [Profile in ProfileName]?: Size } };

export interface Manifest {
  readonly format: typeof MANIFEST_FORMAT;
  /** The extension keys every tool takes (the config's `extend`), sorted; the runtime must agree. */
  readonly extensionKeys: readonly string[];
  readonly tools: readonly ManifestTool[];
  /** The project's groups, by name; absent when it has none. */
  readonly groups?: readonly ManifestGroup[];
  /** The views built with the tools, current and kept; absent when no tool has one. */
  readonly views?: readonly ManifestView[];
  readonly totals: Size & {
    readonly tools: number;
    readonly profiles?: { readonly [Profile in ProfileName]?: Size };
    readonly turnOne: TurnOne;
  };
}
