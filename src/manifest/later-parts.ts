import type { PreparedTool } from './prepared-tool.js';

/**
 * The generated module holds each prepared tool in two JSON texts (decision 0063): what a server
 * needs at start (its list: names, descriptions, MCP's input documents), parsed at once, and the
 * parts nothing reads before a call or a provider's list (the plan, the AI SDK's document, the
 * profiles' documents), parsed on the first read of any of them. Each later part's key keeps its
 * place in the object, so a tool reads, spreads and serialises exactly as one parsed whole.
 */

/** A later part's place: on the tool (`plan`, `profiles`), or in its `inputSchema` (`agent`). */
const LATER_PARTS = [
  ['inputSchema', 'agent'],
  [undefined, 'plan'],
  [undefined, 'profiles'],
] as const;

/** Where a later part was, in the first text: a value no part can be (each is an object). */
const PLACEHOLDER = 0;

/** A tool as the two texts hold it: with a placeholder where each later part was, and those parts. */
export function splitLaterParts(tool: PreparedTool): { readonly now: unknown; readonly later: unknown[] } {
  const now: Record<string, unknown> = { ...tool, inputSchema: { ...tool.inputSchema } };
  const later = LATER_PARTS.map(([parent, key]) => {
    const holder = (parent === undefined ? now : now[parent]) as Record<string, unknown>;
    if (!(key in holder)) return undefined;
    const part = holder[key];
    holder[key] = PLACEHOLDER;
    return part;
  });
  return { now, later };
}

/**
 * The prepared tools from the generated module's two texts: the first parsed now, the second
 * (each tool's later parts, in `LATER_PARTS` order) on the first read of a part of any tool.
 */
export function preparedToolsOf(nowText: string, laterText: string): PreparedTool[] {
  const tools = JSON.parse(nowText) as Record<string, unknown>[];
  let later: unknown[][] | undefined;
  const laterParts = () => {
    later ??= JSON.parse(laterText) as unknown[][];
    return later;
  };
  tools.forEach((tool, index) => {
    for (const [position, [parent, key]] of LATER_PARTS.entries()) {
      const holder = (parent === undefined ? tool : tool[parent]) as Record<string, unknown>;
      if (holder[key] === PLACEHOLDER) readLater(holder, key, () => laterParts()[index]?.[position]);
    }
  });
  return tools as unknown as PreparedTool[];
}

/** Makes `key` read `part()` on its first read, and then hold it as a plain property, in its place. */
function readLater(holder: Record<string, unknown>, key: string, part: () => unknown): void {
  Object.defineProperty(holder, key, {
    configurable: true,
    enumerable: true,
    get() {
      const value = part();
      // A frozen holder keeps the getter, which reads the same parsed value each time.
      if (Object.isExtensible(holder))
        Object.defineProperty(holder, key, { value, writable: true, enumerable: true, configurable: true });
      return value;
    },
    set(value: unknown) {
      Object.defineProperty(holder, key, { value, writable: true, enumerable: true, configurable: true });
    },
  });
}
