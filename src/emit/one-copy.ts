/**
 * A template's text written in one copy: an interpolated list is spliced in piece by piece. A text
 * of megabytes joined, then put in a template, is copied twice (the join, then the flattening when
 * it is compared or written), and a fresh copy of the 6 MB manifest of 1,000 tools costs about
 * 18 ms here, most of it the memory's first touch.
 */
export function oneCopy(
  strings: TemplateStringsArray,
  ...values: readonly (string | number | readonly string[])[]
): string {
  const parts: (string | number)[] = [];
  for (const [index, text] of strings.entries()) {
    parts.push(text);
    const value = values[index];
    if (typeof value === 'object') for (const piece of value) parts.push(piece);
    else if (value !== undefined) parts.push(value);
  }
  return parts.join('');
}

/** What `items.join(separator)` writes, as pieces for `oneCopy`. */
export function interleaved(items: readonly string[], separator: string): string[] {
  const parts: string[] = [];
  for (const [index, item] of items.entries()) {
    if (index > 0) parts.push(separator);
    parts.push(item);
  }
  return parts;
}
