import type { PreparedTool } from './prepared-tool.js';

/**
 * The generated module holds the prepared tools in three JSON texts (decisions 0063, 0079). The
 * first, parsed at start, holds what a server reads of every tool to serve it (names,
 * descriptions, annotations), with a placeholder in each deferred part's place. The other two hold
 * each tool's deferred parts on a line of its own, parsed when a part of that tool is first read:
 * its MCP documents (input and output), which a list reads for the tools of the page it writes;
 * and the parts nothing reads before a call or a provider's list (the plan, the AI SDK's
 * document, the profiles' documents). Each part's key keeps its place, so a tool reads, spreads
 * and serialises exactly as one parsed whole. An AI SDK document that is the MCP document under
 * another `$schema` is written as that `$schema` alone.
 */

/** A deferred part's place: on the tool (`plan`, `profiles`), or in its `inputSchema`. */
type PartPlace = readonly [parent: 'inputSchema' | undefined, key: string];

/** The deferred parts of each text after the first, in the order each tool's line lists them. */
const DEFERRED_TEXTS = [
  [
    ['inputSchema', 'mcp'],
    [undefined, 'outputSchema'],
  ],
  [
    ['inputSchema', 'agent'],
    [undefined, 'plan'],
    [undefined, 'profiles'],
  ],
] as const satisfies readonly (readonly PartPlace[])[];

/** How many texts of deferred parts the generated module passes after the first. */
export const DEFERRED_TEXT_COUNT: (typeof DEFERRED_TEXTS)['length'] = 2;

type DeferredKey = (typeof DEFERRED_TEXTS)[number][number][1];

/** A deferred part's text (after the first) and position in a tool's line. */
function positionOf(key: DeferredKey): { readonly text: number; readonly position: number } {
  const text = DEFERRED_TEXTS.findIndex((parts) => parts.some(([, partKey]) => partKey === key));
  const parts: readonly PartPlace[] = DEFERRED_TEXTS[text] ?? [];
  return { text, position: parts.findIndex(([, partKey]) => partKey === key) };
}

/** Where a deferred part was, in the first text: a value no part can be (each is an object). */
const PLACEHOLDER = 0;

type Holder = Record<string, unknown>;

/**
 * A tool as the texts hold it: with a placeholder where each deferred part was, and those parts,
 * a list for each text after the first (`undefined` for a part the tool has not).
 */
export function splitLaterParts(tool: PreparedTool): {
  readonly now: unknown;
  readonly deferred: readonly unknown[][];
} {
  const now: Holder = { ...tool, inputSchema: { ...tool.inputSchema } };
  const deferred = DEFERRED_TEXTS.map((places) =>
    places.map(([parent, key]) => {
      const holder = (parent === undefined ? now : now[parent]) as Holder;
      if (!(key in holder)) return undefined;
      const part = holder[key];
      holder[key] = PLACEHOLDER;
      return part;
    }),
  );
  // An AI SDK document that is the MCP document under another `$schema` (most are) is written as
  // that `$schema`: its text is not compiled twice, and it is made from the MCP line when read.
  const { mcp, agent } = tool.inputSchema;
  const { text, position } = positionOf('agent');
  if (
    typeof agent.$schema === 'string' &&
    JSON.stringify({ ...mcp, $schema: agent.$schema }) === JSON.stringify(agent)
  )
    (deferred[text] as unknown[])[position] = agent.$schema;
  return { now, deferred };
}

/**
 * The prepared tools from the generated module's texts: the first parsed now; each line of the
 * others (one per tool, JSON text, which has no line break) on the first read of one of its parts.
 *
 * Each tool and its `inputSchema` is copied into a new object, key by key, with a part's accessor
 * in its placeholder's place. Every tool shares the same accessors, so the copies share V8's
 * hidden classes; turning a parsed property into an accessor in place made each tool an object of
 * its own (dictionary mode): 10–20 ms at start for the bench's 1,000 tools (decision 0079).
 */
