import type { Manifest, ManifestTool } from '../manifest/manifest.js';
import type { ProfileName } from '../manifest/profiles.js';
import { canonicalJson } from '../shared/build/canonical-json.js';
import { typeText } from '../shared/json-schema/schema-text.js';
import { getOwn, setOwn } from '../shared/run/own-property.js';
import { jsonDelta, withNameReplaced } from './json-delta.js';

type Properties = Record<string, Record<string, unknown>>;

/** One change to one tool, in words, and what makes it the same change as another tool's. */
interface ToolChange {
  readonly line: string;
  /** The line and the values before and after: two tools' changes with one key are the same change. */
  readonly key: string;
  /** The text before and after, shown once for a change many tools share. */
  readonly shown?: { readonly before: string; readonly after: string };
}

/** A tool of the committed manifest and the tool it became; one side is absent when added or removed. */
interface ToolPair {
  readonly before?: ManifestTool;
  readonly after?: ManifestTool;
}

/** A pair and what changed between its two sides (nothing for a tool added or removed). */
export interface ComparedTool extends ToolPair {
  readonly renamed: boolean;
  readonly changes: readonly ToolChange[];
}

/** Each tool of two manifests, paired, with its changes: the new manifest's tools, then the removed. */
export function compareSurfaces(before: Manifest | undefined, after: Manifest): ComparedTool[] {
  return pairTools(before, after).map((pair) => {
    if (!pair.before || !pair.after) return { ...pair, renamed: false, changes: [] };
    const renamed = pair.before.name !== pair.after.name;
    // A name the tool's own documents spell (its description, a title) follows the rename.
    const previous = renamed ? withNameReplaced(pair.before, pair.before.name, pair.after.name) : pair.before;
    return { ...pair, renamed, changes: toolChanges(previous, pair.after, renamed) };
  });
}

/** How `describeSurfaceChanges` writes a change shared by tools. */
export interface DescribeChangesOptions {
  /** How many of the tools sharing a change to name (default: all). */
  readonly toolsNamed?: number;
  /** The characters of a value before and after to show (default: all). */
  readonly valueLength?: number;
}

/**
 * What changed in the tool surface between two manifests, in words a reviewer reads: tools
 * removed; each change that several tools share, once, with those tools and the values before
 * and after; then tools renamed, changed and added. A pure rename is its name's line alone.
 */
export function describeSurfaceChanges(
  before: Manifest | undefined,
  after: Manifest,
  options: DescribeChangesOptions = {},
): string[] {
  return describeComparison(compareSurfaces(before, after), options);
}

export function describeComparison(
  compared: readonly ComparedTool[],
  options: DescribeChangesOptions,
): string[] {
  const lines: string[] = [];
  for (const { before: tool, after } of compared)
    if (tool && !after) lines.push(`- tool ${tool.name} removed (was ${tool.source})`);
  const shared = sharedChanges(compared);
  for (const { change, tools } of shared.values())
    if (tools.length > 1) lines.push(...sharedChangeLines(change, tools, options));
  for (const { before: previous, after: tool, renamed, changes } of compared) {
    if (!tool) continue;
    if (!previous) {
      lines.push(`+ tool ${tool.name} added (${tool.source})`);
      continue;
    }
    const own = changes.filter((change) => (shared.get(change.key)?.tools.length ?? 0) < 2);
    if (renamed)
      lines.push(
        `~ tool ${previous.name} renamed to ${tool.name} (a breaking change: clients and prompts call tools by name)`,
      );
    else if (own.length > 0) lines.push(`~ tool ${tool.name}`);
    lines.push(...own.map((change) => `    ${change.line}`));
  }
  return lines;
}

/** Each change by its key, with the tools it was made in, in the order first met. */
function sharedChanges(
  compared: readonly ComparedTool[],
): Map<string, { readonly change: ToolChange; readonly tools: string[] }> {
  const shared = new Map<string, { change: ToolChange; tools: string[] }>();
  for (const { after, changes } of compared)
    for (const change of after ? changes : []) {
      const entry = shared.get(change.key) ?? { change, tools: [] };
      entry.tools.push(after?.name as string);
      shared.set(change.key, entry);
    }
  return shared;
}

