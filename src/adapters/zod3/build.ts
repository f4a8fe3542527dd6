import { ignoreOverride, parseDef, zodToJsonSchema } from 'zod-to-json-schema';
import { inlineAcyclicReferences } from '../../shared/json-schema/definitions.js';
import { setOwn } from '../../shared/run/own-property.js';
import { draft07To202012, schemaKeyFirst } from '../documents.js';
import { fieldPath } from '../field-path.js';
import type { SchemaBuilder, UnrepresentableNode } from '../types.js';
import { coercedFactsOf, factsOf, wrappedBy, type Zod3Def, type Zod3Schema } from './def.js';
import { zod3ListCheck } from './list-checks.js';
import { schemaAt } from './locate.js';
import { zod3 } from './runtime.js';
import { zod3View } from './view.js';

function hintFor(def: Zod3Def): string {
  return `${factsOf(def).hint ?? 'use a schema JSON can carry'}, or set unrepresentable: 'degrade' to show it as {}`;
}

/**
 * Zod 3 at build time, through zod-to-json-schema, brought to the documents Zod 4 gives: the input
 * (or output) side; a schema met twice, or within itself, as a named definition; discriminated
 * unions exclusive (`oneOf`); `.catch()` and `.default()` fields optional; and every node JSON
 * Schema cannot show reported with its field path, never shown as a silent `{}`.
 */
export const zod3Builder: SchemaBuilder<Zod3Schema> = {
  view: zod3View,
  // zod-to-json-schema is bundled into the build package: only the project's zod varies.
  objectName: 'a Zod object',
  objectExample: 'z.object({ ... })',
  runtime: zod3,
  schemaAt,
  validateFew: zod3.validate,
  convert(schema, { dialect, io }) {
    const unrepresentable: UnrepresentableNode[] = [];
    const report = (def: Zod3Def, path: readonly (string | number)[], words: string) => {
      const message = `${words} cannot be represented in JSON Schema`;
      unrepresentable.push({ field: fieldPath(path.slice(1)), message, hint: hintFor(def) });
      return {};
    };
    const protoFields = protoFieldKeeper();
    const document = zodToJsonSchema(schema as never, {
      target: 'jsonSchema7',
      $refStrategy: 'root',
      definitionPath: 'definitions',
      definitions: sharedDefinitions(schema) as never,
      effectStrategy: 'input',
      pipeStrategy: io,
      // Input: only .strict() refuses extra keys. Output: a stripping object gives none either, as
      // Zod 4's converter says on the output side.
      removeAdditionalStrategy: io === 'input' ? 'strict' : 'passthrough',
      allowedAdditionalProperties: undefined,
      override: (def, refs, _seen, forceResolution) => {
        const captured = protoFields.capture(def, refs, forceResolution);
        if (captured !== ignoreOverride) return captured;
        const zodDef = def as unknown as Zod3Def;
        const facts = factsOf(zodDef);
        // What a coercing parser is given, where that is JSON, is shown (by postProcess).
        if (io === 'input' && coercedFactsOf(zodDef)?.input) return ignoreOverride;
        const words =
          facts.unrepresentable ??
          (io === 'output' ? facts.outputUnrepresentable : undefined) ??
          // A literal's value, not its type: `undefined` is no JSON value.
          (facts.kind === 'values' && facts.values(zodDef).includes(undefined)
            ? 'Literal `undefined`'
            : undefined);
        return words ? report(zodDef, refs.currentPath, words) : ignoreOverride;
      },
      postProcess: (json, def, refs) => {
        const zodDef = def as unknown as Zod3Def;
        const facts = factsOf(zodDef);
        const { catchValue, shape } = zodDef;
        // Takes nothing, as Zod 4's converter writes it: `enum: []` is no schema Ajv compiles.
        if (facts.kind === 'values' && facts.values(zodDef).length === 0) {
          const { description } = (json ?? {}) as { description?: string };
          return (description === undefined ? { not: {} } : { not: {}, description }) as never;
        }
        // `z.coerce.date()`: the text it is given, as the table says (its description kept).
        const coercedInput = io === 'input' ? coercedFactsOf(zodDef)?.input : undefined;
        if (coercedInput) return { ...json, ...coercedInput } as never;
        if (facts.kind === 'object') protoFields.restore(json, refs);
        // A discriminated union takes exactly one variant, as Zod 4's converter says.
        if (
          facts.kind === 'union' &&
          zodDef.discriminator !== undefined &&
          (json as { anyOf?: unknown })?.anyOf
        ) {
          const { anyOf, ...rest } = json as { anyOf: unknown[] };
          return { ...rest, oneOf: anyOf } as never;
        }
        // On the output side a field with a default or a catch is always there.
        if (io === 'output' && facts.kind === 'object' && json) {
          const required = Object.entries(shape?.() ?? {})
            .filter(([, field]) => !mayBeMissingFromOutput(field))
            .map(([key]) => key);
          const { required: _input, ...rest } = json as { required?: string[] };
          return (required.length > 0 ? { ...rest, required } : rest) as never;
        }
        // A fixed `.catch()` value is shown as the default, as Zod 4's converter shows it.
        if (json && catchValue) {
          const fallback = fixedCatchValue(catchValue);
          if (fallback !== undefined) return { ...json, default: fallback } as never;
        }
        return json;
      },
    });
    // Through JSON: keys the converter left undefined go, as in every other document; and a type
    // list it wrote twice over (`z.null().nullable()` gives ["null", "null"]) is written once.
    const draft07 = schemaKeyFirst(
      inlineAcyclicReferences(JSON.parse(JSON.stringify(document), uniqueTypes)),
    );
    return { document: dialect === 'draft-07' ? draft07 : draft07To202012(draft07), unrepresentable };
  },
  listCheck: zod3ListCheck,
};

