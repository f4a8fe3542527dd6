import { type JsonSchema, prepareTool, ToolprepError } from '@toolprep/build';
import fc from 'fast-check';
import { CoercionRefusal, coerceJsonArgs, defineTool } from 'toolprep';
import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { compileDocument, type DocumentValidator } from '../../src/generate/document-validator.js';
import { openapiAsJsonSchema } from '../../src/generate/superset.js';
import { INVERSE_STEPS, PROFILE_NAMES, type ProfileName } from '../../src/manifest/profiles.js';
import { getOwn, setOwn } from '../../src/shared/run/own-property.js';
import { acceptsAtOf } from '../support/coerce.js';
import { walkGenerated } from '../support/generated-walk.js';
import { PROPERTY_TIMEOUT, propertyRuns } from '../support/property-runs.js';
import {
  buildSchema,
  hasTwoMembersOfOneStructure,
  sampleOf,
  specArbitraries,
} from '../support/schema-arbitrary.js';

/**
 * The properties each profile holds, on random contracts and values (zod 4):
 * - no harm: a value the contract accepts comes out of the inverse steps unchanged;
 * - round trip: the value as a model answers under the profile validates against the profile's
 *   document (Ajv): with `null` for every key left out under openai-strict, which makes them
 *   required and nullable, as it is elsewhere; and with `null` for keys left out (always under
 *   openai-strict, now and then elsewhere), and enum strings in another case (anthropic-strict),
 *   the inverse steps bring it back to a value the contract accepts and parses to what it parses
 *   the original to; the plan and the run-time reference agree on it.
 */

const RUNS = propertyRuns(150);

/**
 * Whether a document takes a value, by the validator the superset proof uses (own keys only, a
 * `__proto__` field checked as any other), compiled once per document or union branch.
 */
const validators = new WeakMap<object, DocumentValidator>();
function validates(schema: JsonSchema, value: unknown, root: JsonSchema = schema): boolean {
  let validate = validators.get(schema);
  if (!validate) {
    validate = compileDocument(schema === root ? schema : { ...schema, $defs: root.$defs });
    validators.set(schema, validate);
  }
  return validate(value);
}

/**
 * Kinds left out of a profile's contracts: those it cannot express at all (the build refuses
 * them), and `.catch()`, whose parser takes a `null` as it takes anything (to give its fallback):
 * there `null` cannot mean "left out", so the inverse leaves it, and the parse gives the fallback.
 */
const CANNOT: { readonly [Profile in ProfileName]: ReadonlySet<string> } = {
  'openai-strict': new Set(['record', 'catch']),
  anthropic: new Set(['catch']),
  'anthropic-strict': new Set(['record', 'tree', 'catch']),
  gemini: new Set(['catch']),
  'gemini-openapi': new Set(['record', 'tree', 'catch']),
};

/** A subschema by JSON pointer in the document, through `$ref`s. */
function resolve(node: unknown, root: JsonSchema): JsonSchema | undefined {
  let current = node as JsonSchema | undefined;
  for (let steps = 0; current && typeof current.$ref === 'string' && steps < 32; steps++) {
    const name = current.$ref.replace(/^#\/\$defs\//, '');
    current = (root.$defs as Record<string, JsonSchema> | undefined)?.[name];
  }
  return current;
}

const takesNull = (schema: JsonSchema | undefined): boolean =>
  !schema ||
  Object.keys(schema).every((key) => ['description', 'title', 'default', 'examples'].includes(key)) ||
  schema.type === 'null' ||
  (Array.isArray(schema.type) && schema.type.includes('null')) ||
  (Array.isArray(schema.anyOf ?? schema.oneOf) &&
    ((schema.anyOf ?? schema.oneOf) as JsonSchema[]).some((branch) => takesNull(branch)));

interface Answering {
  readonly root: JsonSchema;
  /** Every key left out is sent as `null` (openai-strict); else only where the coin says. */
  readonly always: boolean;
  /** An enum string is sent in another case where the coin says (anthropic-strict). */
  readonly changeCase: boolean;
  readonly coin: () => boolean;
  /** Called for a key whose field takes `null` itself: `null` there cannot say "left out". */
  ambiguous(): void;
  /** Called for each string sent in another case. */
  changed(): void;
}

/** The value as a model answers under a profile, walked beside the MCP document (which mirrors the contract). */
function answeredAs(value: unknown, node: JsonSchema | undefined, answering: Answering): unknown {
  const { root, always, changeCase, coin, ambiguous } = answering;
  const schema = resolve(node, root);
  if (!schema) return value;
  if (typeof value === 'string') {
    const members = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : [];
    const other = value === value.toUpperCase() ? value.toLowerCase() : value.toUpperCase();
    if (!changeCase || !members.includes(value) || other === value || !coin()) return value;
    answering.changed();
    return other;
  }
  if (value === null || typeof value !== 'object') return value;
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) {
    const branch = branches.find((candidate) => validates(candidate, value, root));
    return answeredAs(value, branch, answering);
  }
  if (Array.isArray(value)) {
    const prefix = schema.prefixItems as JsonSchema[] | undefined;
    return value.map((item, index) =>
      answeredAs(item, prefix?.[index] ?? (schema.items as JsonSchema), answering),
    );
  }
  const record = value as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const answered: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record))
    setOwn(
      answered,
      key,
      answeredAs(item, getOwn(properties, key) ?? (schema.additionalProperties as JsonSchema), answering),
    );
  for (const [key, field] of Object.entries(properties)) {
    if (Object.hasOwn(record, key) || !(always || coin())) continue;
    if (takesNull(resolve(field, root))) ambiguous();
    setOwn(answered, key, null);
  }
  return answered;
}

