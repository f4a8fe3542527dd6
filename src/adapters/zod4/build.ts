import type { $ZodType } from 'zod/v4/core';
import { globalRegistry, toJSONSchema } from 'zod/v4/core';
import type { StandardResult } from '../../manifest/tool-set.js';
import type { JsonSchema } from '../../shared/json-schema/schema.js';
import { isRecord } from '../../shared/run/is-record.js';
import { setOwn } from '../../shared/run/own-property.js';
import { fieldPath } from '../field-path.js';
import type { SchemaBuilder, UnrepresentableNode } from '../types.js';
import { coercedFactsOf, defOf, factsOf } from './def.js';
import { zod4ListCheck } from './list-checks.js';
import { schemaAt } from './locate.js';
import { zod4 } from './runtime.js';
import { zod4View } from './view.js';

/**
 * A schema's metadata (`.describe()`, `.meta()`), whichever copy of Zod 4 made it: the registry
 * every copy since 4.1 shares, else the schema's own copy's (a classic schema answers `.meta()`:
 * zod 3.25's `zod/v4` keeps its own registry).
 */
const metadata = {
  get(schema: $ZodType): Record<string, unknown> | undefined {
    const own = (schema as { meta?: () => Record<string, unknown> | undefined }).meta;
    return globalRegistry.get(schema) ?? (typeof own === 'function' ? own.call(schema) : undefined);
  },
} as unknown as typeof globalRegistry;

/**
 * Zod 4 at build time: one JSON Schema converter (Zod's own, from toolprep's copy) for schemas from
 * every entry point and copy of Zod 4, so the same schema gives the same bytes whichever made it;
 * `.catch()` fields left optional on the input side, and every node JSON Schema cannot show
 * collected (shown as `{}`) so that all of them are reported at once. See
 * docs/decisions/0002-presentation-beyond-zod-converter.md.
 */
export const zod4Builder: SchemaBuilder<$ZodType> = {
  view: zod4View,
  objectName: 'a Zod object',
  runtime: zod4,
  schemaAt,
  validateFew,
  objectExample: 'z.object({ ... })',
  convert(schema, { dialect, io }) {
    const unrepresentable: UnrepresentableNode[] = [];
    const document = toJSONSchema(schema, {
      target: dialect,
      io,
      metadata,
      unrepresentable: ({ zodSchema, path, message }) => {
        // Shown by the override instead: what a coercing parser is given, where that is JSON.
        if (io === 'input' && coercedFactsOf(zodSchema)?.input) return 'any';
        unrepresentable.push({ field: fieldPath(path), message, hint: hintFor(zodSchema) });
        return 'any';
      },
      override: ({ zodSchema, jsonSchema }) => {
        exclusiveDiscriminatedUnion(zodSchema, jsonSchema);
        if (io === 'input') {
          releaseCaughtFields(zodSchema, jsonSchema);
          showCoercedInput(zodSchema, jsonSchema);
        }
      },
    }) as JsonSchema;
    dropInheritedParts(document, new Set());
    return { document, unrepresentable };
  },
  listCheck: zod4ListCheck,
};

/** A parse's outcome as `safeParse` gives it, from the schema's own copy of Zod 4. */
type SafeParseResult =
  | { readonly success: true; readonly data: unknown }
  | { readonly success: false; readonly error: { readonly issues: StandardFailure['issues'] } };

interface ParsingSchema {
  safeParse?(value: unknown, context: typeof JITLESS): SafeParseResult;
  safeParseAsync?(value: unknown, context: typeof JITLESS): Promise<SafeParseResult>;
}

type StandardFailure = Extract<StandardResult, { readonly issues: unknown }>;

/**
 * Zod 4 writes an object schema's parser as code on its first parse (`new Function`), which pays
 * over a server's many calls; a pass parses each schema a few dozen times, so it parses without
 * it (`jitless`: the same issues, messages and value). A parse that throws or meets a promise runs
 * once more, asynchronously, as `~standard.validate` runs it at run time: twice in all, not thrice.
 */
function validateFew(schema: $ZodType, value: unknown): StandardResult | Promise<StandardResult> {
  const { safeParse, safeParseAsync } = schema as ParsingSchema;
  if (typeof safeParse !== 'function' || typeof safeParseAsync !== 'function')
    return zod4.validate(schema, value);
  try {
    return standardResultOf(safeParse.call(schema, value, JITLESS));
  } catch {
    return safeParseAsync.call(schema, value, JITLESS).then(standardResultOf);
  }
}