function sharedChangeLines(
  change: ToolChange,
  tools: readonly string[],
  { toolsNamed = tools.length, valueLength = Number.POSITIVE_INFINITY }: DescribeChangesOptions,
): string[] {
  const named = tools.slice(0, toolsNamed).join(', ');
  const more = tools.length > toolsNamed ? ` and ${tools.length - toolsNamed} more` : '';
  const lines = [`${change.line.replace(/^(?![-+~] )/, '~ ')}, in ${tools.length} tools: ${named}${more}`];
  const value = (text: string) => (text.length > valueLength ? `${text.slice(0, valueLength)}…` : text);
  if (change.shown)
    lines.push(`    was ${value(change.shown.before)}`, `    now ${value(change.shown.after)}`);
  return lines;
}

/**
 * The tools of two manifests paired: by name, or as a rename when a tool comes from the same
 * export, or (an export renamed too) from the same file with the same input document, or with
 * the only one there whose input differs from it in descriptions alone (a rename beside a shared
 * description edit). The new manifest's tools in order, then the removed ones.
 */
function pairTools(before: Manifest | undefined, after: Manifest): ToolPair[] {
  const oldTools = before?.tools ?? [];
  const old = new Map(oldTools.map((tool) => [tool.name, tool]));
  const next = new Set(after.tools.map((tool) => tool.name));
  const fileOf = (tool: ManifestTool) => tool.source.split('#')[0];
  const taken = new Set<string>();
  const pairs: ToolPair[] = after.tools.map((tool) => {
    const named = old.get(tool.name);
    if (named) return { before: named, after: tool };
    const gone = oldTools.filter(
      (candidate) =>
        !next.has(candidate.name) && !taken.has(candidate.name) && fileOf(candidate) === fileOf(tool),
    );
    const input = canonicalJson(tool.inputSchema.mcp);
    const shape = canonicalJson(withoutDescriptions(tool.inputSchema.mcp));
    const sameShape = gone.filter(
      (candidate) => canonicalJson(withoutDescriptions(candidate.inputSchema.mcp)) === shape,
    );
    const previous =
      gone.find((candidate) => candidate.source === tool.source) ??
      gone.find((candidate) => canonicalJson(candidate.inputSchema.mcp) === input) ??
      (sameShape.length === 1 ? sameShape[0] : undefined);
    if (previous) taken.add(previous.name);
    return previous ? { before: previous, after: tool } : { after: tool };
  });
  for (const tool of oldTools)
    if (!next.has(tool.name) && !taken.has(tool.name)) pairs.push({ before: tool });
  return pairs;
}

/** Keys of an entry that are not what a model or client is shown: who it is, where, how big. */
const BESIDE_THE_SURFACE = new Set(['name', 'source', 'size', 'digest']);
/** Keys compared on their own below; every other key is compared whole, in these words where given. */
const READ_FIELD_BY_FIELD = new Set(['description', 'inputSchema', 'profiles']);
const KEY_WORDS: Readonly<Record<string, string>> = {
  outputSchema: 'output document',
  plan: 'coercion plan',
  libraries: 'schema libraries',
  excludedFrom: 'profiles left out',
  mcpHeaders: 'arguments mirrored into headers',
  task: 'task policy',
};

