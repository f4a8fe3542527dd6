import { getOwn } from '../run/own-property.js';
import { isSchemaObject, type JsonSchema } from './schema.js';
import { mapSchema, walkSchema } from './walk.js';

/**
 * A document's definitions and the references into them: where they are kept, which one a `$ref`
 * names, what a reference leads to, which definitions contain themselves, and a document with the
 * others written out where they are used.
 */

/** Where a document keeps its definitions: `$defs` (2020-12) or `definitions` (draft-07). */
export type DefsKey = '$defs' | 'definitions';

/** A reference to a definition, by either keyword (a definition may be named `""`). */
const DEFINITION_REF = /^#\/(\$defs|definitions)\/(.*)$/;

/** At most this many references followed one after another: a cycle of bare references has no end. */
const MAX_REFERENCE_CHAIN = 32;

/** A document's definitions, and how its references name them. */
export interface Definitions {
  /** `$defs` where the document has them, else `definitions`. */
  readonly defsKey: DefsKey;
  /** The definitions by name, own keys only; `{}` when there are none. */
  readonly defs: Readonly<Record<string, unknown>>;
  /**
   * The name of the definition a `$ref` names (`#/$defs/Name` or `#/definitions/Name`, as written:
   * no pointer escapes are read), or undefined for any other value or reference.
   */
  targetOf(ref: unknown): string | undefined;
  /**
   * What `node` stands for: through its `$ref` to the definition, and on through references that
   * name references (at most 32); `node` itself when it is no reference, undefined when a reference
   * names no definition.
   */
  resolve(node: unknown): unknown;
}

export function definitionsOf(document: JsonSchema): Definitions {
  const defsKey: DefsKey = '$defs' in document ? '$defs' : 'definitions';
  const held = document[defsKey];
  const defs: Readonly<Record<string, unknown>> = isSchemaObject(held) ? held : {};
  const targetOf = (ref: unknown): string | undefined => {
    const name = typeof ref === 'string' ? DEFINITION_REF.exec(ref)?.[2] : undefined;
    return name !== undefined && Object.hasOwn(defs, name) ? name : undefined;
  };
  const resolve = (node: unknown): unknown => {
    let current = node;
    for (let steps = 0; steps < MAX_REFERENCE_CHAIN; steps++) {
      if (!isSchemaObject(current) || typeof current.$ref !== 'string') return current;
      const target = targetOf(current.$ref);
      current = target === undefined ? undefined : getOwn(defs, target);
    }
    return current;
  };
  return { defsKey, defs, targetOf, resolve };
}

/** A document's definitions, with the ones that contain themselves. */
export interface DefinitionGraph extends Definitions {
  /** The definitions that contain themselves, directly or through others, in the document's order. */
  readonly recursive: ReadonlySet<string>;
}

export function definitionGraph(document: JsonSchema): DefinitionGraph {
  const definitions = definitionsOf(document);
  const { defs, targetOf } = definitions;
  const referencesOf = (body: unknown): Set<string> => {
    const found = new Set<string>();
    if (isSchemaObject(body))
      walkSchema(body, (node) => {
        const target = targetOf(node.$ref);
        if (target !== undefined) found.add(target);
      });
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
  return { ...definitions, recursive };
}

/**
 * A document with every reference to a definition that is not recursive replaced by the
 * definition itself, as Zod 4 writes documents: definitions stay only where a schema contains
 * itself. A root that is a reference is written out in place (its definition kept when
 * recursive). Unions and objects then stand where they are used, for flattening and plans to see.
 */
export function inlineAcyclicReferences(document: JsonSchema): JsonSchema {
  const { defsKey, defs, targetOf, recursive } = definitionGraph(document);
  const inline = (schema: unknown): unknown =>
    isSchemaObject(schema)
      ? mapSchema(schema, (node) => {
          // Definitions are kept below, once, only where recursive: none stays inside a subschema.
          const { [defsKey]: _defs, ...body } = node;
          const target = targetOf(body.$ref);
          if (target === undefined || recursive.has(target)) return defsKey in node ? body : node;
          const { $ref: _ref, ...siblings } = body;
          return { ...(inline(defs[target]) as object), ...siblings };
        })
      : schema;
  const kept = Object.fromEntries([...recursive].sort().map((name) => [name, inline(defs[name])]));
  const { [defsKey]: _defs, ...body } = document;
  let root = inline(body) as JsonSchema;
  const rootTarget = targetOf(root.$ref);
  if (rootTarget !== undefined) {
    const { $ref: _ref, ...rest } = root;
    root = { ...rest, ...(kept[rootTarget] as object) };
  }
  return Object.keys(kept).length > 0 ? { ...root, [defsKey]: kept } : root;
}

/** The document with every `$ref` rewritten through `rewrite`; unchanged nodes as they are. */
export function rewriteRefs(schema: JsonSchema, rewrite: (ref: string) => string): JsonSchema {
  return mapSchema(schema, (node) => {
    const ref = node.$ref;
    if (typeof ref !== 'string') return node;
    const rewritten = rewrite(ref);
    return rewritten === ref ? node : { ...node, $ref: rewritten };
  });
}

/** Whether some subschema of the document has exactly this `$ref`. */
export function containsRef(schema: JsonSchema, ref: string): boolean {
  let found = false;
  walkSchema(schema, (node) => {
    found ||= node.$ref === ref;
    return !found;
  });
  return found;
}
