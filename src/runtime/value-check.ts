import type { ListCheck, ValueCheck } from '../manifest/plan.js';

const patterns = new Map<string, RegExp>();

/** Whether a compiled list check accepts a parsed array. */
export function listCheckAccepts(
  check: Exclude<ListCheck, { defer: unknown }>,
  list: readonly unknown[],
): boolean {
  return (
    within(list.length, check.minItems, check.maxItems) &&
    list.every((item) => valueCheckAccepts(check.item, item))
  );
}

/** Whether a size or a number lies within bounds, either of which may be absent. */
function within(size: number, minimum = -Infinity, maximum = Infinity): boolean {
  return size >= minimum && size <= maximum;
}

function valueCheckAccepts(check: ValueCheck, value: unknown): boolean {
  if ('any' in check) return true;
  if ('anyOf' in check) return check.anyOf.some((option) => valueCheckAccepts(option, value));
  if ('values' in check) return check.values.includes(value as string);
  switch (check.type) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'string':
      return (
        typeof value === 'string' &&
        within(value.length, check.minLength, check.maxLength) &&
        (check.patterns ?? []).every(({ source, flags }) => patternOf(source, flags).test(value))
      );
    case 'number':
      return (
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (!check.integer || Number.isInteger(value)) &&
        within(value, check.minimum, check.maximum) &&
        value > (check.exclusiveMinimum ?? -Infinity) &&
        value < (check.exclusiveMaximum ?? Infinity)
      );
  }
}

function patternOf(source: string, flags: string): RegExp {
  const key = `${flags}/${source}`;
  let pattern = patterns.get(key);
  if (!pattern) {
    pattern = new RegExp(source, flags);
    patterns.set(key, pattern);
  }
  // A global or sticky pattern keeps state between tests; start each one from the beginning.
  pattern.lastIndex = 0;
  return pattern;
}
