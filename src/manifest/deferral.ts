import type { PreparedTool } from './prepared-tool.js';

/** OpenAI's tool search guide: "keep each namespace under 10 functions". */
export const OPENAI_NAMESPACE_FUNCTIONS = 10;

/**
 * The OpenAI namespaces a set is sent with: each deferred tool under its own group (its first), by
 * group in the order the tools come. A deferred tool in no group and every eager tool stand alone.
 * The Responses surfaces send these; the build warns of one past OpenAI's advice.
 */
export function openaiNamespaces<Item>(
  items: readonly Item[],
  toolOf: (item: Item) => PreparedTool,
): Map<string, Item[]> {
  const namespaces = new Map<string, Item[]>();
  for (const item of items) {
    const tool = toolOf(item);
    const group = tool.groups?.[0];
    if (tool.loading !== 'deferred' || group === undefined) continue;
    namespaces.set(group, [...(namespaces.get(group) ?? []), item]);
  }
  return namespaces;
}
