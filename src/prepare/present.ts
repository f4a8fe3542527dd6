import type { $ZodType } from 'zod/v4/core';
import { toJSONSchema } from 'zod/v4/core';
import type { JsonSchema } from '../manifest/types.js';
import { containsRef, DEFS_KEY, type Dialect, isSchemaObject, rewriteRefs } from './json-schema.js';

/** A schema node that JSON Schema cannot show, with its field path (`files[].modified`). */
export interface UnrepresentableNode {
  readonly field: string;
  readonly message: string;
  readonly hint: string;
}

export interface Conversion {
  readonly document: JsonSchema;
  readonly unrepresentable: readonly UnrepresentableNode[];
}

/**
 * Converts one Zod schema to one dialect with Zod's own converter. `io` is `input` for what a caller
 * sends and `output` for what a tool returns. Nodes JSON Schema cannot show become `{}` and are
 * returned, so that every one of them can be reported at once.
 */
export function convertSchema(schema: $ZodType, dialect: Dialect, io: 'input' | 'output'): Conversion {
  const unrepresentable: UnrepresentableNode[] = [];
  const document = toJSONSchema(schema, {
    target: dialect,
    io,
    unrepresentable: ({ zodSchema, path, message }) => {
      unrepresentable.push({ field: fieldPath(path), message, hint: hintFor(zodSchema._zod.def.type) });
      return 'any';
    },
    override: ({ zodSchema, jsonSchema }) => {
      if (io === 'input') releaseCaughtFields(zodSchema, jsonSchema);
    },
  }) as JsonSchema;
  return { document: hoistRecursiveRoot(document, dialect), unrepresentable };
}

/** `["properties","files","items","properties","modified"]` → `files[].modified`. */
function fieldPath(path: readonly (string | number)[]): string {
  let field = '';
  for (let index = 0; index < path.length; index++) {
    const segment = path[index];
    const next = path[index + 1];
    if (segment === 'properties' || segment === '$defs' || segment === 'definitions') {
      field += field ? `.${String(next)}` : String(next);
      index++;
    } else if (segment === 'items' && typeof next !== 'number') {
      field += '[]';
    } else if ((segment === 'prefixItems' || segment === 'items') && typeof next === 'number') {
      field += `[${next}]`;
      index++;
    } else if (segment === 'additionalProperties') {
      field += '.*';
    } else if (segment === 'anyOf' || segment === 'oneOf' || segment === 'allOf') {
      index++;
    }
  }
  return field || '(root)';
}

const HINTS: Record<string, string> = {
  date: 'take an ISO string with z.iso.datetime() and convert it in the handler',
  bigint: 'take z.string() or z.number().int() and convert it in the handler',
  map: 'take z.record() instead of z.map()',
  set: 'take z.array() instead of z.set()',
  custom: 'describe the value with a representable Zod schema',
  transform: 'a transform has no output shape; drop `output` or describe what the tool returns',
};

function hintFor(type: string): string {
  const specific = HINTS[type] ?? 'use a schema JSON can carry';
  return `${specific}, or set unrepresentable: 'degrade' to show it as {}`;
}

/** A field with `.catch()` accepts anything, a missing value included, so a caller need not send it. */
function releaseCaughtFields(zodSchema: $ZodType, jsonSchema: Record<string, unknown>): void {
  const def = zodSchema._zod.def as { type: string; shape?: Record<string, $ZodType> };
  if (def.type !== 'object' || !def.shape || !Array.isArray(jsonSchema.required)) return;
  const shape = def.shape;
  const required = (jsonSchema.required as string[]).filter((key) => !isCaught(shape[key]));
  if (required.length > 0) jsonSchema.required = required;
  else delete jsonSchema.required;
}

function isCaught(schema: $ZodType | undefined): boolean {
  const def = schema?._zod.def as { type: string; innerType?: $ZodType } | undefined;
  if (def?.type === 'catch') return true;
  return def?.type === 'readonly' && isCaught(def.innerType);
}

const ROOT_DEFINITION = '__root';

/**
 * Zod points a recursive root at `#`; the root is about to be merged with params and flattened, so
 * `#` would then mean something else. Move the recursion into a definition and keep a copy as root.
 */
function hoistRecursiveRoot(document: JsonSchema, dialect: Dialect): JsonSchema {
  if (!containsRef(document, '#')) return document;
  const defsKey = DEFS_KEY[dialect];
  const target = `#/${defsKey}/${ROOT_DEFINITION}`;
  const rewritten = rewriteRefs(document, (ref) => (ref === '#' ? target : ref));
  const { $schema, [defsKey]: defs, ...body } = rewritten;
  return { $schema, ...body, [defsKey]: { ...(isSchemaObject(defs) ? defs : {}), [ROOT_DEFINITION]: body } };
}
