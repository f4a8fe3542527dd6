import type { JsonSchema } from '../shared/json-schema/schema.js';
import { isRecord } from '../shared/run/is-record.js';
import { getOwn } from '../shared/run/own-property.js';
import { childSchemas, declaredKeys } from './schema-at-path.js';

/**
 * Keys sent that a tool does not declare, and the declared key each most likely stands for: what a
 * refusal names when a call fails (a parser strips such keys, or refuses them in its own words).
 */

type Path = readonly (string | number)[];

export const pathKey = (path: Path): string => JSON.stringify(path);

export interface StrayKey {
  readonly path: Path;
  /** The keys the object the stray sits in declares, and those it was sent without. */
  readonly declared: readonly string[];
  readonly absent: readonly string[];
}

/**
 * Keys sent in an object whose document names its keys and takes no others, at any depth;
 * `taken` are top-level keys the runtime takes although the document does not show them.
 */
export function undeclaredKeys(
  document: JsonSchema,
  args: Record<string, unknown>,
  taken: readonly string[],
): StrayKey[] {
  const strays: StrayKey[] = [];
  const walk = (value: unknown, schemas: readonly JsonSchema[], path: (string | number)[]): void => {
    if (schemas.length === 0) return;
    if (Array.isArray(value))
      for (const [index, item] of value.entries())
        walk(item, childSchemas(document, schemas, index), [...path, index]);
    if (!isRecord(value)) return;
    const { keys, described, takesOthers } = declaredKeys(document, schemas);
    for (const key of Object.keys(value)) {
      const here = [...path, key];
      if (keys.includes(key) || !described || takesOthers)
        walk(getOwn(value, key), childSchemas(document, schemas, key), here);
      else if (!(path.length === 0 && taken.includes(key)))
        strays.push({
          path: here,
          declared: keys,
          absent: keys.filter((name) => !Object.hasOwn(value, name)),
        });
    }
  };
  walk(args, [document], []);
  return strays;
}

/** Whether a parser's issue about an object is its refusal of a stray key (`Unrecognized key: "file"`). */
export function namesStray(path: Path, message: string, strays: readonly StrayKey[]): boolean {
  return strays.some(
    (stray) =>
      stray.path.length === path.length + 1 &&
      path.every((segment, index) => stray.path[index] === segment) &&
      [`"${stray.path.at(-1)}"`, `'${stray.path.at(-1)}'`].some((quoted) => message.includes(quoted)),
  );
}

/**
 * The declared key each stray key most likely stands for: a close one the object was sent without
 * (the same but for case and `_`/`-`, one the prefix of the other, or a few edits apart), closest
 * first and a required key reported missing before an optional one; else, where one stray key is
 * left beside one missing key in the same object, that one.
 */
export function guessStrays(strays: readonly StrayKey[], missing: readonly Path[]): Map<StrayKey, Path> {
  const guesses = new Map<StrayKey, Path>();
  const guessed = new Set<string>();
  const guess = (stray: StrayKey, path: Path) => {
    guesses.set(stray, path);
    guessed.add(pathKey(path));
  };
  const missingKeys = new Set(missing.map(pathKey));
  const close = strays.flatMap((stray) =>
    stray.absent.flatMap((name) => {
      const distance = closeness(String(stray.path.at(-1)), name);
      const path = [...stray.path.slice(0, -1), name];
      return distance === undefined
        ? []
        : [{ stray, path, rank: distance * 2 + (missingKeys.has(pathKey(path)) ? 0 : 1) }];
    }),
  );
  for (const { stray, path } of close.sort((a, b) => a.rank - b.rank))
    if (!guesses.has(stray) && !guessed.has(pathKey(path))) guess(stray, path);
  const parentOf = (path: Path) => pathKey(path.slice(0, -1));
  for (const stray of strays) {
    if (guesses.has(stray)) continue;
    const here = parentOf(stray.path);
    const left = strays.filter((other) => !guesses.has(other) && parentOf(other.path) === here);
    const unmet = missing.filter((path) => !guessed.has(pathKey(path)) && parentOf(path) === here);
    if (left.length === 1 && unmet.length === 1) guess(stray, unmet[0] as Path);
  }
  return guesses;
}

/** How far apart two names are (0: the same but for case and separators), or undefined if not close. */
function closeness(sent: string, declared: string): number | undefined {
  const [a, b] = [sent, declared].map((name) => name.toLowerCase().replace(/[-_]/g, '')) as [string, string];
  if (a === b) return 0;
  const shorter = Math.min(a.length, b.length);
  if (shorter >= 3 && (a.startsWith(b) || b.startsWith(a))) return 1;
  const allowed = Math.max(1, Math.floor(Math.max(a.length, b.length) / 4));
  // Long names are compared only as above: the edit distance grows with the product of lengths.
  if (Math.abs(a.length - b.length) > allowed || Math.max(a.length, b.length) > 64) return undefined;
  const distance = editDistance(a, b);
  return distance <= allowed ? 1 + distance : undefined;
}

/** Edits (insert, delete, replace, swap two neighbours) that turn one name into the other. */
function editDistance(a: string, b: string): number {
  // Row i holds the distances from the first i characters of `a` to each start of `b`.
  let twoBack: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const replace = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, replace);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (twoBack[j - 2] as number) + 1);
      row.push(best);
    }
    twoBack = previous;
    previous = row;
  }
  return previous[b.length] as number;
}
