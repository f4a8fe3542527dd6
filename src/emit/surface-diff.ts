import type { Manifest, ManifestTool } from '../manifest/manifest.js';
import type { ProfileName } from '../manifest/profiles.js';
import { canonicalJson } from '../shared/build/canonical-json.js';
import { typeText } from '../shared/json-schema/schema-text.js';
import { getOwn } from '../shared/run/own-property.js';

type Properties = Record<string, Record<string, unknown>>;

/**
 * What changed in the tool surface between two manifests, in words a reviewer reads: tools added,
 * removed and renamed; fields added, removed, retyped, made required or optional; descriptions.
 */
export function describeSurfaceChanges(before: Manifest | undefined, after: Manifest): string[] {
  const lines: string[] = [];
  const pairs = pairTools(before, after);
  for (const { before: tool } of pairs)
    if (tool && !pairs.some((pair) => pair.before === tool && pair.after))
      lines.push(`- tool ${tool.name} removed (was ${tool.source})`);
  for (const { before: previous, after: tool } of pairs) {
    if (!tool) continue;
    if (!previous) {
      lines.push(`+ tool ${tool.name} added (${tool.source})`);
      continue;
    }
    const changes = toolChanges(previous, tool);
    if (previous.name !== tool.name)
      lines.push(
        `~ tool ${previous.name} renamed to ${tool.name} (a breaking change: clients and prompts call tools by name)`,
      );
    else if (changes.length > 0) lines.push(`~ tool ${tool.name}`);
    lines.push(...changes.map((change) => `    ${change}`));
  }
  return lines;
}

/** A tool of the committed manifest and the tool it became; one side is absent when added or removed. */
export interface ToolPair {
  readonly before?: ManifestTool;
  readonly after?: ManifestTool;
}

/**
 * The tools of two manifests paired: by name, or as a rename when a tool comes from the same
 * export, or (an export renamed too) from the same file with the same input document. The new
 * manifest's tools in order, then the removed ones.
 */
export function pairTools(before: Manifest | undefined, after: Manifest): ToolPair[] {
  const oldTools = before?.tools ?? [];
  const old = new Map(oldTools.map((tool) => [tool.name, tool]));
  const next = new Set(after.tools.map((tool) => tool.name));
  const fileOf = (tool: ManifestTool) => tool.source.split('#')[0];
  const sameInput = (a: ManifestTool, b: ManifestTool) =>
    JSON.stringify(a.inputSchema.mcp) === JSON.stringify(b.inputSchema.mcp);
  const taken = new Set<string>();
  const pairs: ToolPair[] = after.tools.map((tool) => {
    const named = old.get(tool.name);
    if (named) return { before: named, after: tool };
    const gone = oldTools.filter((candidate) => !next.has(candidate.name) && !taken.has(candidate.name));
    const previous =
      gone.find((candidate) => candidate.source === tool.source) ??
      gone.find((candidate) => fileOf(candidate) === fileOf(tool) && sameInput(candidate, tool));
    if (previous) taken.add(previous.name);
    return previous ? { before: previous, after: tool } : { after: tool };
  });
  for (const tool of oldTools)
    if (!next.has(tool.name) && !taken.has(tool.name)) pairs.push({ before: tool });
  return pairs;
}

function toolChanges(before: ManifestTool, after: ManifestTool): string[] {
  const changes: string[] = [];
  if (before.description !== after.description) changes.push('description changed');
  const oldProperties = propertiesOf(before);
  const newProperties = propertiesOf(after);
  const oldRequired = requiredOf(before);
  const newRequired = requiredOf(after);
  for (const key of Object.keys(oldProperties))
    if (!Object.hasOwn(newProperties, key)) changes.push(`- field ${key} removed`);
  for (const [key, schema] of Object.entries(newProperties)) {
    const previous = getOwn(oldProperties, key);
    if (!previous) {
      changes.push(
        `+ field ${key} added (${newRequired.has(key) ? 'required' : 'optional'}, ${typeText(schema)})`,
      );
      continue;
    }
    if (typeText(previous) !== typeText(schema))
      changes.push(`~ field ${key}: type ${typeText(previous)} → ${typeText(schema)}`);
    else if (canonicalJson(withoutDescription(previous)) !== canonicalJson(withoutDescription(schema)))
      changes.push(`~ field ${key}: schema changed`);
    if (oldRequired.has(key) !== newRequired.has(key))
      changes.push(`~ field ${key}: now ${newRequired.has(key) ? 'required' : 'optional'}`);
    if (previous.description !== schema.description) changes.push(`~ field ${key}: description changed`);
  }
  const profiles = new Set([...Object.keys(before.profiles ?? {}), ...Object.keys(after.profiles ?? {})]);
  for (const profile of [...profiles].sort()) {
    const old = before.profiles?.[profile as ProfileName];
    const next = after.profiles?.[profile as ProfileName];
    if (!old) changes.push(`+ profile ${profile} added`);
    else if (!next) changes.push(`- profile ${profile} removed`);
    else if (canonicalJson(old) !== canonicalJson(next))
      changes.push(`~ profile ${profile}: document changed`);
  }
  if (changes.length === 0 && before.digest !== after.digest)
    changes.push('schema or plan changed (see the diff)');
  return changes;
}

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