function standardResultOf(result: SafeParseResult): StandardResult {
  return result.success ? { value: result.data } : { issues: result.error.issues };
}

const JITLESS = { jitless: true } as const;

function hintFor(schema: $ZodType): string {
  const specific = factsOf(schema).hint ?? 'use a schema JSON can carry';
  return `${specific}, or set unrepresentable: 'degrade' to show it as {}`;
}

/**
 * A discriminated union takes exactly one variant: `oneOf`, as Zod's converter writes it for a union
 * marked exclusive. Copies before 4.1.13 (zod 3.25's `zod/v4` among them) do not mark it.
 */
function exclusiveDiscriminatedUnion(zodSchema: $ZodType, jsonSchema: Record<string, unknown>): void {
  const def = defOf(zodSchema);
  if (
    factsOf(zodSchema).kind !== 'union' ||
    def.discriminator === undefined ||
    !Array.isArray(jsonSchema.anyOf)
  )
    return;
  jsonSchema.oneOf = jsonSchema.anyOf;
  delete jsonSchema.anyOf;
}

/**
 * `z.coerce.date()` takes what `new Date()` takes and gives a Date: its nominal input, ISO text, is
 * shown in front of what the converter wrote there (its metadata). The output side, a Date, stays
 * unrepresentable.
 */
function showCoercedInput(zodSchema: $ZodType, jsonSchema: Record<string, unknown>): void {
  const input = coercedFactsOf(zodSchema)?.input;
  if (!input) return;
  const written = Object.entries(jsonSchema);
  for (const [key] of written) delete jsonSchema[key];
  for (const [key, value] of [...Object.entries(input), ...written]) setOwn(jsonSchema, key, value);
}

/** A field with `.catch()` accepts anything, a missing value included, so a caller need not send it. */
function releaseCaughtFields(zodSchema: $ZodType, jsonSchema: Record<string, unknown>): void {
  const { shape } = defOf(zodSchema);
  if (factsOf(zodSchema).kind !== 'object' || !shape || !Array.isArray(jsonSchema.required)) return;
  const required = (jsonSchema.required as string[]).filter((key) => !isCaught(shape[key]));
  if (required.length > 0) jsonSchema.required = required;
  else delete jsonSchema.required;
}

/**
 * Zod's fold of an intersection of objects (4.6) reads each member's `properties[key]` through the
 * prototype: for a key one member declares and another does not, named `constructor` or
 * `hasOwnProperty`, it writes an `allOf` with `null` in it (the function it found, cloned), which
 * no validator takes; named `__proto__`, one with `{}` (`Object.prototype`, cloned). Parts that
 * say nothing go, `{}` included (it takes every value, so the `allOf` means the same without it),
 * and one part left stands for itself: the field takes what its declaring member says (wider,
 * never narrower, where the other member has a catch-all). The document is the converter's own,
 * fresh: repaired in place, as the overrides do.
 */
function dropInheritedParts(node: unknown, seen: Set<object>): void {
  if (typeof node !== 'object' || node === null || seen.has(node)) return;
  seen.add(node);
  const record = node as Record<string, unknown>;
  const { allOf } = record;
  if (Array.isArray(allOf) && allOf.some(saysNothing)) {
    const parts = allOf.filter((part) => !saysNothing(part));
    const [only] = parts;
    if (parts.length === 1 && Object.keys(record).length === 1 && typeof only === 'object' && only !== null) {
      // `{ allOf: [X] }` alone says X: written as X, as the fold writes a key one member declares.
      delete record.allOf;
      for (const [key, value] of Object.entries(only)) setOwn(record, key, value);
    } else if (parts.length > 0) record.allOf = parts;
    else delete record.allOf;
  }
  for (const child of Object.values(record)) dropInheritedParts(child, seen);
}

/** `null`, which is no schema, or `{}`, which takes every value. */
function saysNothing(part: unknown): boolean {
  return part === null || (isRecord(part) && Object.keys(part).length === 0);
}

/** A catch, or a wrapper that leaves a missing value to one. */
function isCaught(schema: $ZodType | undefined): boolean {
  const facts = schema && factsOf(schema);
  if (facts?.kind !== 'wrapper') return false;
  return (
    facts.takes === 'anything' || (facts.missing === 'inner' && isCaught(facts.inner(schema as $ZodType)))
  );
}
