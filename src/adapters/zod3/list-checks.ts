import type { ListCheck, ValueCheck } from '../../manifest/plan.js';
import { keepsValues } from '../type-facts.js';
import { factsOf, type Zod3Def, type Zod3Schema } from './def.js';

/**
 * Compiles "would this array member accept that parsed array" to data where that is exact, and
 * otherwise returns undefined: the check is then deferred to the member's own parser.
 */
export function zod3ListCheck(member: Zod3Schema): Exclude<ListCheck, { defer: unknown }> | undefined {
  let schema = member;
  for (let inner = listedThrough(schema); inner; inner = listedThrough(schema)) schema = inner;
  const def = schema._def;
  if (factsOf(def).kind !== 'array') return undefined;
  const item = compileValueCheck(def.type as Zod3Schema);
  if (!item) return undefined;
  const bounds: { minItems?: number; maxItems?: number } = {};
  if (def.exactLength) bounds.minItems = bounds.maxItems = def.exactLength.value;
  if (def.minLength) bounds.minItems = Math.max(bounds.minItems ?? 0, def.minLength.value);
  if (def.maxLength) bounds.maxItems = Math.min(bounds.maxItems ?? Infinity, def.maxLength.value);
  return { ...bounds, item };
}

/** What a wrapper that keeps the values it wraps (`null` aside) wraps: an array through it is one. */
function listedThrough(schema: Zod3Schema): Zod3Schema | undefined {
  const facts = factsOf(schema._def);
  return facts.kind === 'wrapper' && keepsValues(facts.takes) ? facts.inner(schema) : undefined;
}

function compileValueCheck(schema: Zod3Schema): ValueCheck | undefined {
  const def = schema._def;
  const facts = factsOf(def);
  switch (facts.kind) {
    case 'wrapper': {
      if (facts.takes === 'anything') return { any: true };
      if (facts.takes === 'within') return undefined;
      const wrapped = facts.inner(schema);
      const inner = wrapped && compileValueCheck(wrapped);
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
          return def.coerce ? { any: true } : { type: 'boolean' };
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
    else if (kind === 'startsWith') patterns.push({ source: `^${escaped(value as string)}`, flags: '' });
    else if (kind === 'endsWith') patterns.push({ source: `${escaped(value as string)}$`, flags: '' });
    else if (kind === 'includes' && typeof value === 'string' && position === undefined)
      patterns.push({ source: escaped(value), flags: '' });
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

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
