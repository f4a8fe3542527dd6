/** A repair that cannot be made, or an argument toolprep refuses, at a field's path. */
export class CoercionRefusal extends Error {
  override readonly name = 'CoercionRefusal';
  readonly path: readonly (string | number)[];
  constructor(path: readonly (string | number)[], message: string) {
    super(message);
    // The walk reuses its path array; the refusal keeps its own copy.
    this.path = path.slice();
  }
}

export function formatPath(path: readonly (string | number)[]): string {
  return path.length === 0 ? '(arguments)' : path.join('.');
}

export function listAsText(path: readonly (string | number)[]): CoercionRefusal {
  return new CoercionRefusal(
    path,
    `${formatPath(path)} is a list written as text — pass the array itself, not JSON written as text`,
  );
}

export function tooDeep(path: readonly (string | number)[], maxDepth: number): CoercionRefusal {
  return new CoercionRefusal(path, `${formatPath(path)} is nested deeper than ${maxDepth} levels`);
}

/** What `parseJsonText` returns for text that is not JSON. */
export const NOT_JSON: unique symbol = Symbol('not JSON');

/**
 * Parses JSON text, or returns NOT_JSON. A `__proto__` key is dropped so that it can never reach a
 * prototype; text nested deeper than `maxDepth` is refused before it is parsed.
 */
export function parseJsonText(
  text: string,
  path: readonly (string | number)[],
  maxDepth: number,
): unknown | typeof NOT_JSON {
  // The text sits at `path`, so its own nesting counts from there.
  if (path.length + nestingDepth(text) > maxDepth) throw tooDeep(path, maxDepth);
  try {
    return text.includes('__proto__') ? JSON.parse(text, dropProtoKey) : JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

function dropProtoKey(key: string, value: unknown): unknown {
  return key === '__proto__' ? undefined : value;
}

/** The deepest bracket nesting outside string literals; linear in the text. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 92 /* \ */) index++;
      else if (code === 34 /* " */) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 91 /* [ */ || code === 123 /* { */) deepest = Math.max(deepest, ++depth);
    else if (code === 93 /* ] */ || code === 125 /* } */) depth--;
  }
  return deepest;
}

/** The JSON kind of a value, as the plan and the reference see it. */
export function structureKind(value: unknown): 'object' | 'array' | undefined {
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' && value !== null ? 'object' : undefined;
}

/** The JSON kind of a parsed value: `object`, `array`, `string`, `number`, `boolean`, `null`. */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/**
 * Whether text can be taken as one value where a list is wanted: not when it starts as JSON
 * structure does (`[`, `{`: a truncated list), nor when it holds a comma or a line break (a list
 * written by hand, which could mean one item or several).
 */
export function isOneValueText(text: string): boolean {
  return !/^\s*[[{]/.test(text) && !/[,\n]/.test(text);
}
