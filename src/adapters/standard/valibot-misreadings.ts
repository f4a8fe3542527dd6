import { getOwn } from '../../shared/run/own-property.js';
import type { Misreading } from '../coerced-facts.js';
import type { StandardJsonSchema } from './vendor.js';

/**
 * Valibot's transformations that misread what models send, by action type. `parseBoolean()` reads
 * `"false"` as false, and ArkType's parsing keywords (`string.numeric.parse`, …) refuse `""`: none
 * of them is here.
 */
const VALIBOT_MISREADINGS: Readonly<Record<string, Misreading>> = {
  to_boolean: {
    where: 'anywhere',
    parser: 'v.toBoolean()',
    misreads: 'reads every non-empty string as true: "false" is true',
    instead: 'use v.boolean(): toolprep turns "false" into false before the parser runs',
    repair: 'scalarText',
  },
  to_number: {
    where: 'optional key',
    parser: 'v.toNumber()',
    misreads: 'reads "" as 0 where the key may be left out',
    instead: 'use v.number(): toolprep turns "42" into 42 before the parser runs, and "" is refused',
    repair: 'scalarText',
  },
};

/** The parts of a Valibot schema (or pipe action) that its walk reads. */
interface ValibotNode {
  readonly kind: string;
  readonly type: string;
  readonly pipe?: readonly ValibotNode[];
  readonly wrapped?: ValibotNode;
  readonly entries?: Readonly<Record<string, ValibotNode>>;
  readonly rest?: ValibotNode;
  readonly item?: ValibotNode;
  readonly items?: readonly ValibotNode[];
  readonly value?: ValibotNode;
  readonly options?: readonly ValibotNode[];
}

/** Wrappers whose key an object lets be left out. */
const OPTIONAL_WRAPPERS = new Set(['optional', 'exact_optional', 'nullish']);

/** A Valibot schema's place, as a JSON Schema document's path names it, and the misreading there. */
export interface ValibotMisreading {
  readonly path: readonly (string | number)[];
  readonly optionalKey: boolean;
  readonly misreading: Misreading;
}

/**
 * Each Valibot pipe that misreads model output, by its first transformation (the input side ends
 * there: `pipe(string(), toBoolean())` is shown as a string). The schema stays inside its
 * Standard JSON Schema wrapper: it is met as the converter's last `overrideSchema` call, its root.
 * Empty for another vendor, or where the converter throws (the presentation reports that).
 */
export function valibotMisreadings(schema: StandardJsonSchema): ValibotMisreading[] {
  const standard = schema['~standard'];
  if (standard.vendor !== 'valibot') return [];
  let root: ValibotNode | undefined;
  const overrideSchema = ({ valibotSchema }: { valibotSchema: ValibotNode }) => {
    root = valibotSchema;
    return undefined;
  };
  try {
    standard.jsonSchema?.input({
      target: 'draft-2020-12',
      libraryOptions: { errorMode: 'ignore', overrideSchema },
    });
  } catch {
    return [];
  }
  const found: ValibotMisreading[] = [];
  const ancestors = new Set<ValibotNode>();
  const walk = (node: ValibotNode, path: readonly (string | number)[], optionalKey: boolean): void => {
    // A picklist's or an enum's options are values, not schemas.
    if (typeof node !== 'object' || node === null || node.kind !== 'schema' || ancestors.has(node)) return;
    ancestors.add(node);
    if (node.pipe) {
      // A pipe's structure is its first schema's.
      const [first, ...actions] = flatPipe(node.pipe);
      const transformation = actions.find((action) => action.kind === 'transformation');
      const misreading = transformation && getOwn(VALIBOT_MISREADINGS, transformation.type);
      if (misreading) found.push({ path, optionalKey, misreading });
      if (first) walk(first, path, optionalKey);
    } else if (node.wrapped) walk(node.wrapped, path, optionalKey);
    else {
      for (const [key, entry] of Object.entries(node.entries ?? {}))
        walk(entry, [...path, 'properties', key], OPTIONAL_WRAPPERS.has(entry.type));
      if (node.rest) walk(node.rest, [...path, node.items ? 'items' : 'additionalProperties'], false);
      if (node.item) walk(node.item, [...path, 'items'], false);
      if (node.value) walk(node.value, [...path, 'additionalProperties'], false);
      for (const [index, item] of (node.items ?? []).entries())
        walk(item, [...path, 'prefixItems', index], false);
      for (const option of node.options ?? []) walk(option, path, optionalKey);
    }
    ancestors.delete(node);
  };
  if (root) walk(root, [], false);
  return found;
}

function flatPipe(pipe: readonly ValibotNode[]): ValibotNode[] {
  return pipe.flatMap((item) => (item.pipe ? flatPipe(item.pipe) : [item]));
}
