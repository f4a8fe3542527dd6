import type { $ZodType } from 'zod/v4/core';
import type { ValueCheck } from '../../manifest/plan.js';
import { type DataListCheck, type ListCheckLibrary, listCheckOf } from '../list-checks.js';
import { defOf, factsOf, type Zod4Def as ZodDef } from './def.js';

/** String formats Zod checks by their pattern alone, so the pattern is the whole check. */
const PATTERN_FORMATS = new Set([
  'regex',
  'email',
  'uuid',
  'guid',
  'starts_with',
  'ends_with',
  'includes',
  'lowercase',
  'uppercase',
  'datetime',
  'date',
  'time',
]);

const INTEGER_RANGES: Record<string, [number, number]> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
};

/** Zod 4's definitions, for the list-check compiler. */
const ZOD4_LISTS: ListCheckLibrary<$ZodType, ZodDef> = {
  factsOf,
  defOf,
  array: (def) => ({ element: def.element, bounds: lengthBounds(def, 'Items') }),
  plainOptions: (def) => (def.discriminator === undefined ? (def.options ?? []) : undefined),
  coerces: (def) => def.coerce === true,
  leaf: (def, json) =>
    json === 'boolean'
      ? checkless(def, { type: 'boolean' })
      : json === 'string'
        ? compileStringCheck(def)
        : compileNumberCheck(def),
};

/** See `listCheckOf`: an array member's check, as data where that is exact. */
export function zod4ListCheck(member: $ZodType): DataListCheck | undefined {
  return listCheckOf(member, ZOD4_LISTS);
}

function checkless(def: ZodDef, check: ValueCheck): ValueCheck | undefined {
  return (def.checks ?? []).length === 0 ? check : undefined;
}

function lengthBounds(def: ZodDef, unit: 'Items' | 'Length'): Record<string, number> | undefined {
  const bounds: Record<string, number> = {};
  const raise = (key: string, value: number, pick: (a: number, b: number) => number) => {
    bounds[key] = key in bounds ? pick(bounds[key] as number, value) : value;
  };
  for (const check of def.checks ?? []) {
    const spec = check._zod.def;
    if (spec.check === 'min_length') raise(`min${unit}`, spec.minimum as number, Math.max);
    else if (spec.check === 'max_length') raise(`max${unit}`, spec.maximum as number, Math.min);
    else if (spec.check === 'length_equals') {
      raise(`min${unit}`, spec.length as number, Math.max);
      raise(`max${unit}`, spec.length as number, Math.min);
    } else if (unit === 'Items' || spec.check !== 'string_format') return undefined;
  }
  return bounds;
}

function compileStringCheck(def: ZodDef & { format?: string; pattern?: RegExp }): ValueCheck | undefined {
  const bounds = lengthBounds(def, 'Length');
  if (!bounds) return undefined;
  const formats = [def, ...(def.checks ?? []).map((check) => check._zod.def)] as {
    format?: string;
    pattern?: RegExp;
    check?: string;
  }[];
  const patterns: { source: string; flags: string }[] = [];
  for (const format of formats) {
    if (format.check !== undefined && format.check !== 'string_format') continue;
    if (format.format === undefined) continue;
    if (!PATTERN_FORMATS.has(format.format) || !(format.pattern instanceof RegExp)) return undefined;
    patterns.push({ source: format.pattern.source, flags: format.pattern.flags });
  }
  return { type: 'string', ...bounds, ...(patterns.length > 0 ? { patterns } : {}) };
}

function compileNumberCheck(def: ZodDef & { format?: string }): ValueCheck | undefined {
  const check: Record<string, unknown> = { type: 'number' };
  const applyFormat = (format: string): boolean => {
    const range = INTEGER_RANGES[format];
    if (range) {
      check.integer = true;
      tighten(check, 'minimum', range[0], Math.max);
      tighten(check, 'maximum', range[1], Math.min);
      return true;
    }
    return format === 'float64';
  };
  if (def.format !== undefined && !applyFormat(def.format)) return undefined;
  for (const { _zod } of def.checks ?? []) {
    const spec = _zod.def;
    if (spec.check === 'greater_than')
      tighten(check, spec.inclusive ? 'minimum' : 'exclusiveMinimum', spec.value as number, Math.max);
    else if (spec.check === 'less_than')
      tighten(check, spec.inclusive ? 'maximum' : 'exclusiveMaximum', spec.value as number, Math.min);
    else if (spec.check !== 'number_format' || !applyFormat(spec.format as string)) return undefined;
  }
  return check as ValueCheck;
}

function tighten(
  check: Record<string, unknown>,
  key: string,
  value: number,
  pick: (a: number, b: number) => number,
): void {
  check[key] = key in check ? pick(check[key] as number, value) : value;
}
