/**
 * A generated text as the pieces it is made of: what a template writes, with each interpolated
 * list spliced in piece by piece. The manifest and the modules are written and compared piece by
 * piece (write-files.ts), never made whole on the way: at 1,000 tools the manifest is 6 MB, and a
 * fresh string of that size cost about 25 ms here, most of it the memory's first touch.
 */
export function pieced(
  strings: TemplateStringsArray,
  ...values: readonly (string | number | readonly string[])[]
): string[] {
  const pieces: string[] = [];
  for (const [index, text] of strings.entries()) {
    pieces.push(text);
    const value = values[index];
    if (typeof value === 'object') for (const piece of value) pieces.push(piece);
    else if (value !== undefined) pieces.push(String(value));
  }
  return pieces;
}

/** What `items.join(separator)` writes, as pieces. */
export function interleaved(items: readonly string[], separator: string): string[] {
  const parts: string[] = [];
  for (const [index, item] of items.entries()) {
    if (index > 0) parts.push(separator);
    parts.push(item);
  }
  return parts;
}
