/**
 * How a schema carries its types, for `defineTool` and the generated handler types: the Standard
 * Schema way (`~standard.types`), which Zod 4, zod 3.24+ and every library implementing Standard
 * Schema follow, or Zod 3's own (`_input`, `_output`), which zod 3.23 has alone.
 */
export type ContractSchema = StandardTypedSchema | Zod3TypedSchema;

interface StandardTypedSchema {
  readonly '~standard': {
    readonly types?: { readonly input: unknown; readonly output: unknown } | undefined;
  };
}

interface Zod3TypedSchema {
  readonly _input: unknown;
  readonly _output: unknown;
  readonly _def: unknown;
}

type TypesOf<S> = S extends { readonly '~standard': { readonly types?: infer Types } }
  ? NonNullable<Types>
  : S extends Zod3TypedSchema
    ? { readonly input: S['_input']; readonly output: S['_output'] }
    : never;

/** What a caller sends for this schema. */
export type SchemaInput<S> = TypesOf<S> extends { readonly input: infer Input } ? Input : unknown;

/** What this schema's parser gives. */
export type SchemaOutput<S> = TypesOf<S> extends { readonly output: infer Output } ? Output : unknown;
