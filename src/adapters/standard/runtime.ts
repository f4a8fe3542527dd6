import type { RuntimeAdapter } from '../../manifest/tool-set.js';
import { isStandardJsonSchema, type StandardJsonSchema, vendorOptions } from './vendor.js';

/** An object schema's keys, read once from its JSON Schema. */
const keys = new WeakMap<object, string[]>();

/**
 * A Standard Schema library at run time (`toolprep/runtime/standard`): ArkType, Valibot through
 * `toStandardJsonSchema`, and any library that implements Standard JSON Schema, Zod aside. Its
 * parser runs through `~standard.validate`. Its refusals are never deferred to a member's parser,
 * so there is nothing to find.
 */
export const standard: RuntimeAdapter = {
  name: 'standard',
  owns: isStandardJsonSchema,
  keysOf(schema) {
    let found = keys.get(schema as object);
    if (!found) {
      // The vendor's options mark what it cannot show instead of throwing: the keys are still read.
      const standard = (schema as StandardJsonSchema)['~standard'];
      const { properties } =
        standard.jsonSchema?.input({
          target: 'draft-2020-12',
          libraryOptions: vendorOptions(standard.vendor, 'input'),
        }) ?? {};
      found = Object.keys(typeof properties === 'object' && properties !== null ? properties : {});
      keys.set(schema as object, found);
    }
    return found;
  },
  validate: (schema, value) => (schema as StandardJsonSchema)['~standard'].validate(value) as never,
  locate: async () => () => undefined,
};
