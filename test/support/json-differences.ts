import { getOwn } from '../../src/shared/run/own-property.js';

/**
 * One difference between two JSON values, compared canonically (an object's key order does not
 * count; an array's order does): at `path`, a key only `before` has, only `after` has, or a value
 * each has differently (an array of another length differs as a whole).
 */
export interface Difference {
  readonly path: readonly (string | number)[];
  readonly kind: 'removed' | 'added' | 'changed';
  readonly before?: unknown;
  readonly after?: unknown;
  /** The objects (or arrays) holding it, before and after. */
  readonly parentBefore?: unknown;
  readonly parentAfter?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function differencesOf(before: unknown, after: unknown): Difference[] {
  const found: Difference[] = [];
  const walk = (a: unknown, b: unknown, path: (string | number)[], parentA: unknown, parentB: unknown) => {
    if (isObject(a) && isObject(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
        const inA = Object.hasOwn(a, key);
        const inB = Object.hasOwn(b, key);
        const at = [...path, key];
        if (inA && inB) walk(getOwn(a, key), getOwn(b, key), at, a, b);
        else if (inA)
          found.push({ path: at, kind: 'removed', before: getOwn(a, key), parentBefore: a, parentAfter: b });
        else found.push({ path: at, kind: 'added', after: getOwn(b, key), parentBefore: a, parentAfter: b });
      }
      return;
    }
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      for (const [index, item] of a.entries()) walk(item, b[index], [...path, index], a, b);
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b))
      found.push({ path, kind: 'changed', before: a, after: b, parentBefore: parentA, parentAfter: parentB });
  };
  walk(before, after, [], undefined, undefined);
  return found;
}

/** A path as a JSON pointer: `/properties/limit/type`. */
export const pointerOf = (path: readonly (string | number)[]): string =>
  path.map((part) => `/${String(part).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('') || '/';

/** A difference in a sentence: `removed /properties/limit/default: 10 → (absent)`. */
export const describeDifference = (difference: Difference): string =>
  `${difference.kind} ${pointerOf(difference.path)}: ${JSON.stringify(difference.before) ?? '(absent)'} → ${JSON.stringify(difference.after) ?? '(absent)'}`;
