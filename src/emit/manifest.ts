import {
  MANIFEST_FORMAT,
  type Manifest,
  type ManifestGroup,
  type ManifestTool,
  type ToolSize,
} from '../manifest/manifest.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import type { ProfileName } from '../manifest/profiles.js';
import type { ToolGroup } from '../manifest/tool-set.js';
import { exportPath } from '../shared/build/export-path.js';
import { GenerationalMemo } from '../shared/build/generational-memo.js';
import { interleaved, pieced } from './pieced.js';
import { sumOf } from './size.js';
import { type Measure, turnOneSizes } from './turn-one.js';
import { type EmittableView, manifestViewEntry } from './views.js';

/** A prepared tool, and the export it was prepared from. */
export interface EmittableTool {
  readonly prepared: PreparedTool;
  /** Relative to the root, with `/`. */
  readonly file: string;
  /** `default` for a default export. */
  readonly exportName: string;
  /** Where in the export the contract is, when the export is an object or a list. */
  readonly member?: string | number;
  /** What the tool costs as shown to a model: `toolSize(prepared)`, computed once with it. */
  readonly size: ToolSize;
  /** The contract's `intents`: recorded in the manifest, never served. */
  readonly intents?: readonly string[];
}

/** The order of a manifest tool's keys: what a reviewer reads first comes first. */
const TOOL_KEY_ORDER = [
  'name',
  'title',
  'description',
  'icons',
  'source',
  'groups',
  'loading',
  'searchHint',
  'intents',
  'libraries',
  'annotations',
  'meta',
  'mcpHeaders',
  'task',
  'access',
  'view',
  'inputSchema',
  'params',
  'profiles',
  'excludedFrom',
  'outputSchema',
  'plan',
  'size',
  'digest',
] as const;
// A field of the prepared tool missing from the order would be left out of the manifest silently:
// this fails to compile instead, naming it.
const everyFieldOrdered: Exclude<keyof PreparedTool, (typeof TOOL_KEY_ORDER)[number]> extends never
  ? true
  : Exclude<keyof PreparedTool, (typeof TOOL_KEY_ORDER)[number]> = true;
void everyFieldOrdered;

/** Each tool's manifest entry and its text, as the manifest writes it, by digest and source. */
export type ManifestEntries = GenerationalMemo<{ readonly entry: ManifestTool; readonly text: string }>;

/** Tools in manifest order: by name. */
export function byName(tools: readonly EmittableTool[]): EmittableTool[] {
  return [...tools].sort((a, b) =>
    a.prepared.name < b.prepared.name ? -1 : a.prepared.name > b.prepared.name ? 1 : 0,
  );
}

/**
 * Deterministic manifest bytes, in pieces (pieced.ts): tools sorted by name, fixed key order,
 * two-space indent, final newline. With a memo kept between runs, a regeneration after one change
 * serialises one tool.
 */
export function emitManifest(
  tools: readonly EmittableTool[],
  set: {
    readonly extensionKeys: readonly string[];
    readonly groups: readonly ToolGroup[];
    readonly views?: readonly EmittableView[];
    /** Sizes what the first turns show beyond the tools' sizes (`turnOneShown`), counted beforehand. */
    readonly measure: Measure;
  },
  entries: ManifestEntries = new GenerationalMemo(),
): { manifest: Manifest; pieces: readonly string[] } {
  const { extensionKeys } = set;
  const emitted = byName(tools).map((tool) =>
    entries.take(
      `${tool.prepared.digest}\u0000${tool.file}#${exportPath(tool.exportName, tool.member)}`,
      () => manifestEntry(tool),
    ),
  );
  const entriesOf = emitted.map(({ entry }) => entry);
  const profileTotals = totalsByProfile(entriesOf);
  const groups = set.groups.map((group): ManifestGroup => {
    const members = entriesOf.filter((tool) => tool.groups?.includes(group.name));
    return {
      ...group,
      tools: members.map((tool) => tool.name),
      size: sumOf(members.map((tool) => tool.size)),
    };
  });
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    extensionKeys,
    tools: entriesOf,
    ...(groups.length > 0 ? { groups } : {}),
    ...(set.views && set.views.length > 0 ? { views: set.views.map(manifestViewEntry) } : {}),
    totals: {
      tools: emitted.length,
      ...sumOf(entriesOf.map((entry) => entry.size)),
      ...(profileTotals ? { profiles: profileTotals } : {}),
      turnOne: turnOneSizes(tools, set.groups, set.measure),
    },
  };
  // Byte for byte what JSON.stringify(manifest, null, 2) writes, from the memoised tool texts.
  const toolsText =
    emitted.length === 0
      ? ['[]']
      : [
          '[\n    ',
          ...interleaved(
            emitted.map(({ text }) => text),
            ',\n    ',
          ),
          '\n  ]',
        ];
  const nested = (value: unknown) => JSON.stringify(value, null, 2).replace(/\n/g, '\n  ');
  const totals = nested(manifest.totals);
  const keys = nested(extensionKeys);
  return {
    manifest,
    pieces: pieced`{\n  "format": ${MANIFEST_FORMAT},\n  "extensionKeys": ${keys},\n  "tools": ${toolsText},\n${
      manifest.groups ? `  "groups": ${nested(manifest.groups)},\n` : ''
    }${manifest.views ? `  "views": ${nested(manifest.views)},\n` : ''}  "totals": ${totals}\n}\n`,
  };
}

/** Each profile's tools in all, for the profiles the tools were prepared with. */
function totalsByProfile(tools: readonly ManifestTool[]): ManifestTool['size']['profiles'] {
  const names = [...new Set(tools.flatMap((tool) => Object.keys(tool.size.profiles ?? {})))] as ProfileName[];
  if (names.length === 0) return undefined;
  return Object.fromEntries(
    names.map((name) => [name, sumOf(tools.flatMap((tool) => tool.size.profiles?.[name] ?? []))]),
  );
}

function manifestEntry({ prepared, file, exportName, member, size, intents }: EmittableTool): {
  entry: ManifestTool;
  text: string;
} {
  const tool: Record<string, unknown> = {
    ...prepared,
    source: `${file}#${exportPath(exportName, member)}`,
    size,
    intents,
  };
  const entry = Object.fromEntries(
    TOOL_KEY_ORDER.filter((name) => tool[name] !== undefined).map((name) => [name, tool[name]]),
  ) as unknown as ManifestTool;
  // Indented by split and join: a global replace here leaves a rope that every later join re-walks.
  return { entry, text: JSON.stringify(entry, null, 2).split('\n').join('\n    ') };
}