export function preparedToolsOf(nowText: string, ...deferredTexts: string[]): PreparedTool[] {
  const lines: string[][] = [];
  const parsedLines: unknown[][][] = DEFERRED_TEXTS.map(() => []);
  const lineOf = (text: number, index: number): string => {
    lines[text] ??= (deferredTexts[text] ?? '').split('\n');
    return lines[text][index] as string;
  };
  const partOf = (text: number, index: number, position: number): unknown => {
    const lineParts = parsedLines[text] as unknown[][];
    lineParts[index] ??= JSON.parse(lineOf(text, index)) as unknown[];
    return lineParts[index][position];
  };
  // An AI SDK document written as its `$schema`: a copy of the MCP document under that `$schema`,
  // made once per tool.
  const mcp = positionOf('mcp');
  const agents: unknown[] = [];
  const agentOf = (written: unknown, index: number) => {
    if (typeof written !== 'string') return written;
    const document = (JSON.parse(lineOf(mcp.text, index)) as unknown[])[mcp.position] as object;
    agents[index] ??= { ...document, $schema: written };
    return agents[index];
  };
  const onTool = new Map<string, PropertyDescriptor>();
  const inInputSchema = new Map<string, PropertyDescriptor>();
  for (const [text, parts] of DEFERRED_TEXTS.entries())
    for (const [position, [parent, key]] of parts.entries()) {
      const read = (index: number) => partOf(text, index, position);
      const accessor = deferredAccessor(key, key === 'agent' ? (index) => agentOf(read(index), index) : read);
      (parent === undefined ? onTool : inInputSchema).set(key, accessor);
    }
  return (JSON.parse(nowText) as Holder[]).map((parsed, index) => {
    const tool = copyWithAccessors(parsed, onTool, index);
    const { inputSchema } = parsed;
    if (typeof inputSchema === 'object' && inputSchema !== null)
      tool.inputSchema = copyWithAccessors(inputSchema as Holder, inInputSchema, index);
    return tool as unknown as PreparedTool;
  });
}

/** `source`'s own keys in their order, a placeholder under an accessor's key becoming that accessor. */
function copyWithAccessors(
  source: Holder,
  accessors: ReadonlyMap<string, PropertyDescriptor>,
  index: number,
): Holder {
  const copy: Holder = {};
  Object.defineProperty(copy, TOOL_INDEX, { value: index });
  for (const key of Object.keys(source)) {
    const value = source[key];
    const accessor = value === PLACEHOLDER ? accessors.get(key) : undefined;
    if (accessor) Object.defineProperty(copy, key, accessor);
    // A parsed `__proto__` is an own key: it stays one, never the copy's prototype.
    else if (key === '__proto__') holdValue(copy, key, value);
    else copy[key] = value;
  }
  return copy;
}

function holdValue(holder: Holder, key: string, value: unknown): void {
  Object.defineProperty(holder, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Which tool a holder belongs to, on the holder itself: a non-enumerable symbol, so that it goes
 * wherever the accessors go (an object made with `Object.create(tool)` inherits it; a copy made
 * from the tool's property descriptors carries it), and no listing or JSON shows it.
 */
const TOOL_INDEX = Symbol('toolprep.toolIndex');

/**
 * The accessor of one deferred part, shared by every holder: it reads `part(index)` of the tool it
 * is read on, which then holds the value as a plain property, in its place.
 */
function deferredAccessor(key: string, part: (index: number) => unknown): PropertyDescriptor {
  return {
    configurable: true,
    enumerable: true,
    get(this: Holder) {
      const holder = holderOf(this);
      const value = part(holder[TOOL_INDEX] as number);
      // A frozen holder keeps the accessor, which reads the same parsed value each time.
      if (Object.isExtensible(holder)) holdValue(holder, key, value);
      return value;
    },
    set(this: Holder, value: unknown) {
      holdValue(holderOf(this), key, value);
    },
  };
}

/** The tool (or copy of one) that holds the index: read through `Object.create(tool)`, the tool holds the part. */
function holderOf(self: Holder): Holder & { readonly [TOOL_INDEX]?: number } {
  let holder: Holder | null = self;
  while (holder !== null && !Object.hasOwn(holder, TOOL_INDEX)) holder = Object.getPrototypeOf(holder);
  return holder ?? self;
}
