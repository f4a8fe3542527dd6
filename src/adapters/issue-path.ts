/**
 * An issue's path as toolprep names fields: each segment a key or a place. A library's segment is
 * a key, or `{ key }` (Standard Schema's path segment).
 */
export function issuePath(segments: readonly unknown[] = []): (string | number)[] {
  return segments.map((segment) => {
    const key = (segment as { key?: unknown } | null)?.key ?? segment;
    return typeof key === 'number' ? key : String(key);
  });
}