type ParseArguments = Parameters<typeof parseDef>;

/**
 * zod-to-json-schema writes each property with `properties[name] = schema`, which for a field named
 * `__proto__` sets the prototype instead: the field would be required and not declared. Its schema
 * is caught as it is converted (by its place, `properties/__proto__`, once more through the
 * converter) and written back as an own property when its object is done.
 */
function protoFieldKeeper(): {
  capture(
    def: ParseArguments[0],
    refs: ParseArguments[1],
    force?: boolean,
  ): ReturnType<typeof parseDef> | typeof ignoreOverride;
  restore(json: unknown, refs: ParseArguments[1]): void;
} {
  const found = new Map<string, unknown>();
  let again: unknown;
  return {
    capture(def, refs, force) {
      const path = refs.currentPath;
      if (def === again) {
        // The conversion this keeper asked for: converted as any other.
        again = undefined;
        return ignoreOverride;
      }
      if (path.at(-1) !== '__proto__' || path.at(-2) !== 'properties') return ignoreOverride;
      again = def;
      const json = parseDef(def, refs, force);
      found.set(path.slice(0, -2).join('/'), json);
      return json;
    },
    restore(json, refs) {
      const field = found.get(refs.currentPath.join('/'));
      const properties = (json as { properties?: Record<string, unknown> } | undefined)?.properties;
      if (field === undefined || !properties) return;
      Object.setPrototypeOf(properties, Object.prototype);
      setOwn(properties, '__proto__', field);
    },
  };
}

/**
 * Schemas met more than once, or within themselves, by name, children first: zod-to-json-schema
 * then writes them as `#/definitions/<name>`, never as a pointer into another field's path (and
 * those that are not recursive are written out in place afterwards, as Zod 4 does).
 */
function sharedDefinitions(root: Zod3Schema): Record<string, Zod3Schema> {
  const seen = new Map<Zod3Def, { schema: Zod3Schema; count: number; order?: number }>();
  const inProgress = new Set<Zod3Def>();
  let finished = 0;
  const visit = (schema: Zod3Schema) => {
    const def = schema._def;
    const entry = seen.get(def);
    if (entry) {
      entry.count++;
      return;
    }
    const record = { schema, count: 1, order: undefined as number | undefined };
    seen.set(def, record);
    inProgress.add(def);
    for (const child of childrenOf(schema)) visit(child);
    inProgress.delete(def);
    record.order = finished++;
  };
  visit(root);
  const shared = [...seen.values()]
    .filter((entry) => entry.count > 1)
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  return Object.fromEntries(shared.map((entry, index) => [`__schema${index}`, entry.schema]));
}

/** Every schema a Zod 3 schema holds, as zod-to-json-schema walks them. */
function childrenOf(schema: Zod3Schema): Zod3Schema[] {
  const holds = factsOf(schema._def).holds?.(schema._def) ?? [];
  return [wrappedBy(schema), ...holds].filter(
    (child): child is Zod3Schema => typeof child === 'object' && child !== null && '_def' in child,
  );
}

/** Whether a field's parsed value may lack it: optional, and not given a value by a default. */
function mayBeMissingFromOutput(field: Zod3Schema): boolean {
  const facts = factsOf(field._def);
  const missing = facts.kind === 'wrapper' ? facts.missing : undefined;
  if (missing === 'kept') return true;
  if (missing === 'filled') return false;
  if (missing === 'inner') return mayBeMissingFromOutput(wrappedBy(field) as Zod3Schema);
  return (field as unknown as { isOptional(): boolean }).isOptional();
}

/**
 * The value of `.catch(value)`, or undefined for `.catch((context) => ...)`, which depends on the
 * failed parse: Zod 3 wraps a plain value in a function of no parameters.
 */
function fixedCatchValue(catchValue: NonNullable<Zod3Def['catchValue']>): unknown {
  return catchValue.length === 0 ? catchValue({ error: undefined, input: undefined }) : undefined;
}

function uniqueTypes(key: string, value: unknown): unknown {
  if (key !== 'type' || !Array.isArray(value)) return value;
  const types = [...new Set(value)];
  return types.length === 1 ? types[0] : types;
}
