import {
  SINGLE_SUBSCHEMA_KEYS,
  SUBSCHEMA_LIST_KEYS,
  SUBSCHEMA_MAP_KEYS,
} from '../shared/json-schema/keywords.js';
import type { JsonSchema } from '../shared/json-schema/schema.js';
import { setOwn } from '../shared/run/own-property.js';

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * A draft-07 document as JSON Schema 2020-12, for libraries whose converter writes draft-07 only:
 * `definitions` become `$defs` (and every reference follows), a tuple's `items` list becomes
 * `prefixItems` with `additionalItems` as its `items`, and `$schema` says 2020-12.
 */
export function draft07To202012(document: JsonSchema): JsonSchema {
  const converted = convert(document) as Record<string, unknown>;
  return schemaKeyFirst({ ...converted, $schema: DRAFT_2020_12 });
}

/** `$schema` as the first key, where every document toolprep writes has it, whichever converter. */
export function schemaKeyFirst({ $schema, ...rest }: Record<string, unknown>): Record<string, unknown> {
  return $schema === undefined ? rest : { $schema, ...rest };
}

function convert(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const schema = value as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(schema)) {
    if (key === 'definitions') result.$defs = convertMap(child);
    else if (key === '$ref' && typeof child === 'string')
      result.$ref = child.replace(/^#\/definitions\//, '#/$defs/');
    else if (key === 'items' && Array.isArray(child)) result.prefixItems = child.map(convert);
    else if (key === 'additionalItems' && Array.isArray(schema.items)) result.items = convert(child);
    else if (SINGLE_SUBSCHEMA_KEYS.includes(key)) result[key] = convert(child);
    else if (SUBSCHEMA_LIST_KEYS.includes(key) && Array.isArray(child)) result[key] = child.map(convert);
    else if (SUBSCHEMA_MAP_KEYS.includes(key)) result[key] = convertMap(child);
    // Any other keyword as it is: `.meta()` may have written a user's key here, `__proto__` too.
    else setOwn(result, key, child);
  }
  return result;
}

function convertMap(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, convert(child)]));
}

const DEFINITION_REF = /^#\/(\$defs|definitions)\/(.+)$/;

/** A document's definitions: where they are, how a reference names one, and which are recursive. */
export interface DefinitionGraph {
  readonly defsKey: '$defs' | 'definitions';
  readonly defs: Readonly<Record<string, unknown>>;
  /** The definition a `$ref` names, or undefined for any other reference. */
  targetOf(ref: unknown): string | undefined;
  /** The definitions that contain themselves, directly or through others. */
  readonly recursive: ReadonlySet<string>;
}

export function definitionGraph(document: JsonSchema): DefinitionGraph {
  const defsKey = '$defs' in document ? '$defs' : 'definitions';
  const defs = (document[defsKey] ?? {}) as Record<string, unknown>;
  const targetOf = (ref: unknown): string | undefined => {
    const match = typeof ref === 'string' ? DEFINITION_REF.exec(ref) : null;
    return match && Object.hasOwn(defs, match[2] as string) ? (match[2] as string) : undefined;
  };
  const referencesOf = (value: unknown, found = new Set<string>()): Set<string> => {
    if (Array.isArray(value)) for (const item of value) referencesOf(item, found);
    else if (typeof value === 'object' && value !== null)
      for (const [key, child] of Object.entries(value)) {
        const target = key === '$ref' ? targetOf(child) : undefined;
        if (target !== undefined) found.add(target);
        else referencesOf(child, found);
      }
    return found;
  };
  const edges = new Map(Object.entries(defs).map(([name, body]) => [name, referencesOf(body)]));
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
    [...(edges.get(from) ?? [])].some((next) => {
      if (next === to) return true;
      if (seen.has(next)) return false;
      seen.add(next);
      return reaches(next, to, seen);
    });
  const recursive = new Set(Object.keys(defs).filter((name) => reaches(name, name)));
  return { defsKey, defs, targetOf, recursive };
}

/**
 * A document with every reference to a definition that is not recursive replaced by the
 * definition itself, as Zod 4 writes documents: definitions stay only where a schema contains
 * itself. A root that is a reference is written out in place (its definition kept when
 * recursive). Unions and objects then stand where they are used, for flattening and plans to see.
 */
export function inlineAcyclicReferences(document: JsonSchema): JsonSchema {
  const { defsKey, defs, targetOf, recursive } = definitionGraph(document);
  const inline = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(inline);
    if (typeof value !== 'object' || value === null) return value;
    const record = value as Record<string, unknown>;
    const target = targetOf(record.$ref);
    if (target !== undefined && !recursive.has(target)) {
      const { $ref: _ref, ...siblings } = record;
      return { ...(inline(defs[target]) as object), ...(inline(siblings) as object) };
    }
    return Object.fromEntries(
      Object.entries(record)
        .filter(([key]) => key !== defsKey)
        .map(([key, child]) => [key, inline(child)]),
    );
  };
  const kept = Object.fromEntries([...recursive].sort().map((name) => [name, inline(defs[name])]));
  let root = inline(document) as Record<string, unknown>;
  const rootTarget = targetOf(root.$ref);
  if (rootTarget !== undefined) {
    const { $ref: _ref, ...rest } = root;
    root = { ...rest, ...(kept[rootTarget] as object) };
  }
  return Object.keys(kept).length > 0 ? { ...root, [defsKey]: kept } : root;
}
