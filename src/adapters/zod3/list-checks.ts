import type { ValueCheck } from '../../manifest/plan.js';
import { escapeRegExp } from '../../shared/run/escape-reg-exp.js';
import { type DataListCheck, type ListCheckLibrary, listCheckOf } from '../list-checks.js';
import { factsOf, type Zod3Def, type Zod3Schema } from './def.js';

/** Zod 3's definitions, for the list-check compiler. */
const ZOD3_LISTS: ListCheckLibrary<Zod3Schema, Zod3Def> = {
  factsOf: (schema) => factsOf(schema._def),
  defOf: (schema) => schema._def,
  array: (def) => {
    const bounds: { minItems?: number; maxItems?: number } = {};
    if (def.exactLength) bounds.minItems = bounds.maxItems = def.exactLength.value;
    if (def.minLength) bounds.minItems = Math.max(bounds.minItems ?? 0, def.minLength.value);
    if (def.maxLength) bounds.maxItems = Math.min(bounds.maxItems ?? Infinity, def.maxLength.value);
    return { element: def.type as Zod3Schema | undefined, bounds };
  },
  plainOptions: (def) => (def.discriminator === undefined ? (def.options ?? []) : undefined),
  coerces: (def) => def.coerce === true,
  leaf: (def, json) =>
    json === 'boolean'
      ? { type: 'boolean' }
      : json === 'string'
        ? compileStringCheck(def)
        : compileNumberCheck(def),
};

/** See `listCheckOf`: an array member's check, as data where that is exact. */
export function zod3ListCheck(member: Zod3Schema): DataListCheck | undefined {
  return listCheckOf(member, ZOD3_LISTS);
}

/** The string checks that are their pattern or their length exactly; a format (email, …) is not. */
function compileStringCheck(def: Zod3Def): ValueCheck | undefined {
  const check: {
    type: 'string';
    minLength?: number;
    maxLength?: number;
    patterns?: { source: string; flags: string }[];
  } = { type: 'string' };
  const patterns: { source: string; flags: string }[] = [];
  for (const { kind, value, regex, position } of def.checks ?? []) {
    if (kind === 'min') check.minLength = Math.max(check.minLength ?? 0, value as number);
    else if (kind === 'max') check.maxLength = Math.min(check.maxLength ?? Infinity, value as number);
    else if (kind === 'length') {
      check.minLength = Math.max(check.minLength ?? 0, value as number);
      check.maxLength = Math.min(check.maxLength ?? Infinity, value as number);
    } else if (kind === 'regex' && regex instanceof RegExp)
      patterns.push({ source: regex.source, flags: regex.flags });
    else if (kind === 'startsWith') patterns.push({ source: `^${escapeRegExp(value as string)}`, flags: '' });
    else if (kind === 'endsWith') patterns.push({ source: `${escapeRegExp(value as string)}$`, flags: '' });
    else if (kind === 'includes' && typeof value === 'string' && position === undefined)
      patterns.push({ source: escapeRegExp(value), flags: '' });
    else return undefined;
  }
  return patterns.length > 0 ? { ...check, patterns } : check;
}

function compileNumberCheck(def: Zod3Def): ValueCheck | undefined {
  const check: Record<string, unknown> = { type: 'number' };
  const tighten = (key: string, value: number, pick: (a: number, b: number) => number) => {
    check[key] = key in check ? pick(check[key] as number, value) : value;
  };
  for (const { kind, value, inclusive } of def.checks ?? []) {
    if (kind === 'int') check.integer = true;
    else if (kind === 'min') tighten(inclusive ? 'minimum' : 'exclusiveMinimum', value as number, Math.max);
    else if (kind === 'max') tighten(inclusive ? 'maximum' : 'exclusiveMaximum', value as number, Math.min);
    // JSON text holds finite numbers only.
    else if (kind !== 'finite') return undefined;
  }
  return check as ValueCheck;
}
