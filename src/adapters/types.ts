import type { ListCheck, ScalarKind } from '../manifest/plan.js';
import type { PositionFinder, RuntimeAdapter, StandardResult } from '../manifest/tool-set.js';
import type { JsonSchema } from '../shared/json-schema/schema.js';

/**
 * What one position of a schema takes, in the terms toolprep's plan compiler, its run-time
 * reference and positions need, whichever library the schema comes from. Wrappers that take what
 * they wrap (optional, default, a pipe's input side, …) are looked through before a node is read.
 */
export type SchemaNode<Schema> =
  | {
      readonly kind: 'object';
      readonly fields: Readonly<Record<string, Schema>>;
      /** What the keys it does not declare take (a catch-all); absent when they are stripped. */
      readonly rest?: Schema;
      /** Keys it does not declare are refused (a strict object). */
      readonly closed?: boolean;
    }
  | { readonly kind: 'record'; readonly values: Schema }
  | { readonly kind: 'array'; readonly element: Schema }
  | { readonly kind: 'tuple'; readonly items: readonly Schema[]; readonly rest?: Schema }
  | { readonly kind: 'union'; readonly options: readonly Schema[]; readonly discriminator?: string }
  | { readonly kind: 'intersection'; readonly sides: readonly [Schema, Schema] }
  /** Takes some raw strings (a string, a string literal or enum, a template literal). */
  | { readonly kind: 'text' }
  /** Takes any value, strings and structures included (any, unknown, a bare transform, custom). */
  | { readonly kind: 'any' }
  /** Takes no string and no structure (numbers, booleans, null, dates, …). */
  | { readonly kind: 'scalar' };

export type { RuntimeAdapter } from '../manifest/tool-set.js';

/**
 * A schema library read structurally: what the plan compiler and the run-time reference
 * (`coerceJsonArgs`) ask of a schema. Reads the library's objects; imports nothing of it.
 */
export interface SchemaView<Schema = unknown> {
  /** For messages: `zod 4`. */
  readonly library: string;
  /** True for a schema of this library. */
  owns(value: unknown): value is Schema;
  /** The schema with every wrapper that takes what it wraps looked through. */
  resolve(schema: Schema): Schema;
  /** The node of a resolved schema. */
  node(schema: Schema): SchemaNode<Schema>;
  /** The values a discriminated union's option takes under its key. */
  tags(option: Schema, key: string): readonly unknown[];
  /** The library's own name for the schema's type, for messages: `string`, `optional`. */
  typeName(schema: Schema): string;
  /**
   * True for an object schema itself, not wrapped: its keys are the keys of the arguments it takes,
   * as params and extension keys must be, since the runtime splits them off by those keys.
   */
  isObject(schema: Schema): boolean;
  /**
   * Whether the schema's parser may take `null`: false only where it surely refuses it, so that
   * the inverse step `nullAbsent` deletes a `null` only where the contract would have refused it.
   */
  takesNull(schema: Schema): boolean;
  /**
   * The strings the schema takes when it takes no other string (an enum, string literals, a union
   * of them where `null` may stand beside, through wrappers that add no string), for the inverse
   * step `caseFold`; undefined otherwise.
   */
  stringValues(schema: Schema): readonly string[] | undefined;
  /** The keys of an object schema that may be left out (optional, or filled by a default). */
  optionalKeys(object: Schema): readonly string[];
  /**
   * Repair `scalarText`: the JSON scalars (booleans, finite numbers) the schema takes where it
   * takes no string, looked through its wrappers; none under a wrapper that takes anything (a
   * catch's fallback would have taken the text), for a coercing parser (it takes strings as they
   * are), a string-bearing enum or a leaf that takes neither; undefined where the schema is a
   * structure or a union, whose members decide (`scalarKinds` in structure.ts).
   */
  scalarKinds(schema: Schema): readonly ScalarKind[] | undefined;
}

export type Dialect = 'draft-2020-12' | 'draft-07';

/** A node JSON Schema cannot show, with its field path (`files[].modified`). */
export interface UnrepresentableNode {
  readonly field: string;
  readonly message: string;
  readonly hint: string;
}

export interface Conversion {
  readonly document: JsonSchema;
  /** Nodes shown as `{}` because JSON Schema cannot show them: every one, so all are reported. */
  readonly unrepresentable: readonly UnrepresentableNode[];
}

/**
 * A schema library at build time: its view, its run-time adapter (positions are checked with it),
 * its JSON Schema converter and its exact list checks.
 */
export interface SchemaBuilder<Schema = unknown> {
  readonly view: SchemaView<Schema>;
  /** Its object schema, in messages: `a Zod object`. */
  readonly objectName: string;
  readonly runtime: RuntimeAdapter;
  /** What `runtime.locate()` loads, at hand. */
  readonly schemaAt: PositionFinder;
  /**
   * The schema's own parser on one value of a short pass (the explain stage's few hundred a tool):
   * the run-time parse, with the same result, less what only pays off over many calls.
   */
  validateFew(schema: Schema, value: unknown): StandardResult | Promise<StandardResult>;
  /** How to write a schema of this library, for hints: `z.object({ ... })`. */
  readonly objectExample: string;
  /** JSON Schema of one side (`input`: what a caller sends; `output`: what a tool returns). */
  convert(
    schema: Schema,
    options: { readonly dialect: Dialect; readonly io: 'input' | 'output' },
  ): Conversion;
  /**
   * "Would this array member accept that parsed array?" compiled to data, where that is exact;
   * undefined where only the member's own parser can tell (the check is then deferred to it).
   */
  listCheck(member: Schema): Exclude<ListCheck, { defer: unknown }> | undefined;
}
