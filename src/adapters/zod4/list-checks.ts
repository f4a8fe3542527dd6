import type { $ZodType } from 'zod/v4/core';
import type { ListCheck, ValueCheck } from '../../manifest/plan.js';
import { keepsValues } from '../type-facts.js';
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

/**
 * Compiles "would this array member accept that parsed array" to data where that is exact, and
 * otherwise returns undefined: the check is then deferred to the member's own parser.
 */
export function zod4ListCheck(member: $ZodType): Exclude<ListCheck, { defer: unknown }> | undefined {
  let schema = member;
  for (let inner = listedThrough(schema); inner; inner = listedThrough(schema)) schema = inner;
  const def = defOf(schema);
  if (factsOf(schema).kind !== 'array') return undefined;
  const bounds = lengthBounds(def, 'Items');
  const item = compileValueCheck(def.element as $ZodType);
  return bounds && item ? { ...bounds, item } : undefined;
}

/** What a wrapper that keeps the values it wraps (`null` aside) wraps: an array through it is one. */
function listedThrough(schema: $ZodType): $ZodType | undefined {
  const facts = factsOf(schema);
  return facts.kind === 'wrapper' && keepsValues(facts.takes) ? facts.inner(schema) : undefined;
}

function compileValueCheck(schema: $ZodType): ValueCheck | undefined {
  const def = defOf(schema);
  const facts = factsOf(schema);
  switch (facts.kind) {
    case 'wrapper': {
      if (facts.takes === 'anything') return { any: true };
      if (facts.takes === 'within') return undefined;
      const inner = compileValueCheck(facts.inner(schema) as $ZodType);
      return facts.takes === 'same' ? inner : inner && { anyOf: [{ type: 'null' }, inner] };
    }
    case 'values':
      return { values: facts.values(def) as (string | number | boolean | null)[] };
    case 'union': {
      if (def.discriminator !== undefined) return undefined;
      const options = (def.options ?? []).map(compileValueCheck);
      return options.every((option) => option !== undefined) ? { anyOf: options as ValueCheck[] } : undefined;
    }
    case 'text':
    case 'any':
    case 'scalar':
      switch (facts.json) {
        case 'any':
          return { any: true };
        case 'boolean':
          return def.coerce ? { any: true } : checkless(def, { type: 'boolean' });
        case 'null':
          return { type: 'null' };
        case 'string':
          return def.coerce ? undefined : compileStringCheck(def);
        case 'number':
          return def.coerce ? undefined : compileNumberCheck(def);
        default:
          return undefined;
      }
    default:
      return undefined;
  }
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
