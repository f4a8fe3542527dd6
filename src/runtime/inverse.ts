import { setOwn } from '../shared/run/own-property.js';

/** The inverse steps a call through a profile runs, shared by the plan's walk and the reference. */

/**
 * The inverse step `nullAbsent`: own keys whose value is `null` left out, those listed, and (with
 * `beyond`) any key not among the object's declared ones. The record itself when none is there.
 */
export function withoutAbsentNulls(
  record: Record<string, unknown>,
  listed: readonly string[] | undefined,
  beyond: ReadonlySet<string> | undefined,
): Record<string, unknown> {
  let found = false;
  if (listed) for (const key of listed) found ||= record[key] === null && Object.hasOwn(record, key);
  if (beyond && !found)
    for (const key in record)
      found ||= isAbsentNull(record, key, listed, beyond) && Object.hasOwn(record, key);
  if (!found) return record;
  // Built key by key rather than spread and deleted from: a deletion slows every later read.
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record))
    if (!isAbsentNull(record, key, listed, beyond)) setOwn(copy, key, record[key]);
  return copy;
}

/** Whether `record[key]` is a `null` that stands for the key left out. A function of its own: no closure per call. */
function isAbsentNull(
  record: Record<string, unknown>,
  key: string,
  listed: readonly string[] | undefined,
  beyond: ReadonlySet<string> | undefined,
): boolean {
  return (
    record[key] === null && ((beyond !== undefined && !beyond.has(key)) || (listed?.includes(key) ?? false))
  );
}

export const sameIgnoringCase = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The inverse step `caseFold`: a string that is no member, but one member ignoring case, is that member. */
export function foldCase(members: readonly string[], text: string): string {
  if (members.includes(text)) return text;
  const matching = members.filter((member) => sameIgnoringCase(member, text));
  return matching.length === 1 ? (matching[0] as string) : text;
}

/** `foldCase` for these members, with their lower-case forms computed once. */
export function caseFolder(members: readonly string[]): (text: string) => string {
  const byLowerCase = new Map<string, string | undefined>();
  // Two members one ignoring case fold nothing: their lower-case form maps to undefined.
  for (const member of members) {
    const lower = member.toLowerCase();
    byLowerCase.set(lower, byLowerCase.has(lower) ? undefined : member);
  }
  const exact = new Set(members);
  return (text) => (exact.has(text) ? text : (byLowerCase.get(text.toLowerCase()) ?? text));
}
