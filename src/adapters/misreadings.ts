import type { Misreading } from './coerced-facts.js';
import { fieldPath } from './field-path.js';
import { type LibraryName, libraryOf } from './libraries.js';
import { valibotMisreadings } from './standard/valibot-misreadings.js';
import type { StandardJsonSchema } from './standard/vendor.js';
import type { SchemaView } from './types.js';
import { type Zod3Schema, coercedFactsOf as zod3CoercedFacts } from './zod3/def.js';
import { coercedFactsOf as zod4CoercedFacts } from './zod4/def.js';

/** A parser that misreads what models send, at a field of the schema: `flags.force`. */
export interface FoundMisreading extends Misreading {
  readonly field: string;
}

type Path = readonly (string | number)[];

/**
 * Each library's parsers that misread model output, by its name in the registry (libraries.ts):
 * Zod's read from its table's `coerced` facts through its view, Valibot's from its pipes.
 */
const FINDERS: Readonly<Record<LibraryName, (schema: unknown, view: SchemaView) => FoundMisreading[]>> = {
  zod4: (schema, view) => viewMisreadings(view, schema, (leaf) => zod4CoercedFacts(leaf as never)?.misreads),
  zod3: (schema, view) =>
    viewMisreadings(view, schema, (leaf) => zod3CoercedFacts((leaf as Zod3Schema)._def)?.misreads),
  standard: (schema) =>
    valibotMisreadings(schema as StandardJsonSchema).flatMap(({ misreading, path, optionalKey }) =>
      found(misreading, path, optionalKey),
    ),
};

/**
 * Every parser in a schema known to misread what models send (`z.coerce.boolean()` reads `"false"`
 * as true), with its field: the positions where it misreads (some only under a key that may be
 * left out), each path it is met at, through wrappers, unions and recursion.
 */
export function misreadingsOf(schema: unknown): FoundMisreading[] {
  const library = libraryOf(schema);
  return library ? FINDERS[library.name](schema, library.view) : [];
}

function found(misreading: Misreading | undefined, path: Path, optionalKey: boolean): FoundMisreading[] {
  if (!misreading || (misreading.where === 'optional key' && !optionalKey)) return [];
  return [{ ...misreading, field: fieldPath(path) }];
}

/** Walks a schema through its library's view, as a document's paths name its places. */
function viewMisreadings<S>(
  view: SchemaView<S>,
  root: S,
  misreadingOf: (leaf: S) => Misreading | undefined,
): FoundMisreading[] {
  const results: FoundMisreading[] = [];
  // Ancestors only: a schema met at two places is reported at both; one within itself, once.
  const ancestors = new Set<S>();
  const walk = (schema: S, path: Path, optionalKey: boolean): void => {
    const resolved = view.resolve(schema);
    results.push(...found(misreadingOf(resolved), path, optionalKey));
    if (ancestors.has(resolved)) return;
    ancestors.add(resolved);
    const node = view.node(resolved);
    switch (node.kind) {
      case 'object': {
        const optional = new Set(view.optionalKeys(resolved));
        for (const [key, field] of Object.entries(node.fields))
          walk(field, [...path, 'properties', key], optional.has(key));
        if (node.rest) walk(node.rest, [...path, 'additionalProperties'], false);
        break;
      }
      case 'record':
        walk(node.values, [...path, 'additionalProperties'], false);
        break;
      case 'array':
        walk(node.element, [...path, 'items'], false);
        break;
      case 'tuple':
        for (const [index, item] of node.items.entries()) walk(item, [...path, 'prefixItems', index], false);
        if (node.rest) walk(node.rest, [...path, 'items'], false);
        break;
      case 'union':
      case 'intersection':
        for (const member of node.kind === 'union' ? node.options : node.sides)
          walk(member, path, optionalKey);
        break;
    }
    ancestors.delete(resolved);
  };
  walk(root, [], false);
  return results;
}