function toolChanges(before: ManifestTool, after: ManifestTool, renamed: boolean): ToolChange[] {
  const changes: ToolChange[] = [];
  const add = (line: string, evidence: unknown = '', shown?: ToolChange['shown']) =>
    changes.push({ line, key: `${line}\u0000${canonicalJson(evidence)}`, ...(shown ? { shown } : {}) });
  if (before.description !== after.description)
    add('description changed', [before.description, after.description], {
      before: JSON.stringify(before.description),
      after: JSON.stringify(after.description),
    });
  const fieldLines = changes.length;
  for (const [line, evidence, shown] of fieldChanges(before, after)) add(line, evidence, shown);
  const inputChanged = canonicalJson(before.inputSchema.mcp) !== canonicalJson(after.inputSchema.mcp);
  if (inputChanged && changes.length === fieldLines)
    add('~ input document changed', jsonDelta(before.inputSchema.mcp, after.inputSchema.mcp));
  const profiles = new Set([...Object.keys(before.profiles ?? {}), ...Object.keys(after.profiles ?? {})]);
  for (const profile of [...profiles].sort()) {
    const old = before.profiles?.[profile as ProfileName];
    const next = after.profiles?.[profile as ProfileName];
    if (!old) add(`+ profile ${profile} added`);
    else if (!next) add(`- profile ${profile} removed`);
    else if (canonicalJson(old) !== canonicalJson(next))
      add(`~ profile ${profile}: document changed`, jsonDelta(old, next));
  }
  // What follows from the input document (its draft-07 twin, the plan) is named only when it did not change.
  const followsInput = new Set(['plan']);
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) {
    if (BESIDE_THE_SURFACE.has(key) || READ_FIELD_BY_FIELD.has(key)) continue;
    if (inputChanged && followsInput.has(key)) continue;
    const old = getOwn(before as unknown as Record<string, unknown>, key);
    const next = getOwn(after as unknown as Record<string, unknown>, key);
    if (canonicalJson(old) !== canonicalJson(next))
      add(`~ ${KEY_WORDS[key] ?? key} changed`, jsonDelta(old, next));
  }
  if (!inputChanged && canonicalJson(before.inputSchema) !== canonicalJson(after.inputSchema))
    add('~ input document changed', jsonDelta(before.inputSchema, after.inputSchema));
  // A renamed export is the rename itself.
  if (!renamed && before.source !== after.source) add(`~ source ${before.source} → ${after.source}`);
  return changes;
}

/** The changes of the MCP input document's top-level fields, each with what makes it that change. */
function fieldChanges(
  before: ManifestTool,
  after: ManifestTool,
): [line: string, evidence: unknown, shown?: ToolChange['shown']][] {
  const changes: [string, unknown, ToolChange['shown']?][] = [];
  const oldProperties = propertiesOf(before);
  const newProperties = propertiesOf(after);
  const oldRequired = requiredOf(before);
  const newRequired = requiredOf(after);
  for (const key of Object.keys(oldProperties))
    if (!Object.hasOwn(newProperties, key)) changes.push([`- field ${key} removed`, oldProperties[key]]);
  for (const [key, schema] of Object.entries(newProperties)) {
    const previous = getOwn(oldProperties, key);
    if (!previous) {
      const required = newRequired.has(key) ? 'required' : 'optional';
      changes.push([`+ field ${key} added (${required}, ${typeText(schema)})`, schema]);
      continue;
    }
    const [oldShape, newShape] = [withoutDescription(previous), withoutDescription(schema)];
    if (typeText(previous) !== typeText(schema))
      changes.push([
        `~ field ${key}: type ${typeText(previous)} → ${typeText(schema)}`,
        jsonDelta(oldShape, newShape),
      ]);
    else if (canonicalJson(oldShape) !== canonicalJson(newShape))
      changes.push([`~ field ${key}: schema changed`, jsonDelta(oldShape, newShape)]);
    if (oldRequired.has(key) !== newRequired.has(key))
      changes.push([`~ field ${key}: now ${newRequired.has(key) ? 'required' : 'optional'}`, '']);
    if (previous.description !== schema.description)
      changes.push([
        `~ field ${key}: description changed`,
        [previous.description, schema.description],
        { before: quoted(previous.description), after: quoted(schema.description) },
      ]);
  }
  return changes;
}

const quoted = (text: unknown): string => (text === undefined ? '(none)' : JSON.stringify(text));

function propertiesOf(tool: ManifestTool): Properties {
  return (tool.inputSchema.mcp.properties ?? {}) as Properties;
}

function requiredOf(tool: ManifestTool): Set<string> {
  return new Set((tool.inputSchema.mcp.required ?? []) as string[]);
}

function withoutDescription(schema: Record<string, unknown>): Record<string, unknown> {
  const { description: _description, ...rest } = schema;
  return rest;
}

/** A document with every `description` keyword gone, at any depth (a field named so stays: its value is a schema). */
function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value))
    if (key !== 'description' || typeof inner !== 'string') setOwn(copy, key, withoutDescriptions(inner));
  return copy;
}
