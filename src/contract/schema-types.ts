/**
 * How a schema carries its types, for `defineTool` and the generated handler types: the Standard
 * Schema way (`~standard.types`), which Zod 4 (and every library implementing Standard Schema)
 * follows. A library that carries its types another way is registered here, beside its adapter.
 */
export interface ContractSchema {
  readonly '~standard': {
    readonly types?: { readonly input: unknown; readonly output: unknown } | undefined;
  };
}

type TypesOf<S> = S extends { readonly '~standard': { readonly types?: infer Types } }
  ? NonNullable<Types>
  : never;

/** What a caller sends for this schema. */
export type SchemaInput<S> = TypesOf<S> extends { readonly input: infer Input } ? Input : unknown;

/** What this schema's parser gives. */
export type SchemaOutput<S> = TypesOf<S> extends { readonly output: infer Output } ? Output : unknown;