function coinOf(seed: number): () => boolean {
  let state = seed >>> 0 || 1;
  return () => {
    state = (state * 1103515245 + 12345) >>> 0;
    return (state >>> 16) % 2 === 0;
  };
}

describe.each(PROFILE_NAMES)('profile %s', (profile) => {
  const { input } = specArbitraries(CANNOT[profile] as ReadonlySet<never>);
  const cases = input.chain((spec) =>
    fc.record({ spec: fc.constant(spec), value: sampleOf(spec), seed: fc.integer() }),
  );
  const inverse = INVERSE_STEPS[profile];

  /** The contract prepared for the profile, or undefined where the build refuses or narrows it. */
  function prepared(schema: z.ZodType) {
    const warnings: unknown[] = [];
    try {
      const tool = prepareTool(
        defineTool({ name: 'random_tool', description: 'A random tool.', input: schema }),
        {
          profiles: [profile],
          warn: (problem) => warnings.push(problem),
        },
      );
      return warnings.length > 0 ? undefined : tool;
    } catch (error) {
      if (error instanceof ToolprepError) return undefined;
      throw error;
    }
  }

  test(
    `no harm: the inverse steps leave a value the contract accepts unchanged (${RUNS} random contracts)`,
    () => {
      let checked = 0;
      fc.assert(
        fc.property(cases, ({ spec, value }) => {
          const schema = buildSchema(spec) as z.ZodType;
          const tool = prepared(schema);
          fc.pre(tool !== undefined && schema.safeParse(value).success);
          const acceptsAt = acceptsAtOf(schema);
          let repaired: unknown;
          try {
            repaired = walkGenerated((tool as NonNullable<typeof tool>).plan, value, { inverse, acceptsAt });
          } catch (error) {
            // The one exception to no harm: an accepted string that is a list written as text.
            if (error instanceof CoercionRefusal && error.message.includes('is a list written as text'))
              return;
            throw error;
          }
          expect(repaired).toEqual(value);
          checked++;
        }),
        { numRuns: RUNS },
      );
      expect(checked).toBeGreaterThan(RUNS / 4);
    },
    PROPERTY_TIMEOUT,
  );

  test(
    `round trip: the value as a model answers validates against the profile's document, and the inverse steps give back what the contract parses the original to (${RUNS} random contracts)`,
    () => {
      let checked = 0;
      let changedCase = 0;
      fc.assert(
        fc.property(cases, ({ spec, value, seed }) => {
          const schema = buildSchema(spec) as z.ZodType;
          const tool = prepared(schema);
          const original = schema.safeParse(value);
          // Inside a plain union with two object (or two array) members the walk cannot tell which
          // member a value is for, and removes only a `null` no member takes (documented).
          fc.pre(tool !== undefined && original.success && !hasTwoMembersOfOneStructure(spec));
          const { plan, inputSchema, profiles } = tool as NonNullable<typeof tool>;
          // openai-strict requires every key: a model sends `null` for each one left out, and the
          // document takes that. Elsewhere the document takes the value as it is, and a model
          // sends `null` only now and then, which the inverse steps undo all the same.
          const strict = profile === 'openai-strict';
          let isAmbiguous = false;
          const answer = answeredAs(value, inputSchema.mcp, {
            root: inputSchema.mcp,
            always: strict,
            changeCase: inverse.includes('caseFold'),
            coin: coinOf(seed),
            ambiguous: () => {
              isAmbiguous = true;
            },
            changed: () => {
              changedCase++;
            },
          });
          fc.pre(!isAmbiguous);
          const shown = profiles?.[profile]?.inputSchema as JsonSchema;
          const document = (profile === 'gemini-openapi' ? openapiAsJsonSchema(shown) : shown) as JsonSchema;
          expect(validates(document, strict ? answer : value)).toBe(true);
          let repaired: unknown;
          try {
            repaired = walkGenerated(plan, answer, { inverse, acceptsAt: acceptsAtOf(schema) });
          } catch (error) {
            // An accepted string that is a list written as text is refused, not round-tripped.
            if (error instanceof CoercionRefusal && error.message.includes('is a list written as text'))
              return;
            throw error;
          }
          expect(coerceJsonArgs(answer, schema, { inverse })).toEqual(repaired);
          const back = schema.safeParse(repaired);
          expect(back.error).toBeUndefined();
          expect(back.data).toEqual(original.data);
          checked++;
        }),
        { numRuns: RUNS },
      );
      expect(checked).toBeGreaterThan(RUNS / 10);
      if (inverse.includes('caseFold')) expect(changedCase).toBeGreaterThan(0);
    },
    PROPERTY_TIMEOUT,
  );
});
