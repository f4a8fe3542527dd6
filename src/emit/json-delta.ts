import { canonicalJson } from '../shared/build/canonical-json.js';
import { escapeRegExp } from '../shared/run/escape-reg-exp.js';
import { setOwn } from '../shared/run/own-property.js';

type Json = unknown;

const isRecord = (value: Json): value is Record<string, Json> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Where two JSON values differ, as `path: before → after` for each innermost place that differs
 * (an object present on both sides is walked; anything else is compared whole). Two tools whose
 * documents differ at the same places by the same values have the same delta, whatever else the
 * documents hold.
 */
export function jsonDelta(before: Json, after: Json, path = ''): string[] {
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) =>
      jsonDelta(
        Object.hasOwn(before, key) ? before[key] : undefined,
        Object.hasOwn(after, key) ? after[key] : undefined,
        `${path}/${key}`,
      ),
    );
  }
  const [was, now] = [canonicalJson(before) ?? '(none)', canonicalJson(after) ?? '(none)'];
  return was === now ? [] : [`${path || '/'}: ${was} → ${now}`];
}

/** Characters a tool name may hold beside which another name cannot go on (a `.` ends a sentence). */
const NAME_CHARACTER = '[A-Za-z0-9_-]';

/**
 * `value` with every whole-word `from` in its strings and keys spelled `to`: a renamed tool's
 * entry as it would read had it always had its new name, so that a rename is only a rename.
 */
export function withNameReplaced<T>(value: T, from: string, to: string): T {
  const word = new RegExp(`(?<!${NAME_CHARACTER})${escapeRegExp(from)}(?!${NAME_CHARACTER})`, 'g');
  const replace = (item: Json): Json => {
    if (typeof item === 'string') return item.replace(word, to);
    if (Array.isArray(item)) return item.map(replace);
    if (!isRecord(item)) return item;
    const copy: Record<string, Json> = {};
    for (const [key, inner] of Object.entries(item)) setOwn(copy, key.replace(word, to), replace(inner));
    return copy;
  };
  return replace(value) as T;
}
