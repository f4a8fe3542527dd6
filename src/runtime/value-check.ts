import type { ListCheck, ValueCheck } from '../manifest/plan.js';

const patterns = new Map<string, RegExp>();

/** Whether a compiled list check accepts a parsed array. */
export function listCheckAccepts(
  check: Exclude<ListCheck, { defer: unknown }>,
  list: readonly unknown[],
): boolean {
  if (check.minItems !== undefined && list.length < check.minItems) return false;
  if (check.maxItems !== undefined && list.length > check.maxItems) return false;
  return list.every((item) => valueCheckAccepts(check.item, item));
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
    case 'string': {
      if (typeof value !== 'string') return false;
      if (check.minLength !== undefined && value.length < check.minLength) return false;
      if (check.maxLength !== undefined && value.length > check.maxLength) return false;
      return (check.patterns ?? []).every(({ source, flags }) => patternOf(source, flags).test(value));
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return false;
      if (check.integer && !Number.isInteger(value)) return false;
      if (check.minimum !== undefined && value < check.minimum) return false;
      if (check.maximum !== undefined && value > check.maximum) return false;
      if (check.exclusiveMinimum !== undefined && value <= check.exclusiveMinimum) return false;
      return check.exclusiveMaximum === undefined || value < check.exclusiveMaximum;
    }
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
