import { withoutOwn } from './json-text.js';

/** The inverse steps a call through a profile runs, shared by the plan's walk and the reference. */

/**
 * The inverse step `nullAbsent`: own keys whose value is `null` deleted, those listed, and (with
 * `beyond`) any key not among the object's declared ones. The record itself when none is there.
 */
export function withoutAbsentNulls(
  record: Record<string, unknown>,
  listed: readonly string[] | undefined,
  beyond: ReadonlySet<string> | undefined,
): Record<string, unknown> {
  const absent = new Set<string>();
  for (const key of listed ?? []) if (record[key] === null && Object.hasOwn(record, key)) absent.add(key);
  if (beyond)
    for (const key of Object.keys(record)) if (record[key] === null && !beyond.has(key)) absent.add(key);
  return absent.size > 0 ? withoutOwn(record, absent) : record;
}

export const sameIgnoringCase = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The inverse step `caseFold`: a string that is no member, but one member ignoring case, is that member. */
export function foldCase(members: readonly string[], text: string): string {
  if (members.includes(text)) return text;
  const matching = members.filter((member) => sameIgnoringCase(member, text));
  return matching.length === 1 ? (matching[0] as string) : text;
}
