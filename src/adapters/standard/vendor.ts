/**
 * What toolprep knows of each Standard JSON Schema vendor, apart from the documents it makes: the
 * run-time adapter needs this much, and no more, to read an object's keys.
 */

/** A schema that implements Standard Schema and Standard JSON Schema. */
export interface StandardJsonSchema {
  readonly '~standard': {
    readonly vendor: string;
    validate(value: unknown): unknown;
    readonly jsonSchema?: {
      input(options: { target: string; libraryOptions?: unknown }): Record<string, unknown>;
      output(options: { target: string; libraryOptions?: unknown }): Record<string, unknown>;
    };
  };
}

/** A Standard Schema library toolprep reads: any but Zod, which has adapters of its own. */
export function isStandardJsonSchema(value: unknown): value is StandardJsonSchema {
  const standard = (value as StandardJsonSchema | null)?.['~standard'];
  return typeof standard?.jsonSchema?.input === 'function' && standard.vendor !== 'zod';
}

/** Where a vendor's converter is told to mark what JSON Schema cannot show. */
export const MARK = 'x-toolprep-unrepresentable';
const mark = (what: string) => ({ [MARK]: `${what} cannot be represented in JSON Schema` });

/** Valibot 1.x's converter (`@valibot/to-json-schema`) handles these schema types, and no others. */
const VALIBOT_SCHEMAS = new Set(
  'boolean null number string array tuple tuple_with_rest loose_tuple strict_tuple object object_with_rest loose_object strict_object record any unknown never nullable nullish exact_optional optional undefinedable literal enum picklist union variant intersect lazy'.split(
    ' ',
  ),
);

const WORDS: Record<string, string> = {
  date: 'Date',
  bigint: 'BigInt',
  symbol: 'Symbols',
  undefined: 'Undefined',
  map: 'Map',
  set: 'Set',
  function: 'Function types',
};

/**
 * What each vendor's converter needs to be told so that a node it cannot show is marked, never
 * shown as a silent `{}`, and a refinement stays hidden (as Zod's are). A vendor not listed here
 * is converted as it converts itself: only what it throws for is reported.
 */
export function vendorOptions(vendor: string, io: 'input' | 'output'): unknown {
  switch (vendor) {
    case 'arktype':
      return {
        fallback: {
          date: () => mark('Date'),
          domain: ({ domain }: { domain: string }) => mark(WORDS[domain] ?? domain),
          proto: ({ proto }: { proto: { name: string } }) => mark(`${proto.name} instances`),
          unit: () => mark('Literal `undefined`'),
          morph: ({ base }: { base: unknown }) => (io === 'output' ? mark('Transforms') : base),
          predicate: ({ base }: { base: unknown }) => base,
        },
      };
    case 'valibot':
      return {
        errorMode: 'ignore',
        overrideSchema: ({ valibotSchema }: { valibotSchema: { type: string } }) =>
          VALIBOT_SCHEMAS.has(valibotSchema.type)
            ? undefined
            : mark(WORDS[valibotSchema.type] ?? valibotSchema.type),
      };
    default:
      return undefined;
  }
}
